package kmodel.jpf;

import kmodel.kernel.Kconfig;
import kmodel.kernel.Violation;
import kmodel.kernel.atomic.Shared;
import kmodel.kernel.sched.FreeRunningRuntime;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;
import kmodel.kernel.wait.Wait;
import kmodel.kernel.wait.WaitQueueEntry;
import kmodel.kernel.wait.WaitQueueHead;

/**
 * Runs under JPF: the canary, the textbook lost wake-up written with the model's own wait queue
 * ({@code kmodel.kernel.wait}) on the free-running runtime, independent of the harness package.
 * The waiter tests the condition before {@code prepare_to_wait()} and sleeps without testing it
 * again ({@code racy}), so a waker that sets the condition and wakes the queue in between leaves it
 * asleep for ever: a JPF deadlock. Its twin tests the condition after {@code prepare_to_wait()}, as
 * {@code wait_event()} does, and must be proved.
 */
final class Canary {
    private Canary() {
    }

    /** The waiter and the waker on real threads; returns normally only if the waiter woke. */
    static void run(boolean racy) {
        FreeRunningRuntime rt = FreeRunningRuntime.install(Kconfig.defaults(), JpfPoints.NO_DAEMONS);
        try {
            WaitQueueHead q = new WaitQueueHead("q");
            Shared<Boolean> cond = new Shared<>("cond", false);
            boolean[] woke = {false};
            rt.spawn("waiter", null, false, false, () -> {
                WaitQueueEntry wait = new WaitQueueEntry("waiter.wait");
                Wait.initWait(wait);
                if (racy) {
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
                woke[0] = true;
                JpfProbe.taskDone();
            });
            rt.spawn("waker", null, false, false, () -> {
                cond.writeOnce(true);
                Wait.wakeUp(q);
                JpfProbe.taskDone();
            });
            Violation v = rt.runAll();
            if (v != null) {
                throw new AssertionError("kmodel violation " + v.summary());
            }
            if (!woke[0]) {
                throw new AssertionError("the waiter did not wake");
            }
        } finally {
            rt.uninstall();
        }
    }
}
