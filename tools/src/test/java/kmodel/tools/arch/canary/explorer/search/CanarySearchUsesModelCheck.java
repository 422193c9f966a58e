package kmodel.tools.arch.canary.explorer.search;

import kmodel.tools.arch.canary.explorer.CanaryModelCheck;

/** Breaks the explorer's package rule: a strategy uses the API built on it. */
public final class CanarySearchUsesModelCheck {
    private CanarySearchUsesModelCheck() {
    }

    public static String describe() {
        return CanaryModelCheck.run();
    }
}
