package kmodel.tools.arch.canary.tools;

import kmodel.tools.arch.canary.verification.CanaryRegistry;

/** A command of the canaries' tools, using verification: allowed. */
public final class CanaryCommand {
    private CanaryCommand() {
    }

    public static String call() {
        return CanaryRegistry.all();
    }
}
