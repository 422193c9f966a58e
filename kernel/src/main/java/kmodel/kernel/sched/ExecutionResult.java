package kmodel.kernel.sched;

import java.util.List;
import kmodel.kernel.Violation;

/** What one execution ended with. */
public final class ExecutionResult {
    private final Violation violation;
    private final String stepBound;
    private final long steps;
    private final List<TraceEvent> trace;
    private final String outcome;
    private final Throwable oops;
    private final boolean pruned;

    ExecutionResult(Violation violation, String stepBound, long steps, List<TraceEvent> trace, String outcome,
            Throwable oops, boolean pruned) {
        this.pruned = pruned;
        this.violation = violation;
        this.stepBound = stepBound;
        this.steps = steps;
        this.trace = trace;
        this.outcome = outcome;
        this.oops = oops;
    }

    /** The violation, or null. */
    public Violation violation() {
        return violation;
    }

    /** Non-null when the step bound stopped the run: names the task that was spinning. */
    public String stepBound() {
        return stepBound;
    }

    /** Scheduling points passed. */
    public long steps() {
        return steps;
    }

    /** Recorded events (empty unless tracing). */
    public List<TraceEvent> trace() {
        return trace;
    }

    /** The scenario's summary of the final state, for counting distinct terminal outcomes. */
    public String outcome() {
        return outcome;
    }

    /**
     * Whether a partial-order-reducing strategy stopped the execution part way as redundant
     * (every runnable task was in its sleep set): no end checks ran and it has no outcome.
     */
    public boolean pruned() {
        return pruned;
    }

    /** The Java exception behind an {@code oops} violation, for debugging the model; usually null. */
    public Throwable oops() {
        return oops;
    }
}
