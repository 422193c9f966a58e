package kmodel.tools.arch.canary.verification;

import kmodel.tools.arch.canary.explorer.CanaryModelCheck;

/** Verification using the explorer: allowed. */
public final class CanaryVerificationUsesExplorer {
    private CanaryVerificationUsesExplorer() {
    }

    public static String check() {
        return CanaryModelCheck.run();
    }
}
