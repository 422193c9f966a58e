package kmodel.kernel.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.kernel.Kconfig;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import org.junit.jupiter.api.Test;

/**
 * When the run goes quiet ({@code DeterministicRuntime.checkQuiescence}): a sleeper is a missed
 * wake-up only if nothing is left that could wake it. A pending interrupt (a disk completion, an
 * irq task not yet run) can; a daemon may sleep at the end, unless task_work waits for it.
 *
 * <p>Each program's first task is the sleeper, so the non-preemptive schedule ({@link Run#once})
 * puts it to sleep before anything else runs: the case the check must get right.
 */
class QuiescenceTest {

    /** What one program saw, for the assertions. */
    static final class Seen {
        Task sleeper;
        /** The sleeper's state when the interrupt ran: proof it was asleep then. */
        int stateWhenIrqRan = -1;
    }

    private static ExecutionResult runOnce(Program p) {
        return Run.once(p, Kconfig.defaults());
    }

    /**
     * A reader submits "I/O" the way {@code Disk.queueRq} does (it spawns the completion interrupt
     * as a task) and waits for it with {@code wait_for_completion_io()}.
     */
    static Program readerWithDiskCompletion(Seen seen) {
        return new Program() {
            @Override
            public void boot(Runtime rt) {
                seen.sleeper = rt.spawn("reader", null, false, false, () -> {
                    Completion done = new Completion("bio_done");
                    Kernel.rt().spawn("irq:bio0", "irq", true, false, () -> {
                        seen.stateWhenIrqRan = seen.sleeper.state();
                        Completion.complete(done);
                    });
                    Completion.waitForCompletionIo(done);
                });
            }

            @Override
            public String finish() {
                return "read done";
            }
        };
    }

    @Test
    void aSleeperWhoseDiskCompletionIsStillPendingIsNotAMissedWakeup() {
        Seen seen = new Seen();
        ExecutionResult r = runOnce(readerWithDiskCompletion(seen));
        assertNull(r.violation(), () -> r.violation().summary());
        assertNull(r.stepBound());
        assertEquals(Task.TASK_UNINTERRUPTIBLE, seen.stateWhenIrqRan, "the reader slept before the completion ran");
        assertEquals("read done", r.outcome());
    }

    @Test
    void aSleeperWithAnInterruptTaskStillRunnableIsNotAMissedWakeup() {
        Seen seen = new Seen();
        ExecutionResult r = runOnce(new Program() {
            final Completion done = new Completion("irq_done");

            @Override
            public void boot(Runtime rt) {
                seen.sleeper = rt.spawn("waiter", null, false, false, () -> Completion.waitForCompletionIo(done));
                rt.spawn("irq0", "irq", true, false, () -> {
                    seen.stateWhenIrqRan = seen.sleeper.state();
                    Completion.complete(done);
                });
            }

            @Override
            public String finish() {
                return "woken";
            }
        });
        assertNull(r.violation(), () -> r.violation().summary());
        assertEquals(Task.TASK_UNINTERRUPTIBLE, seen.stateWhenIrqRan, "the waiter slept while irq0 was runnable");
        assertEquals("woken", r.outcome());
    }

    @Test
    void aLoneSleeperWithNothingPendingIsAMissedWakeup() {
        ExecutionResult r = Run.task(Kconfig.defaults(), () -> {
            Sched.setCurrentState(Task.TASK_UNINTERRUPTIBLE);
            Sched.waitingOn("an event nobody sends");
            Sched.schedule();
        });
        assertNotNull(r.violation());
        assertEquals(ViolationKind.MISSED_WAKEUP, r.violation().kind());
        assertEquals("t1 sleeps in TASK_UNINTERRUPTIBLE waiting on an event nobody sends, "
                + "and no task is left to wake it", r.violation().getMessage());
    }

    /** A daemon (an io-wq worker, say) sleeps for work; a user task optionally queues task_work for it. */
    static Program daemonAndUser(boolean queueTaskWork) {
        return new Program() {
            Task worker;

            @Override
            public void boot(Runtime rt) {
                worker = rt.spawn("worker", null, false, true, () -> {
                    Sched.setCurrentState(Task.TASK_UNINTERRUPTIBLE);
                    Sched.waitingOn("work");
                    Sched.schedule();
                });
                rt.spawn("user", null, false, false, () -> {
                    if (queueTaskWork) {
                        CallbackHead cb = new CallbackHead();
                        CallbackHead.initTaskWork(cb, c -> { });
                        // TWA_NONE: queued, but the worker is not woken to run it.
                        int ret = Sched.taskWorkAdd(worker, cb, Sched.TWA_NONE);
                        Kernel.BUG_ON(ret != 0, "task_work_add returned " + ret);
                    }
                });
            }

            @Override
            public String finish() {
                return "user done";
            }
        };
    }

    @Test
    void aDaemonAsleepWithNothingPendingIsNotAMissedWakeup() {
        ExecutionResult r = runOnce(daemonAndUser(false));
        assertNull(r.violation(), () -> r.violation().summary());
        assertNull(r.stepBound());
        assertEquals("user done", r.outcome(), "the run reached its end checks");
    }

    @Test
    void aDaemonAsleepWithTaskWorkPendingIsAMissedWakeup() {
        ExecutionResult r = runOnce(daemonAndUser(true));
        assertNotNull(r.violation());
        assertEquals(ViolationKind.MISSED_WAKEUP, r.violation().kind());
        assertTrue(r.violation().getMessage().startsWith("worker sleeps in TASK_UNINTERRUPTIBLE waiting on work with "
                + "task_work pending"), r.violation().getMessage());
    }

    @Test
    void noScheduleOfTheDiskCompletionReaderIsAMissedWakeup() {
        int[] slept = {0};
        DeterministicRuntime.callOnRuntimeThread(() -> {
            try (DeterministicRuntime rt = new DeterministicRuntime()) {
                Strategy s = Run.seededRandom(11);
                for (int i = 0; i < 300; i++) {
                    Seen seen = new Seen();
                    ExecutionResult r = rt.execute(readerWithDiskCompletion(seen), s, Kconfig.defaults(), 10_000, false,
                            false);
                    assertNull(r.violation(), () -> r.violation().summary());
                    if (seen.stateWhenIrqRan == Task.TASK_UNINTERRUPTIBLE) {
                        slept[0]++;
                    }
                }
            }
            return null;
        });
        assertTrue(slept[0] > 0, "some schedule put the reader to sleep before its completion");
    }
}
