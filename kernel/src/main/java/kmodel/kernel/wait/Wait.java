package kmodel.kernel.wait;

import static kmodel.kernel.wait.WaitQueueEntry.WQ_FLAG_BOOKMARK;
import static kmodel.kernel.wait.WaitQueueEntry.WQ_FLAG_EXCLUSIVE;

import kmodel.kernel.Kernel;
import kmodel.kernel.KernelOptions;
import kmodel.kernel.locking.Spinlock;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;

/**
 * kernel/sched/wait.c and include/linux/wait.h (v5.10): wait queues and the wake-up walk.
 *
 * <h2>Lock rule</h2>
 * All list changes are made under {@code wq_head->lock}, and wake functions run under it; the
 * one lockless pair is {@code list_empty_careful()} (the owner, in {@code finish_wait()}) against
 * {@code list_del_init_careful()} (a waker's last access to the entry).
 *
 * <h2>The careful pair</h2>
 * <pre>
 *   waker (holds q->lock)                     waiter
 *   wake_up_state(p)                          ...woken...
 *   list_del_init_careful(&amp;wait-&gt;entry)      finish_wait():
 *     (release: nothing after this                list_empty_careful(&amp;wait-&gt;entry)?
 *      touches *wait)                             yes: return, the entry (on stack) is gone
 * </pre>
 * A waker that touched the entry after the unlink would touch a dead stack frame; the model
 * reports that as {@code use-after-free}.
 */
public final class Wait {
    private Wait() {
    }

    // ------------------------------------------------------------------ entries

    /** include/linux/wait.h: {@code init_wait_entry()}: private = current, autoremove wake function. */
    public static void initWaitEntry(WaitQueueEntry wqEntry, int flags) {
        wqEntry.setFlags(flags);
        wqEntry.setPrivate(Kernel.current());
        wqEntry.setFunc(Wait::autoremoveWakeFunction);
        wqEntry.initListHead();
    }

    /** include/linux/wait.h: {@code init_wait()} / {@code DEFINE_WAIT()}. */
    public static void initWait(WaitQueueEntry wqEntry) {
        initWaitEntry(wqEntry, 0);
    }

    /** include/linux/wait.h: {@code init_waitqueue_func_entry()}: a custom wake function, private unset. */
    public static void initWaitqueueFuncEntry(WaitQueueEntry wqEntry, WaitQueueFunc func) {
        wqEntry.setFlags(0);
        wqEntry.setPrivate(null);
        wqEntry.setFunc(func);
        wqEntry.initListHead();
    }

    // ------------------------------------------------------------------ list operations (caller holds the lock)

    /** include/linux/wait.h: {@code __add_wait_queue()}: at the head. Caller holds the lock. */
    public static void __addWaitQueue(WaitQueueHead wqHead, WaitQueueEntry wqEntry) {
        Spinlock.lockdepAssertHeld(wqHead.lock);
        wqEntry.touch();
        wqEntry.entry.addAfter(wqHead.head);
    }

    /** include/linux/wait.h: {@code __add_wait_queue_entry_tail()}. Caller holds the lock. */
    public static void __addWaitQueueEntryTail(WaitQueueHead wqHead, WaitQueueEntry wqEntry) {
        Spinlock.lockdepAssertHeld(wqHead.lock);
        wqEntry.touch();
        wqEntry.entry.addBefore(wqHead.head);
    }

    /**
     * include/linux/wait.h: {@code __remove_wait_queue()}: {@code list_del}, which poisons the
     * entry's links. Caller holds the lock.
     */
    public static void __removeWaitQueue(WaitQueueHead wqHead, WaitQueueEntry wqEntry) {
        Spinlock.lockdepAssertHeld(wqHead.lock);
        wqEntry.touch();
        wqEntry.entry.del();
    }

    /** include/linux/list.h: {@code list_del_init()}, under the queue lock. */
    public static void listDelInit(WaitQueueEntry wqEntry) {
        wqEntry.touch();
        wqEntry.entry.delInit();
    }

    /** kernel/sched/wait.c: {@code add_wait_queue()}. */
    public static void addWaitQueue(WaitQueueHead wqHead, WaitQueueEntry wqEntry) {
        wqEntry.setFlags(wqEntry.flags() & ~WQ_FLAG_EXCLUSIVE);
        long f = Spinlock.spinLockIrqsave(wqHead.lock);
        __addWaitQueue(wqHead, wqEntry);
        Spinlock.spinUnlockIrqrestore(wqHead.lock, f);
    }

    /** kernel/sched/wait.c: {@code add_wait_queue_exclusive()}. */
    public static void addWaitQueueExclusive(WaitQueueHead wqHead, WaitQueueEntry wqEntry) {
        wqEntry.setFlags(wqEntry.flags() | WQ_FLAG_EXCLUSIVE);
        long f = Spinlock.spinLockIrqsave(wqHead.lock);
        __addWaitQueueEntryTail(wqHead, wqEntry);
        Spinlock.spinUnlockIrqrestore(wqHead.lock, f);
    }

    /** kernel/sched/wait.c: {@code remove_wait_queue()}. */
    public static void removeWaitQueue(WaitQueueHead wqHead, WaitQueueEntry wqEntry) {
        long f = Spinlock.spinLockIrqsave(wqHead.lock);
        __removeWaitQueue(wqHead, wqEntry);
        Spinlock.spinUnlockIrqrestore(wqHead.lock, f);
    }

    // ------------------------------------------------------------------ lockless checks

    /**
     * include/linux/wait.h: {@code waitqueue_active()}: a lockless peek at the list. Only safe
     * with the barrier pairing described there; a scheduling point.
     */
    public static boolean waitqueueActive(WaitQueueHead wqHead) {
        // The list is written under wqHead->lock: the peek reads what the lock protects.
        Kernel.rt().pointRead("waitqueue_active", wqHead.lock);
        Kernel.accessRead(wqHead); // the head's links, which the lock holder may change in a later step
        // v5.10: return !list_empty(&wq_head->head): a plain read, unordered (lkmm: may be stale)
        return !wqHead.head.selfLinked(kmodel.kernel.lkmm.Order.ONCE);
    }

    /**
     * include/linux/list.h: {@code list_empty_careful()}: the owner's lockless test that no waker
     * still holds a link to the entry (acquire on {@code next}). A scheduling point.
     */
    public static boolean listEmptyCareful(WaitQueueEntry wqEntry) {
        Kernel.rt().point("list_empty_careful", wqEntry);
        wqEntry.touch();
        // next == e && next == e->prev, kept by the list itself (ListHead#selfLinked): a neighbour
        // joining or leaving rewrites e's links but never this.
        // v5.10: struct list_head *next = smp_load_acquire(&head->next): ACQUIRE, pairs with
        // list_del_init_careful()'s smp_store_release()
        return wqEntry.entry.selfLinked(kmodel.kernel.lkmm.Order.ACQUIRE);
    }

    /**
     * include/linux/list.h: {@code list_del_init_careful()}: unlinks the entry and publishes
     * {@code next = self} with a release store. After it, the caller must not touch the entry:
     * its owner may already have returned. A scheduling point.
     */
    public static void listDelInitCareful(WaitQueueEntry wqEntry) {
        Kernel.rt().point("list_del_init_careful", wqEntry);
        wqEntry.touch();
        ListHead e = wqEntry.entry;
        e.delEntry();
        e.prev = e;
        e.next = e;
        // v5.10: entry->prev = entry; smp_store_release(&entry->next, entry): RELEASE
        e.relinked(kmodel.kernel.lkmm.Order.RELEASE);
    }

    // ------------------------------------------------------------------ sleeping

    /** kernel/sched/wait.c: {@code prepare_to_wait()}: queue at the head (if not queued), then set the state. */
    public static void prepareToWait(WaitQueueHead wqHead, WaitQueueEntry wqEntry, int state) {
        wqEntry.setFlags(wqEntry.flags() & ~WQ_FLAG_EXCLUSIVE);
        long f = Spinlock.spinLockIrqsave(wqHead.lock);
        if (wqEntry.listEmpty()) {
            __addWaitQueue(wqHead, wqEntry);
        }
        Sched.setCurrentState(state);
        Spinlock.spinUnlockIrqrestore(wqHead.lock, f);
    }

    /** kernel/sched/wait.c: {@code prepare_to_wait_exclusive()}: queue at the tail, exclusive. */
    public static void prepareToWaitExclusive(WaitQueueHead wqHead, WaitQueueEntry wqEntry, int state) {
        wqEntry.setFlags(wqEntry.flags() | WQ_FLAG_EXCLUSIVE);
        long f = Spinlock.spinLockIrqsave(wqHead.lock);
        if (wqEntry.listEmpty()) {
            __addWaitQueueEntryTail(wqHead, wqEntry);
        }
        Sched.setCurrentState(state);
        Spinlock.spinUnlockIrqrestore(wqHead.lock, f);
    }

    /**
     * kernel/sched/wait.c: {@code finish_wait()}: back to running and off the queue. The lock is
     * only taken when a waker has not already unlinked the entry ({@code list_empty_careful()}).
     */
    public static void finishWait(WaitQueueHead wqHead, WaitQueueEntry wqEntry) {
        Sched.__setCurrentState(Task.TASK_RUNNING);
        if (!listEmptyCareful(wqEntry)) {
            long f = Spinlock.spinLockIrqsave(wqHead.lock);
            listDelInit(wqEntry);
            Spinlock.spinUnlockIrqrestore(wqHead.lock, f);
        }
    }

    // ------------------------------------------------------------------ wake functions

    /** kernel/sched/core.c: {@code default_wake_function()}: {@code try_to_wake_up(curr->private, mode)}. */
    public static int defaultWakeFunction(WaitQueueEntry curr, int mode, int wakeFlags, Object key) {
        return Kernel.rt().tryToWakeUp((Task) curr.private_(), mode) ? 1 : 0;
    }

    /**
     * kernel/sched/wait.c: {@code autoremove_wake_function()} (v5.10): wake, and if that woke the
     * task, unlink the entry with {@code list_del_init_careful()} as the last access.
     */
    public static int autoremoveWakeFunction(WaitQueueEntry wqEntry, int mode, int sync, Object key) {
        int ret = defaultWakeFunction(wqEntry, mode, sync, key);
        if (ret != 0) {
            listDelInitCareful(wqEntry);
        }
        return ret;
    }

    // ------------------------------------------------------------------ waking

    /**
     * kernel/sched/wait.c: {@code __wake_up_common()} (v5.10). Walks the queue from the head (or
     * from the bookmark), calling each entry's function. {@code curr->flags} is read
     * <em>before</em> the call, because the entry may be gone after it. A negative return stops
     * the walk; a positive return from an exclusive entry uses up one of {@code nrExclusive}.
     * With a bookmark, after {@code WAITQUEUE_WALK_BREAK_CNT} entries the bookmark is inserted
     * before the next entry and the walk returns, so the caller can drop the lock.
     * Caller holds {@code wqHead->lock}.
     */
    public static int __wakeUpCommon(WaitQueueHead wqHead, int mode, int nrExclusive, int wakeFlags, Object key,
            WaitQueueEntry bookmark) {
        Spinlock.lockdepAssertHeld(wqHead.lock);
        final long breakCnt = Kernel.config().value(KernelOptions.WAITQUEUE_WALK_BREAK_CNT);
        int cnt = 0;
        ListHead curr;
        if (bookmark != null && (bookmark.flags() & WQ_FLAG_BOOKMARK) != 0) {
            curr = bookmark.entry.next;
            bookmark.entry.del();
            bookmark.setFlags(0);
        } else {
            curr = wqHead.head.next;
        }
        if (curr == wqHead.head) {
            return nrExclusive;
        }
        // list_for_each_entry_safe_from(curr, next, &wq_head->head, entry)
        for (ListHead next = curr.next; curr != wqHead.head; curr = next, next = curr.next) {
            // An iteration of the runtime's own loop: counted against the step bound, so that a
            // corrupted (cyclic) queue ends as a reported bound, not a hang.
            Kernel.rt().loopStep("__wake_up_common");
            WaitQueueEntry e = curr.owner;
            int flags = e.flags();
            if ((flags & WQ_FLAG_BOOKMARK) != 0) {
                continue;
            }
            int ret = e.func().wake(e, mode, wakeFlags, key);
            if (ret < 0) {
                break;
            }
            if (ret != 0 && (flags & WQ_FLAG_EXCLUSIVE) != 0 && --nrExclusive == 0) {
                break;
            }
            if (bookmark != null && ++cnt > breakCnt && next != wqHead.head) {
                bookmark.setFlags(WQ_FLAG_BOOKMARK);
                bookmark.entry.addBefore(next);
                break;
            }
        }
        return nrExclusive;
    }

    /**
     * kernel/sched/wait.c: {@code __wake_up_common_lock()} / {@code __wake_up()}: the walk under
     * the lock, dropping and retaking it at each bookmark.
     */
    public static void __wakeUp(WaitQueueHead wqHead, int mode, int nrExclusive, Object key) {
        WaitQueueEntry bookmark = new WaitQueueEntry(wqHead + ".bookmark");
        bookmark.setFlags(0);
        bookmark.setPrivate(null);
        bookmark.setFunc(null);
        bookmark.initListHead();
        do {
            long f = Spinlock.spinLockIrqsave(wqHead.lock);
            nrExclusive = __wakeUpCommon(wqHead, mode, nrExclusive, 0, key, bookmark);
            Spinlock.spinUnlockIrqrestore(wqHead.lock, f);
        } while ((bookmark.flags() & WQ_FLAG_BOOKMARK) != 0);
        bookmark.leaveScope();
    }

    /** kernel/sched/wait.c: {@code __wake_up_locked_key_bookmark()}: one walk step; caller holds the lock. */
    public static void __wakeUpLockedKeyBookmark(WaitQueueHead wqHead, int mode, Object key, WaitQueueEntry bookmark) {
        __wakeUpCommon(wqHead, mode, 1, 0, key, bookmark);
    }

    /** include/linux/wait.h: {@code wake_up()}: wake all non-exclusive and one exclusive waiter. */
    public static void wakeUp(WaitQueueHead wqHead) {
        __wakeUp(wqHead, Task.TASK_NORMAL, 1, null);
    }

    /** include/linux/wait.h: {@code wake_up_all()}. */
    public static void wakeUpAll(WaitQueueHead wqHead) {
        __wakeUp(wqHead, Task.TASK_NORMAL, 0, null);
    }
}
