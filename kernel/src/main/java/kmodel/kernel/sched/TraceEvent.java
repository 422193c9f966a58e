package kmodel.kernel.sched;

/** One recorded event of an execution: which task, at which step, what happened. */
public final class TraceEvent {
    /** How much an event says. */
    public enum Level {
        /** Model-level: a kernel function of interest, a sleep, a wake-up, a violation. */
        INFO,
        /** Every scheduling point (shown with --verbose). */
        DETAIL
    }

    private final long step;
    private final String task;
    private final String column;
    private final String text;
    private final Level level;
    private final String function;

    public TraceEvent(long step, String task, String column, String text, Level level) {
        this(step, task, column, text, level, null);
    }

    /**
     * @param function the modelled kernel function the event happened in, e.g.
     *     {@code wake_page_function}, or null (scenario code, the runtime's own events)
     */
    public TraceEvent(long step, String task, String column, String text, Level level, String function) {
        this.step = step;
        this.task = task;
        this.column = column;
        this.text = text;
        this.level = level;
        this.function = function;
    }

    public long step() {
        return step;
    }

    public String task() {
        return task;
    }

    public String column() {
        return column;
    }

    public String text() {
        return text;
    }

    public Level level() {
        return level;
    }

    /** The modelled kernel function the event happened in (e.g. {@code finish_wait}), or null. */
    public String function() {
        return function;
    }

    @Override
    public String toString() {
        return step + " " + task + ": " + text;
    }
}
