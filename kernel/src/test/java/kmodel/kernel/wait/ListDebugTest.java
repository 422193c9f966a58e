package kmodel.kernel.wait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.locking.Spinlock;
import kmodel.kernel.sched.DeterministicRuntime;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Program;
import kmodel.kernel.sched.Run;
import kmodel.kernel.sched.Runtime;
import kmodel.kernel.sched.Task;
import org.junit.jupiter.api.Test;

/**
 * lib/list_debug.c: every {@code CONFIG_DEBUG_LIST} check of {@link ListHead} fires on a
 * deliberately broken list use (test-only programs that corrupt links by hand or add and delete
 * twice), with the kernel's message; the correct uses next to them stay clean. And a wait queue
 * made cyclic by a test does not hang {@code __wake_up_common()}: the walk's iterations count
 * against the step bound, which stops the execution and names the looping task.
 */
class ListDebugTest {

    /** Runs {@code body} as task t1 and returns the bug-on message it raised. */
    private static String bugOnOf(Runnable body) {
        ExecutionResult r = Run.task(Kconfig.defaults(), body);
        assertNotNull(r.violation(), "expected a bug-on, got none");
        assertEquals(ViolationKind.BUG_ON, r.violation().kind(), r.violation()::summary);
        assertEquals("t1", r.violation().task());
        return r.violation().getMessage();
    }

    private static WaitQueueEntry entry(String name) {
        WaitQueueEntry e = new WaitQueueEntry(name);
        Wait.initWaitqueueFuncEntry(e, (w, mode, sync, key) -> 0);
        return e;
    }

    private static void addTail(WaitQueueHead q, WaitQueueEntry e) {
        Spinlock.spinLock(q.lock);
        Wait.__addWaitQueueEntryTail(q, e);
        Spinlock.spinUnlock(q.lock);
    }

    private static void remove(WaitQueueHead q, WaitQueueEntry e) {
        Spinlock.spinLock(q.lock);
        Wait.__removeWaitQueue(q, e);
        Spinlock.spinUnlock(q.lock);
    }

    @Test
    void addingAndRemovingCorrectlyRaisesNothing() {
        ExecutionResult r = Run.task(Kconfig.defaults(), () -> {
            WaitQueueHead q = new WaitQueueHead("q");
            WaitQueueEntry a = entry("a");
            WaitQueueEntry b = entry("b");
            addTail(q, a);
            addTail(q, b);
            remove(q, a);
            /* A list_del()eted (poisoned) entry may be added again: the bookmark is. */
            addTail(q, a);
            remove(q, b);
            remove(q, a);
            assertEquals(0, q.peekLength());
        });
        assertNull(r.violation(), () -> r.violation().summary());
    }

    @Test
    void addingAnEntryNextToItselfIsTheKernelsDoubleAdd() {
        String m = bugOnOf(() -> {
            WaitQueueHead q = new WaitQueueHead("q");
            WaitQueueEntry a = entry("a");
            addTail(q, a);
            addTail(q, a);
        });
        assertEquals("list_add double add: new=a, prev=a, next=q.head.", m);
    }

    @Test
    void addingAnEntryThatIsStillOnAnotherListIsADoubleAdd() {
        String m = bugOnOf(() -> {
            WaitQueueHead q1 = new WaitQueueHead("q1");
            WaitQueueHead q2 = new WaitQueueHead("q2");
            WaitQueueEntry a = entry("a");
            addTail(q1, a);
            addTail(q2, a);
        });
        assertEquals("list_add double add: new=a is still on a list (between q1.head and q1.head), "
                + "prev=q2.head, next=q2.head.", m);
    }

    @Test
    void addingAfterAnEntryWhoseNextNoLongerPointsBackIsListAddCorruption() {
        String m = bugOnOf(() -> {
            WaitQueueHead q = new WaitQueueHead("q");
            WaitQueueEntry a = entry("a");
            WaitQueueEntry b = entry("b");
            addTail(q, a);
            a.entry.prev = b.entry; // corrupt: the head's next (a) no longer points back at the head
            Spinlock.spinLock(q.lock);
            Wait.__addWaitQueue(q, b);
        });
        assertEquals("list_add corruption. next->prev should be prev (q.head), but was b. (next=a).", m);
    }

    @Test
    void addingBeforeAnEntryWhosePrevNoLongerPointsForwardIsListAddCorruption() {
        String m = bugOnOf(() -> {
            WaitQueueHead q = new WaitQueueHead("q");
            WaitQueueEntry a = entry("a");
            WaitQueueEntry b = entry("b");
            addTail(q, a);
            a.entry.next = b.entry; // corrupt: the tail (a) no longer points at the head
            Spinlock.spinLock(q.lock);
            Wait.__addWaitQueueEntryTail(q, b);
        });
        assertEquals("list_add corruption. prev->next should be next (q.head), but was b. (prev=a).", m);
    }

    @Test
    void deletingAnEntryTwiceHitsListPoison1() {
        String m = bugOnOf(() -> {
            WaitQueueHead q = new WaitQueueHead("q");
            WaitQueueEntry a = entry("a");
            addTail(q, a);
            remove(q, a);
            remove(q, a);
        });
        assertEquals("list_del corruption, a->next is LIST_POISON1", m);
    }

    @Test
    void deletingAnEntryWithOnlyPrevPoisonedHitsListPoison2() {
        String m = bugOnOf(() -> {
            WaitQueueHead q = new WaitQueueHead("q");
            WaitQueueEntry a = entry("a");
            addTail(q, a);
            remove(q, a);
            a.entry.next = q.head; // a stray write over the first poison only
            Spinlock.spinLock(q.lock);
            Wait.__removeWaitQueue(q, a);
        });
        assertEquals("list_del corruption, a->prev is LIST_POISON2", m);
    }

    @Test
    void deletingAnEntryItsPrevDoesNotPointAtIsListDelCorruption() {
        String m = bugOnOf(() -> {
            WaitQueueHead q = new WaitQueueHead("q");
            WaitQueueEntry a = entry("a");
            WaitQueueEntry b = entry("b");
            addTail(q, a);
            addTail(q, b);
            a.entry.next = q.head; // corrupt: a skips b
            Spinlock.spinLock(q.lock);
            Wait.listDelInit(b);
        });
        assertEquals("list_del corruption. prev->next should be b, but was q.head", m);
    }

    @Test
    void deletingAnEntryItsNextDoesNotPointBackAtIsListDelCorruption() {
        String m = bugOnOf(() -> {
            WaitQueueHead q = new WaitQueueHead("q");
            WaitQueueEntry a = entry("a");
            WaitQueueEntry b = entry("b");
            addTail(q, a);
            addTail(q, b);
            q.head.prev = a.entry; // corrupt: the head's prev skips b
            Spinlock.spinLock(q.lock);
            Wait.listDelInitCareful(b);
        });
        assertEquals("list_del corruption. next->prev should be b, but was a", m);
    }

    /**
     * A queue whose last entry links back to the first instead of the head: a walk over it never
     * ends. The waker's step bound stops it, naming the waker and the loop.
     */
    @Test
    void aWakeUpWalkOverACyclicQueueEndsAtTheStepBoundNamingTheWaker() {
        Program p = new Program() {
            @Override
            public void boot(Runtime rt) {
                rt.spawn("waker", null, false, false, () -> {
                    WaitQueueHead q = new WaitQueueHead("q");
                    WaitQueueEntry a = entry("a");
                    WaitQueueEntry b = entry("b");
                    addTail(q, a);
                    addTail(q, b);
                    b.entry.next = a.entry; // corrupt: a cycle that does not pass through the head
                    Spinlock.spinLock(q.lock);
                    Wait.__wakeUpCommon(q, Task.TASK_NORMAL, 0, 0, null, null);
                });
            }

            @Override
            public String finish() {
                return "";
            }
        };
        ExecutionResult r = DeterministicRuntime.callOnRuntimeThread(() -> {
            try (DeterministicRuntime rt = new DeterministicRuntime()) {
                return rt.execute(p, Run.nonPreemptive(), Kconfig.defaults(), 5_000, false, false);
            }
        });
        assertNull(r.violation(), () -> r.violation().summary());
        assertNotNull(r.stepBound(), "expected a step-bound stop");
        assertTrue(r.stepBound().startsWith("waker was still running after 5000 steps, looping in __wake_up_common"),
                r.stepBound());
    }

    @Test
    void aCheckThatPeeksAtACyclicQueueReportsCorruptionInsteadOfHanging() {
        String m = bugOnOf(() -> {
            WaitQueueHead q = new WaitQueueHead("q");
            WaitQueueEntry a = entry("a");
            addTail(q, a);
            a.entry.next = a.entry;
            q.peekLength();
        });
        assertEquals("list corruption: q does not come back to its head after 65536 entries (a cycle)", m);
    }
}
