package kmodel.kernel.sched;

import kmodel.kernel.Kconfig;

/**
 * Runs model code under the deterministic runtime without the explorer: for unit tests in the
 * model modules (the explorer lives in {@code verification}, which depends on them).
 */
public final class Run {
    private Run() {
    }

    /**
     * A strategy that never preempts and, when the running task blocks, runs the lowest-numbered
     * runnable task; data choices take 0. One fixed, fully deterministic schedule.
     */
    public static Strategy nonPreemptive() {
        return new Strategy() {
            @Override
            public void beginExecution() {
            }

            @Override
            public int pickTask(int[] ids, int n, int current) {
                return current >= 0 ? current : ids[0];
            }

            @Override
            public int pickValue(int n) {
                return 0;
            }
        };
    }

    /**
     * A seeded random schedule: a uniformly random runnable task at every point and random data
     * choices; the same seed gives the same executions.
     */
    public static Strategy seededRandom(long seed) {
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        return new Strategy() {
            @Override
            public void beginExecution() {
            }

            @Override
            public int pickTask(int[] ids, int n, int current) {
                return ids[r.nextInt(n)];
            }

            @Override
            public int pickValue(int n) {
                return r.nextInt(n);
            }
        };
    }

    /** Executes {@code program} once with the non-preemptive schedule, on a runtime thread. */
    public static ExecutionResult once(Program program, Kconfig config) {
        return once(program, nonPreemptive(), config, false);
    }

    /** Executes {@code program} once under {@code strategy}, on a runtime thread. */
    public static ExecutionResult once(Program program, Strategy strategy, Kconfig config, boolean tracing) {
        return DeterministicRuntime.callOnRuntimeThread(() -> {
            DeterministicRuntime rt = new DeterministicRuntime();
            try {
                return rt.execute(program, strategy, config, 1_000_000, tracing, false);
            } finally {
                rt.close();
            }
        });
    }

    /** Executes {@code body} as the single task "t1" of an otherwise empty world. */
    public static ExecutionResult task(Kconfig config, Runnable body) {
        return once(new Program() {
            @Override
            public void boot(Runtime rt) {
                rt.spawn("t1", null, false, false, body);
            }

            @Override
            public String finish() {
                return "";
            }
        }, config);
    }
}
