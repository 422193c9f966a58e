package kmodel.tools;

import kmodel.kernel.Kconfig;
import kmodel.kernel.atomic.AtomicT;
import kmodel.kernel.sched.DeterministicRuntime;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Program;
import kmodel.kernel.sched.Runtime;
import kmodel.kernel.sched.Strategy;

/**
 * What one scheduling point of the deterministic runtime costs: a program of two tasks, each
 * passing {@link #POINTS_PER_TASK} scheduling points ({@code atomic_read()}s of one shared
 * atomic), run as one execution under a fixed schedule. {@link Schedule#SWITCH} hands the CPU to
 * the other task at every point (a context switch between the tasks' threads each time);
 * {@link Schedule#STAY} keeps the running task (the strategy is asked, nobody switches). Per
 * point, the execution's setup (the scenario's world, the tasks' threads) is spread over
 * {@link #POINTS} points and does not show. Used by {@code kmodel bench}, timed by JMH
 * ({@link SchedulingPointBenchmark}) or by a plain timed loop.
 */
final class SchedulingPoints {
    /** Scheduling points each task passes. */
    static final int POINTS_PER_TASK = 5_000;
    /** Scheduling points of one execution, both tasks together. */
    static final int POINTS = 2 * POINTS_PER_TASK;

    /** The two fixed schedules measured. */
    enum Schedule {
        /** Switch to the other task at every scheduling point. */
        SWITCH,
        /** Keep the running task at every scheduling point. */
        STAY
    }

    /** The world of the program: the shared atomic both tasks read. */
    static final class World {
        final AtomicT x = new AtomicT("x", 0);

        void run() {
            for (int i = 0; i < POINTS_PER_TASK; i++) {
                x.read();
            }
        }
    }

    private final Program program;
    private final Strategy strategy;
    private final Kconfig config;

    SchedulingPoints(Schedule schedule) {
        this.program = new Program() {
            @Override
            public void boot(Runtime rt) {
                World w = new World();
                rt.spawn("a", "a", false, false, w::run);
                rt.spawn("b", "b", false, false, w::run);
            }

            @Override
            public String finish() {
                return "done";
            }
        };
        this.config = Kconfig.defaults();
        this.strategy = schedule == Schedule.SWITCH ? new Alternate() : new Stay();
    }

    /**
     * Runs {@code executions} executions on a fresh runtime (on a runtime thread, as the explorer
     * does) and returns the scheduling points passed; an execution that does not end cleanly is
     * an internal error.
     */
    long run(int executions) {
        return DeterministicRuntime.callOnRuntimeThread(() -> {
            long points = 0;
            try (DeterministicRuntime rt = new DeterministicRuntime()) {
                for (int i = 0; i < executions; i++) {
                    ExecutionResult r = rt.execute(program, strategy, config, 4L * POINTS, false, false);
                    if (r.violation() != null || r.stepBound() != null) {
                        throw new IllegalStateException("the scheduling-point program did not end cleanly: "
                                + (r.violation() != null ? r.violation().summary() : r.stepBound()));
                    }
                    points += r.steps();
                }
            }
            return points;
        });
    }

    /**
     * Nanoseconds per scheduling point by a plain timed loop: {@code warmup} executions, then
     * {@code executions} timed ones (the figure is reported, never asserted).
     */
    double timedLoop(int warmup, int executions) {
        run(warmup);
        long start = System.nanoTime();
        long points = run(executions);
        return (System.nanoTime() - start) / (double) points;
    }

    /** Hands the CPU to another task at every scheduling point. */
    private static final class Alternate implements Strategy {
        @Override
        public void beginExecution() {
        }

        @Override
        public int pickTask(int[] ids, int n, int current) {
            for (int i = 0; i < n; i++) {
                if (ids[i] != current) {
                    return ids[i];
                }
            }
            return ids[0];
        }

        @Override
        public int pickValue(int n) {
            return 0;
        }
    }

    /** Keeps the running task at every scheduling point. */
    private static final class Stay implements Strategy {
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
    }
}
