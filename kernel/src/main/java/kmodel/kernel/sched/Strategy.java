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
}
