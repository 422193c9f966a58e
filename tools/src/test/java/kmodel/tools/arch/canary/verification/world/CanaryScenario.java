package kmodel.tools.arch.canary.verification.world;

/** A scenario of the canaries' verification. */
public final class CanaryScenario {
    private CanaryScenario() {
    }

    public static String name() {
        return "canary";
    }
}
