package kmodel.explorer.search;

/**
 * The footprint audit ({@link FootprintAuditor}) found two tasks touching one field, one of them
 * writing, in steps whose reported footprints leave them unordered: an error of the scenario (a
 * missing footprint), so the check has no verdict.
 */
public final class UnreportedAccessException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UnreportedAccessException(String message) {
        super(message);
    }
}
