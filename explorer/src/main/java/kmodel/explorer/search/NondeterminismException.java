package kmodel.explorer.search;

/**
 * Re-executing the same decisions met different choices: the scenario is not deterministic given
 * its schedule (identity hashes, HashMap order, wall clock, static state...).
 */
public final class NondeterminismException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public NondeterminismException(int depth, String what) {
        super("scenario is not deterministic: at choice " + depth + ", " + what);
    }
}
