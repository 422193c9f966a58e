package kmodel.mm;

import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.DeterministicRuntime;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Program;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Strategy;
import kmodel.kernel.sched.Task;

/** Test helpers: seeded random schedules over many executions, and small task idioms. */
final class Sim {
    private Sim() {
    }

    /** A strategy that picks uniformly among runnable tasks at every point, seeded. */
    static Strategy random(long seed) {
        return kmodel.kernel.sched.Run.seededRandom(seed);
    }

    /** What a batch of executions found. */
    static final class Outcome {
        int executions;
        int stepBounds;
        final Map<ViolationKind, Integer> kinds = new EnumMap<>(ViolationKind.class);
        ExecutionResult firstViolation;
        final java.util.TreeMap<String, Integer> outcomes = new java.util.TreeMap<>();

        int count(ViolationKind k) {
            return kinds.getOrDefault(k, 0);
        }

        int violations() {
            int n = 0;
            for (int v : kinds.values()) {
                n += v;
            }
            return n;
        }

        String describe() {
            if (firstViolation == null) {
                return executions + " executions, no violation, outcomes " + outcomes;
            }
            ExecutionResult r = firstViolation;
            String oops = r.oops() != null ? " oops " + r.oops() : "";
            return executions + " executions, kinds " + kinds + ", first: " + r.violation().summary() + oops;
        }
    }

    /** Runs {@code n} executions of fresh programs under one seeded random strategy. */
    static Outcome explore(Supplier<Program> programs, Kconfig config, int n, long seed) {
        return DeterministicRuntime.callOnRuntimeThread(() -> {
            Outcome o = new Outcome();
            try (DeterministicRuntime rt = new DeterministicRuntime()) {
                Strategy s = random(seed);
                for (int i = 0; i < n; i++) {
                    ExecutionResult r = rt.execute(programs.get(), s, config, 20_000, false, false);
                    o.executions++;
                    if (r.stepBound() != null) {
                        o.stepBounds++;
                    }
                    if (r.violation() != null) {
                        o.kinds.merge(r.violation().kind(), 1, Integer::sum);
                        if (o.firstViolation == null) {
                            o.firstViolation = r;
                        }
                    } else if (r.outcome() != null) {
                        o.outcomes.merge(r.outcome(), 1, Integer::sum);
                    }
                }
            }
            return o;
        });
    }

    /**
     * A task's wait for its own task_work (the shape of io_uring's {@code io_cqring_wait()}):
     * sleep interruptibly until {@code done}; a TWA_SIGNAL task_work ends the sleep and runs.
     */
    static void sleepUntil(BooleanSupplier done, String what) {
        for (;;) {
            Sched.setCurrentState(Task.TASK_INTERRUPTIBLE);
            if (done.getAsBoolean()) {
                Sched.__setCurrentState(Task.TASK_RUNNING);
                return;
            }
            Sched.waitingOn(what);
            Sched.schedule();
            Sched.taskWorkRun();
        }
    }
}
