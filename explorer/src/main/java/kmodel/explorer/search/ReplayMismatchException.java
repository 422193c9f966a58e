package kmodel.explorer.search;

/** A replayed schedule does not fit the scenario it names (model changed, or token edited). */
public final class ReplayMismatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ReplayMismatchException(String message) {
        super(message);
    }
}
