package kmodel.kernel.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import kmodel.kernel.Kconfig;
import kmodel.kernel.Kernel;
import kmodel.kernel.atomic.Shared;
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
}
