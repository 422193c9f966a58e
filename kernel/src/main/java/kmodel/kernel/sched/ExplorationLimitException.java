package kmodel.kernel.sched;

/**
 * An internal limit of the explorer was reached: the check cannot go on as asked, and says which
 * limit and what to change. Not a violation of the model and not a bad replay token: the
 * deterministic runtime throws it from {@link DeterministicRuntime#execute} itself, on the
 * controller, however the model code that met the limit unwound.
 */
public final class ExplorationLimitException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ExplorationLimitException(String message) {
        super(message);
    }
}
