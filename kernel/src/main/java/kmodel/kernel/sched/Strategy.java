package kmodel.kernel.sched;

/**
 * Decides, at each scheduling point, which runnable task runs next, and picks data choices
 * (which of several ready completions comes first). Implemented by the explorer's strategies
 * (exhaustive DFS, PCT, random, replay). The runtime only calls it when there is a real choice.
 */
public interface Strategy {
    /** A new execution starts. */
    void beginExecution();

    /**
     * Picks the next task.
     *
     * @param ids ascending ids of the runnable tasks, {@code ids[0..n)}
     * @param n how many are runnable (at least 1)
     * @param current id of the task that reached the point if it may go on running; -1 when it
     *     blocked or exited (switching away then is free, not a preemption)
     * @return one of {@code ids[0..n)}
     */
    int pickTask(int[] ids, int n, int current);

    /** Picks one of {@code n >= 2} data alternatives, {@code 0..n-1}. */
    int pickValue(int n);

    /**
     * Whether the strategy reduces by partial order and so must see every step: then the runtime
     * calls {@link #pickTask} at every scheduling decision, forced ones ({@code n == 1}) included,
     * reports each step's footprint through {@link #stepDone}, and accepts {@link #PRUNE}. Asked
     * once per execution; the other strategies keep the fast path.
     */
    default boolean observesSteps() {
        return false;
    }

    /**
     * The step of task {@code task} just ended (it reached a scheduling point, blocked, spun on a
     * held lock or exited). {@code footprint[0..len)} are the objects the step acted on: the task
     * itself first, then the object named by the point the step started from, then every object
     * it touched, freed, created or spawned. Two steps of different tasks whose footprints share
     * an object are dependent; all others commute. Each entry is an object's {@link Footprinted#uid}
     * name (stable across executions) shifted left by two, with the kind of access in the low two
     * bits: 0 write, 1 read, 2 acquire (the step takes the spinlock). Two steps are dependent
     * when they share an object and not both only read it. An acquire races only with the
     * previous acquire of the lock (a release and the next acquire are never co-enabled), but
     * is ordered after the release. The array is reused: copy what you keep.
     */
    default void stepDone(int task, long[] footprint, int len) {
    }

    /** Returned by {@link #pickTask} of an observing strategy: stop this execution, it is redundant. */
    int PRUNE = -1;
}
