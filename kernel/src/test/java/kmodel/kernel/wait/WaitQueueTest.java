package kmodel.kernel.wait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import kmodel.kernel.Kconfig;
import kmodel.kernel.KernelOptions;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.locking.Spinlock;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Program;
import kmodel.kernel.sched.Run;
import kmodel.kernel.sched.Runtime;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;
import org.junit.jupiter.api.Test;

/** kernel/sched/wait.c: the walk, its return-value contract and its bookmarks. */
class WaitQueueTest {

    /** Queues entries with recording wake functions, walks once, returns which were called. */
    private static List<String> walk(Kconfig cfg, int[] rets, int[] flags, int nrExclusive) {
        List<String> called = new ArrayList<>();
        int[] locksDropped = {0};
        ExecutionResult r = Run.task(cfg, () -> {
            WaitQueueHead q = new WaitQueueHead("q");
            for (int i = 0; i < rets.length; i++) {
                final int idx = i;
                WaitQueueEntry e = new WaitQueueEntry("e" + i);
                Wait.initWaitqueueFuncEntry(e, (w, mode, sync, key) -> {
                    called.add("e" + idx);
                    return rets[idx];
                });
                e.setFlags(flags[i]);
                Spinlock.spinLock(q.lock);
                Wait.__addWaitQueueEntryTail(q, e);
                Spinlock.spinUnlock(q.lock);
            }
            WaitQueueEntry bookmark = new WaitQueueEntry("bookmark");
            Wait.initWaitqueueFuncEntry(bookmark, null);
            int nr = nrExclusive;
            do {
                Spinlock.spinLock(q.lock);
                nr = Wait.__wakeUpCommon(q, Task.TASK_NORMAL, nr, 0, null, bookmark);
                Spinlock.spinUnlock(q.lock);
                if ((bookmark.flags() & WaitQueueEntry.WQ_FLAG_BOOKMARK) != 0) {
                    locksDropped[0]++;
                }
            } while ((bookmark.flags() & WaitQueueEntry.WQ_FLAG_BOOKMARK) != 0);
            called.add("drops=" + locksDropped[0]);
        });
        assertNull(r.violation(), () -> r.violation().summary());
        return called;
    }

    @Test
    void aNegativeReturnStopsTheWalk() {
        assertEquals(List.of("e0", "e1", "drops=0"),
                walk(Kconfig.defaults(), new int[] {0, -1, 1}, new int[] {0, 0, 0}, 1));
    }

    @Test
    void oneExclusiveWakeupUsesUpTheSlot() {
        int x = WaitQueueEntry.WQ_FLAG_EXCLUSIVE;
        assertEquals(List.of("e0", "e1", "e2", "drops=0"),
                walk(Kconfig.defaults(), new int[] {1, 0, 1, 1}, new int[] {0, x, x, x}, 1));
    }

    @Test
    void wakeAllWalksEveryEntry() {
        int x = WaitQueueEntry.WQ_FLAG_EXCLUSIVE;
        assertEquals(List.of("e0", "e1", "e2", "drops=0"),
                walk(Kconfig.defaults(), new int[] {1, 1, 1}, new int[] {x, x, x}, 0));
    }

    @Test
    void theBookmarkDropsTheLockEveryBreakCountEntries() {
        Kconfig cfg = Kconfig.defaults().with(KernelOptions.WAITQUEUE_WALK_BREAK_CNT, 1);
        // ++cnt > 1 after e1 and e3: the lock is dropped before e2 and before e4
        assertEquals(List.of("e0", "e1", "e2", "e3", "e4", "drops=2"),
                walk(cfg, new int[] {0, 0, 0, 0, 0}, new int[] {0, 0, 0, 0, 0}, 1));
    }

    @Test
    void aWakerTouchingAReturnedWaitersEntryIsUseAfterFree() {
        ExecutionResult r = Run.task(Kconfig.defaults(), () -> {
            WaitQueueEntry e = new WaitQueueEntry("stack.wait");
            Wait.initWait(e);
            e.leaveScope();
            e.flags();
        });
        assertNotNull(r.violation());
        assertEquals(ViolationKind.USE_AFTER_FREE, r.violation().kind());
    }

    @Test
    void scheduleInInterruptContextIsABug() {
        ExecutionResult r = Run.once(new Program() {
            @Override
            public void boot(Runtime rt) {
                rt.spawn("irq0", "irq", true, false, () -> {
                    Sched.setCurrentState(Task.TASK_UNINTERRUPTIBLE);
                    Sched.schedule();
                });
            }

            @Override
            public String finish() {
                return "";
            }
        }, Kconfig.defaults());
        assertNotNull(r.violation());
        assertEquals(ViolationKind.BUG_ON, r.violation().kind());
        assertTrue(r.violation().getMessage().contains("scheduling while atomic: irq0"), r.violation().getMessage());
    }

    @Test
    void anUnboundedLoopIsReportedAsTheStepBoundNotAViolation() {
        ExecutionResult r = Run.task(Kconfig.defaults(), () -> {
            kmodel.kernel.atomic.AtomicT never = new kmodel.kernel.atomic.AtomicT("never", 0);
            while (never.read() == 0) {
                Sched.schedule();
            }
        });
        assertNull(r.violation());
        assertNotNull(r.stepBound());
    }
}
