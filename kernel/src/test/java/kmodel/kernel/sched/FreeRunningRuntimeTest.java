package kmodel.kernel.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Kernel;
import kmodel.kernel.Violation;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.atomic.Shared;
import kmodel.kernel.lifetime.KObject;
import kmodel.kernel.locking.Spinlock;
import kmodel.kernel.wait.Wait;
import kmodel.kernel.wait.WaitQueueEntry;
import kmodel.kernel.wait.WaitQueueHead;
import org.junit.jupiter.api.Test;

/** The free-running runtime runs the same primitives on real threads. */
class FreeRunningRuntimeTest {

    @Test
    void waiterAndWakerMeetOnRealThreads() {
        FreeRunningRuntime rt = FreeRunningRuntime.install(Kconfig.defaults());
        try {
            WaitQueueHead q = new WaitQueueHead("q");
            Shared<Boolean> cond = new Shared<>("cond", false);
            int[] woke = {0};
            rt.spawn("waiter", null, false, false, () -> {
                WaitQueueEntry wait = new WaitQueueEntry("waiter.wait");
                Wait.initWait(wait);
                for (;;) {
                    Wait.prepareToWait(q, wait, Task.TASK_UNINTERRUPTIBLE);
                    if (cond.readOnce()) {
                        break;
                    }
                    Sched.schedule();
                }
                Wait.finishWait(q, wait);
                woke[0]++;
            });
            rt.spawn("waker", null, false, false, () -> {
                cond.writeOnce(true);
                Wait.wakeUp(q);
            });
            assertNull(rt.runAll());
            assertEquals(1, woke[0]);
            assertEquals(rt, Kernel.rt());
        } finally {
            rt.uninstall();
        }
    }

    /** A hook counting its calls, with the tasks' threads daemons or not. */
    private static final class Counting implements FreeRunningRuntime.Points {
        final AtomicInteger calls = new AtomicInteger();
        final boolean daemons;

        Counting(boolean daemons) {
            this.daemons = daemons;
        }

        @Override
        public void point() {
            calls.incrementAndGet();
        }

        @Override
        public boolean daemonThreads() {
            return daemons;
        }
    }

    /**
     * The hook runs at each of the explorer's scheduling points (the runtime's and the model's
     * primitives'), and nowhere else: here spin_lock, spin_unlock, WRITE_ONCE, READ_ONCE,
     * set_current_state and try_to_wake_up, six.
     */
    @Test
    void theHookRunsAtEverySchedulingPointOfTheExplorer() {
        Counting hook = new Counting(true);
        FreeRunningRuntime rt = FreeRunningRuntime.install(Kconfig.defaults(), hook);
        try {
            Spinlock lock = new Spinlock("lock");
            Shared<Boolean> cond = new Shared<>("cond", false);
            rt.spawn("t", null, false, false, () -> {
                Spinlock.spinLock(lock);
                Spinlock.spinUnlock(lock);
                cond.writeOnce(true);
                cond.readOnce();
                Sched.setCurrentState(Task.TASK_RUNNING);
                Kernel.rt().tryToWakeUp(Sched.current(), Task.TASK_NORMAL);
            });
            assertNull(rt.runAll());
            assertEquals(6, hook.calls.get());
        } finally {
            rt.uninstall();
        }
    }

    /** The tasks' threads are daemons unless the hook says otherwise (Java PathFinder's does). */
    @Test
    void tasksRunOnDaemonThreadsUnlessTheHookSaysOtherwise() {
        for (boolean daemons : new boolean[] {true, false}) {
            FreeRunningRuntime rt = FreeRunningRuntime.install(Kconfig.defaults(), new Counting(daemons));
            try {
                boolean[] seen = new boolean[1];
                rt.spawn("t", null, false, false, () -> seen[0] = Thread.currentThread().isDaemon());
                assertNull(rt.runAll());
                assertEquals(daemons, seen[0]);
            } finally {
                rt.uninstall();
            }
        }
    }

    /** An object with one reference that nobody drops. */
    private static KObject leaked(String name) {
        return new KObject("obj", name) {
            @Override
            public int refs() {
                return 1;
            }
        };
    }

    /**
     * Each task registers what it creates in a list of its own; the end-of-run leak check still
     * sees every object: the booting thread's, then each task's in spawn order.
     */
    @Test
    void objectsTasksCreateAreInTheLeakCheck() {
        FreeRunningRuntime rt = new FreeRunningRuntime(Kconfig.defaults());
        KObject[] made = new KObject[3];
        Violation v = rt.execute(new Program() {
            @Override
            public void boot(Runtime r) {
                made[0] = leaked("boot-object");
                Kernel.lifetimes().expect(made[0], 1, "the test's");
                r.spawn("a", null, false, false, () -> made[1] = leaked("a-object"));
                r.spawn("b", null, false, false, () -> {
                    made[2] = leaked("b-object");
                    Kernel.lifetimes().expect(made[2], 1, "the test's");
                });
            }

            @Override
            public String finish() {
                assertEquals(3, Kernel.lifetimes().objects().size());
                assertTrue(Kernel.lifetimes().objects().get(0) == made[0]);
                assertTrue(Kernel.lifetimes().objects().get(1) == made[1]);
                assertTrue(Kernel.lifetimes().objects().get(2) == made[2]);
                return "";
            }
        });
        assertNotNull(v, "a-object is leaked");
        assertEquals(ViolationKind.REF_LEAK, v.kind());
        assertTrue(v.getMessage().contains("a-object"), v.getMessage());
        assertFalse(v.getMessage().contains("b-object"), v.getMessage());
    }
}
