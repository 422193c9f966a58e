package kmodel.tools.arch.canary.explorer;

import kmodel.tools.arch.canary.explorer.trace.CanaryToken;

/** The explorer's API, using its trace package: allowed. */
public final class CanaryModelCheck {
    private CanaryModelCheck() {
    }

    public static String run() {
        return CanaryToken.encode();
    }
}
