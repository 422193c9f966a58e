package kmodel.tools.arch.canary.verification;

import kmodel.tools.arch.canary.verification.world.CanaryScenario;

/** The registry, listing the scenarios: allowed. */
public final class CanaryRegistry {
    private CanaryRegistry() {
    }

    public static String all() {
        return CanaryScenario.name();
    }
}
