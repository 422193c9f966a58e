package kmodel.tools.arch.canary.verification.scenarios;

import kmodel.tools.arch.canary.verification.CanaryRegistry;

/** Breaks the verification package rule: a scenario group uses the registry that lists it (the import this split removed). */
public final class CanaryScenariosUseRegistry {
    private CanaryScenariosUseRegistry() {
    }

    public static String register() {
        return CanaryRegistry.all();
    }
}
