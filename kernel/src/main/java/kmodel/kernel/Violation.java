package kmodel.kernel;

/**
 * Thrown by the model at the step where a checked rule breaks. The runtime catches it at the top
 * of the task, records it and ends the execution. Model code must never catch it (nor
 * {@code Throwable}).
 */
public final class Violation extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ViolationKind kind;
    private final String task;

    public Violation(ViolationKind kind, String message, String task) {
        // Not super(message, null, false, true): Java PathFinder's Throwable has no four-argument
        // constructor, and under JPF every violation would be a NoSuchMethodException.
        super(message);
        this.kind = kind;
        this.task = task;
    }

    public ViolationKind kind() {
        return kind;
    }

    /** Name of the task that detected it, or {@code null} when found at the end of the run. */
    public String task() {
        return task;
    }

    /** One line: {@code kind: message}. */
    public String summary() {
        return kind.label() + ": " + getMessage();
    }
}
