package kmodel.explorer.search;

import kmodel.kernel.sched.Strategy;

/**
 * A {@link Strategy} that drives a whole exploration: it records the decisions of the current
 * execution (for the replay token) and says whether another execution should follow.
 */
public interface ExplorationStrategy extends Strategy {
    /** The decisions taken so far in the current execution. */
    Schedule schedule();

    /**
     * Prepares the next execution; false when the strategy has nothing left to try (exhaustive
     * search complete) or its budget of executions is spent.
     */
    boolean advance();

    /** A short description, e.g. "exhaustive, preemption bound 2". */
    String describe();

    /**
     * An estimate of the share of this strategy's search already done, between 0 and 1, or NaN
     * when it cannot be estimated. Meant for a progress line, called between executions (after
     * {@link #advance()}), a few times a second at most: it may walk the current path.
     */
    default double explored() {
        return Double.NaN;
    }
}
