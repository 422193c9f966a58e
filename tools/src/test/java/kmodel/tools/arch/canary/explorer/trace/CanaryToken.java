package kmodel.tools.arch.canary.explorer.trace;

/** A replay token of the canaries' explorer. */
public final class CanaryToken {
    private CanaryToken() {
    }

    public static String encode() {
        return "km1";
    }
}
