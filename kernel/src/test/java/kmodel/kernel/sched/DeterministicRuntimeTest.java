package kmodel.kernel.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.atomic.Shared;
import kmodel.kernel.locking.Spinlock;
import kmodel.kernel.wait.Wait;
import kmodel.kernel.wait.WaitQueueEntry;
import kmodel.kernel.wait.WaitQueueHead;
import org.junit.jupiter.api.Test;

class DeterministicRuntimeTest {

    /** A waiter/waker pair on one wait queue; {@code checkFirst} is the classic lost wake-up. */
    static Program waiterWaker(boolean checkFirst) {
        return new Program() {
            WaitQueueHead q;
            Shared<Boolean> cond;

            @Override
            public void boot(Runtime rt) {
                q = new WaitQueueHead("q");
                cond = new Shared<>("cond", false);
                rt.spawn("waiter", null, false, false, () -> {
                    WaitQueueEntry wait = new WaitQueueEntry("waiter.wait");
                    Wait.initWait(wait);
                    if (checkFirst) {
                        // Bug: the condition is tested before the task is on the queue in a sleeping state.
                        if (!cond.readOnce()) {
                            Wait.prepareToWait(q, wait, Task.TASK_UNINTERRUPTIBLE);
                            Sched.schedule();
                        }
                    } else {
                        for (;;) {
                            Wait.prepareToWait(q, wait, Task.TASK_UNINTERRUPTIBLE);
                            if (cond.readOnce()) {
                                break;
                            }
                            Sched.schedule();
                        }
                    }
                    Wait.finishWait(q, wait);
                    wait.leaveScope();
                });
                rt.spawn("waker", null, false, false, () -> {
                    cond.writeOnce(true);
                    Wait.wakeUp(q);
                });
            }

            @Override
            public String finish() {
                return "done";
            }
        };
    }

    static Strategy random(long seed) {
        return kmodel.kernel.sched.Run.seededRandom(seed);
    }

    @Test
    void nonPreemptiveScheduleRunsBothTasksToTheEnd() {
        ExecutionResult r = Run.once(waiterWaker(false), Kconfig.defaults());
        assertNull(r.violation(), () -> String.valueOf(r.violation()));
        assertEquals("done", r.outcome());
    }

    @Test
    void prepareToWaitNeverLosesTheWakeupUnderRandomSchedules() {
        DeterministicRuntime.callOnRuntimeThread(() -> {
            try (DeterministicRuntime rt = new DeterministicRuntime()) {
                Strategy s = random(42);
                for (int i = 0; i < 2000; i++) {
                    ExecutionResult r = rt.execute(waiterWaker(false), s, Kconfig.defaults(), 10_000, false, false);
                    assertNull(r.violation(), () -> r.violation().summary());
                }
            }
            return null;
        });
    }

    @Test
    void checkThenSleepLosesTheWakeupUnderSomeSchedule() {
        int found = DeterministicRuntime.callOnRuntimeThread(() -> {
            int n = 0;
            try (DeterministicRuntime rt = new DeterministicRuntime()) {
                Strategy s = random(7);
                for (int i = 0; i < 2000; i++) {
                    ExecutionResult r = rt.execute(waiterWaker(true), s, Kconfig.defaults(), 10_000, false, false);
                    if (r.violation() != null) {
                        assertEquals(ViolationKind.MISSED_WAKEUP, r.violation().kind());
                        n++;
                    }
                }
            }
            return n;
        });
        assertTrue(found > 0, "the lost wake-up must be reachable");
    }

    @Test
    void sleepingInsideANonBlockingSectionIsBlockedInNowait() {
        ExecutionResult r = Run.task(Kconfig.defaults(), () -> {
            Sched.nowaitEnter("force_nonblock issue of req0");
            Sched.setCurrentState(Task.TASK_UNINTERRUPTIBLE);
            Sched.waitingOn("a request tag");
            Sched.schedule();
        });
        assertNotNull(r.violation());
        assertEquals(ViolationKind.BLOCKED_IN_NOWAIT, r.violation().kind());
        assertTrue(r.violation().getMessage().contains("waiting on a request tag inside a non-blocking attempt"
                + " (force_nonblock issue of req0)"), r.violation().getMessage());
    }

    @Test
    void sleepingAfterTheSectionEndsIsNotBlockedInNowait() {
        ExecutionResult r = Run.task(Kconfig.defaults(), () -> {
            Sched.nowaitEnter("outer");
            Sched.nowaitEnter("inner");
            Sched.nowaitExit();
            Sched.nowaitExit();
            Sched.setCurrentState(Task.TASK_UNINTERRUPTIBLE);
            Sched.schedule();
        });
        assertNotNull(r.violation());
        assertEquals(ViolationKind.MISSED_WAKEUP, r.violation().kind());
    }

    @Test
    void startingIoInsideANoioSectionIsBlockedInNowait() {
        ExecutionResult r = Run.task(Kconfig.defaults(), () -> {
            Sched.noioEnter("IOCB_NOIO read");
            Sched.mayIssueIo("bio0");
        });
        assertNotNull(r.violation());
        assertEquals(ViolationKind.BLOCKED_IN_NOWAIT, r.violation().kind());
        assertTrue(r.violation().getMessage().contains("starts I/O (bio0) inside a section told not to (IOCB_NOIO read)"),
                r.violation().getMessage());
    }

    @Test
    void sleepingWithASpinlockHeldIsALockLeak() {
        ExecutionResult r = Run.task(Kconfig.defaults(), () -> {
            Spinlock l = new Spinlock("l");
            Spinlock.spinLock(l);
            Sched.setCurrentState(Task.TASK_UNINTERRUPTIBLE);
            Sched.schedule();
        });
        assertNotNull(r.violation());
        assertEquals(ViolationKind.LOCK_LEAK, r.violation().kind());
    }

    @Test
    void aFatalSignalWakesAKillableSleeper() {
        ExecutionResult r = Run.once(new Program() {
            Task sleeper;

            @Override
            public void boot(Runtime rt) {
                sleeper = rt.spawn("sleeper", null, false, false, () -> {
                    Sched.setCurrentState(Task.TASK_KILLABLE);
                    Sched.schedule();
                });
                rt.spawn("killer", null, false, false, () -> Sched.sendSigkill(sleeper));
            }

            @Override
            public String finish() {
                return Sched.fatalSignalPending(sleeper) ? "killed" : "alive";
            }
        }, Kconfig.defaults());
        assertNull(r.violation());
        assertEquals("killed", r.outcome());
    }

    @Test
    void taskWorkAddFailsOnceTheTaskHasExited() {
        ExecutionResult r = Run.task(Kconfig.defaults(), () -> {
            Task me = Sched.current();
            Sched.doExit();
            CallbackHead cb = new CallbackHead();
            CallbackHead.initTaskWork(cb, c -> { });
            int ret = Sched.taskWorkAdd(me, cb, Sched.TWA_NONE);
            if (ret != -kmodel.kernel.Errno.ESRCH) {
                throw new AssertionError("task_work_add after exit returned " + ret);
            }
        });
        assertNull(r.violation(), () -> String.valueOf(r.violation()));
    }
}
