package kmodel.mm;

import static kmodel.kernel.wait.WaitQueueEntry.WQ_FLAG_BOOKMARK;
import static kmodel.kernel.wait.WaitQueueEntry.WQ_FLAG_CUSTOM;
import static kmodel.kernel.wait.WaitQueueEntry.WQ_FLAG_DONE;
import static kmodel.kernel.wait.WaitQueueEntry.WQ_FLAG_EXCLUSIVE;
import static kmodel.kernel.wait.WaitQueueEntry.WQ_FLAG_WOKEN;
import static kmodel.mm.PageFlags.PG_locked;
import static kmodel.mm.PageFlags.PG_writeback;

import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.atomic.Barriers;
import kmodel.kernel.atomic.Bitops;
import kmodel.kernel.locking.Spinlock;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;
import kmodel.kernel.wait.Wait;
import kmodel.kernel.wait.WaitQueueEntry;
import kmodel.kernel.wait.WaitQueueHead;

/**
 * mm/filemap.c (v5.10, and v5.7 where {@link MmOptions#PAGE_WAIT_V57} says so), the page lock and
 * wait half, with the inline helpers of include/linux/pagemap.h and
 * {@code wait_on_page_writeback()} of mm/page-writeback.c. Kept whole on purpose: one protocol,
 * one file, read side by side with the kernel's.
 *
 * <h2>Implementation notes</h2>
 *
 * <h3>Concurrency</h3>
 * Waiters sleep on {@code page_waitqueue(page)}, a head of the hashed {@link PageWaitTable}
 * shared by every page that hashes there. All queue changes and every wake function run under
 * that head's {@code q->lock}; wakers may run in interrupt context (bio completion calls
 * {@code unlock_page()}), so wake functions never sleep. PG_locked, PG_writeback and PG_waiters
 * change only by atomic bit operations on {@code page->flags} (each a scheduling point).
 *
 * <h3>The PG_waiters fast path (KERNEL-NOTES A.8, A.9)</h3>
 * {@code unlock_page()} clears PG_locked and reads PG_waiters (bit 7 of the same byte) in one
 * atomic step, and only then walks the queue. A waiter sets PG_waiters under {@code q->lock} and
 * re-tests (or takes) the bit <em>after</em> advertising itself:
 * <pre>
 *   waiter                                  unlocker
 *   spin_lock_irq(&amp;q-&gt;lock)
 *   SetPageWaiters(page)                     clear_bit_unlock_is_negative_byte(PG_locked)
 *   trylock/test bit again                     -&gt; PG_waiters seen: wake_up_page_bit()
 *   __add_wait_queue_entry_tail(q, wait)          spins on q-&gt;lock until the waiter is queued
 *   spin_unlock_irq(&amp;q-&gt;lock)
 * </pre>
 * The RMWs on one word are totally ordered: either the unlock sees PG_waiters and wakes after the
 * waiter is queued, or it came first and the waiter's re-test sees the bit clear. Testing before
 * advertising loses the wake-up (bug {@code async-wait-check-before-add}).
 * Only {@code wake_up_page_bit()} clears PG_waiters, after its walk, when the queue is empty or
 * no entry for this page was seen ({@code key.page_match}). So every wake function must set
 * {@code page_match} for an entry of this page even when it leaves it queued (bug
 * {@code async-page-match-not-set}). "It's possible to miss clearing Waiters here ... The next
 * waker will clear it": PG_waiters left set is a known benign race; left clear while a waiter of
 * the page is queued is a hang ({@link PageWaitTable#checkInvariants}).
 *
 * <h3>Wake-up protocol (v5.10): waiter kinds</h3>
 * {@link #wakePageFunction} keeps the kernel's lettering:
 * (a) no special bits: set WOKEN, wake, unlink;
 * (b) {@code WQ_FLAG_EXCLUSIVE}: the traditional wake-one exclusive waiter; if the bit was taken
 *     again the walk stops (-1) without waking it;
 * (c) {@code WQ_FLAG_EXCLUSIVE | WQ_FLAG_CUSTOM}: fair lock hand-off; the waker takes the bit for
 *     the waiter and sets {@code WQ_FLAG_DONE} (bug {@code handoff-forgets-done} omits it), or
 *     stops the walk if it cannot.
 * The waker's last access to the entry is {@code list_del_init_careful()}: the waiter may then
 * return and its on-stack {@code wait_page_queue} is gone ({@code use-after-free} otherwise).
 * {@code __wake_up_common()} reads the entry's flags before calling the function for the same
 * reason.
 *
 * <h3>Lock hand-off and unfairness (v5.9+)</h3>
 * An exclusive waiter woken as (b) tries {@code test_and_set_bit()} itself; if another task stole
 * the lock it requeues at the tail with {@code --unfairness}; once the budget
 * ({@code sysctl_page_lock_unfairness}, {@link MmOptions#PAGE_LOCK_UNFAIRNESS}) is spent it queues
 * as (c) and is handed the lock.
 *
 * <h3>A candidate fix (in no kernel)</h3>
 * {@link MmOptions#PAGE_LOCK_WOKEN_KILLED_TRYLOCK}: an exclusive waiter that a waker picked as
 * kind (b) after it left its loop on a signal (WOKEN without DONE after {@code finish_wait()})
 * tries the lock once instead of returning -EINTR with the walk's one exclusive wake-up used up
 * (finding {@code finding-killed-locker-strands-waiter}).
 *
 * <h3>v5.7 (before the v5.8 rewrite)</h3>
 * {@link MmOptions#PAGE_WAIT_V57} selects the older pair: the wake function only wakes (after
 * "stop walking if it's locked"), and the woken waiter tests or takes the bit itself in its loop,
 * checking for a signal after that (a8b169afbf06; bug {@code exclusive-wait-signal-first} undoes
 * it).
 *
 * <h3>References</h3>
 * <ol>
 *   <li>torvalds/linux mm/filemap.c at v5.10 and v5.7; include/linux/pagemap.h v5.10.</li>
 *   <li>2a9127fcf229 "mm: rewrite wait_on_page_bit_common() logic" (v5.8).</li>
 *   <li>5ef64cc8987a "mm: allow a controlled amount of unfairness in the page lock" (v5.9).</li>
 *   <li>c7510ab2cf5c "mm: abstract out wake_page_match() from wake_page_function()" (v5.9).</li>
 *   <li>Async buffered reads, v7 posting 20200618144355.17324-*-axboe@kernel.dk (merged v5.9);
 *       v1 20200522202311.10959-*-axboe@kernel.dk (the catalog bugs).</li>
 *   <li>a8b169afbf06 "Avoid page waitqueue race leaving possible page locker waiting" (v4.13).</li>
 * </ol>
 */
public final class Filemap {
    private Filemap() {
    }

    /** mm/filemap.c: {@code enum behavior}, the three ways to wait in {@code wait_on_page_bit_common()}. */
    public enum Behavior {
        /** Hold a page reference and take the bit when woken, like {@code __lock_page()} on PG_locked. */
        EXCLUSIVE,
        /** Hold a page reference and check the bit when woken, like {@code wait_on_page_writeback()}. */
        SHARED,
        /** Drop the page reference before waiting, no check when woken, like {@code put_and_wait_on_page_locked()}. */
        DROP
    }

    // ------------------------------------------------------------------ bit helpers

    private static boolean testBit(int nr, Page page) {
        page.touch();
        return Bitops.testBit(nr, page.flags);
    }

    private static boolean testAndSetBit(int nr, Page page) {
        page.touch();
        boolean old = Bitops.testAndSetBit(nr, page.flags);
        if (!old && nr == PG_locked) {
            page.lockOwner = Kernel.current();
        }
        return old;
    }

    private static boolean testAndSetBitLock(int nr, Page page) {
        page.touch();
        boolean old = Bitops.testAndSetBitLock(nr, page.flags);
        if (!old && nr == PG_locked) {
            page.lockOwner = Kernel.current();
        }
        return old;
    }

    /** What a sleeping page waiter waits on, for the missed-wakeup report. */
    private static String waitingOn(WaitPageQueue waitPage, WaitQueueHead q) {
        return waitPage.wait.name() + " for " + waitPage.page.name() + " bit " + waitPage.bitNr + " on " + q;
    }

    private static String waitName() {
        Task me = Kernel.current();
        return (me != null ? me.name() : "boot") + ".wait_page";
    }

    // ------------------------------------------------------------------ the hashed queues

    /** mm/filemap.c: {@code page_waitqueue()}: the head of the page's memory's wait table it hashes to. */
    public static WaitQueueHead pageWaitqueue(Page page) {
        return page.allocator.waitTable().pageWaitqueue(page);
    }

    /**
     * include/linux/pagemap.h: {@code wake_page_match()} (v5.9+). False if the entry is for
     * another page; otherwise sets {@code key->page_match} (even when the bit differs), then
     * matches the bit. Compares page pointers only: the entry's page may already be freed.
     */
    public static boolean wakePageMatch(WaitPageQueue waitPage, WaitPageKey key) {
        waitPage.wait.touch();
        if (waitPage.page != key.page) {
            return false;
        }
        if (!Kernel.bug(FilemapBugs.WAKE_PAGE_MATCH_NOT_SET)) {
            key.pageMatch = 1;
        }
        if (waitPage.bitNr != key.bitNr) {
            return false;
        }
        return true;
    }

    // ------------------------------------------------------------------ wake functions

    /**
     * mm/filemap.c: {@code wake_page_function()} (v5.10). Called under {@code q->lock}. Waiter
     * kinds: (a) no special bits: set WOKEN, wake, unlink; (b) {@code WQ_FLAG_EXCLUSIVE}: if the
     * bit is set again stop the walk (-1) without waking, else as (a) and count as the walk's
     * exclusive wake-up; (c) {@code WQ_FLAG_EXCLUSIVE | WQ_FLAG_CUSTOM}: take the bit for the
     * waiter ("fair lock handoff") and set {@code WQ_FLAG_DONE}, or stop the walk if it cannot.
     * The flags are published with a release store that pairs with the waiter's acquire load;
     * {@code list_del_init_careful()} is the last access to the entry.
     */
    public static int wakePageFunction(WaitQueueEntry wait, int mode, int sync, Object arg) {
        WaitPageKey key = (WaitPageKey) arg;
        WaitPageQueue waitPage = (WaitPageQueue) wait.containerOf();

        if (!wakePageMatch(waitPage, key)) {
            return 0;
        }
        /* If it's a lock handoff wait, we get the bit for it, and stop walking (and do not wake it up) if we can't. */
        int flags = wait.flags();
        boolean handedOff = false; // model-only, for the page lock's owner
        if ((flags & WQ_FLAG_EXCLUSIVE) != 0) {
            if (testBit(key.bitNr, key.page)) {
                return -1;
            }
            if ((flags & WQ_FLAG_CUSTOM) != 0) {
                key.page.lateFlagWrite(key.gen, key.bitNr, true, "wake_page_function");
                if (testAndSetBit(key.bitNr, key.page)) {
                    return -1;
                }
                handedOff = true;
                if (!Kernel.bug(FilemapBugs.HANDOFF_FORGETS_DONE)) {
                    flags |= WQ_FLAG_DONE;
                }
            }
        }
        /* The waiter checks the flags without locking: publish them atomically, then wake. */
        wait.storeReleaseFlags(flags | WQ_FLAG_WOKEN);
        Kernel.event("wake_page_function(%s): %s", wait.name(), (flags & WQ_FLAG_DONE) != 0 ? "WOKEN|DONE (lock handed off)" : "WOKEN");
        waitPage.spuriousIfReused(key);
        Task waiter = (Task) wait.private_();
        if (handedOff && key.bitNr == PG_locked) {
            // Model-only: the bit was taken for the waiter, not for us. Set here, where the entry
            // is read anyway, so that the bookkeeping adds nothing to the step that took the bit.
            key.page.lockOwner = waiter;
        }
        Sched.wakeUpState(waiter, mode);
        /* Has to be the absolute last thing we do: the entry may be gone right after it. */
        if (!Kernel.bug(FilemapBugs.PAGE_WAIT_LIST_DEL_NOT_CAREFUL)) {
            Wait.listDelInitCareful(wait);
        } else {
            /*
             * 2a9127fcf229's form (v5.8, before c6fe44d96fc1): "We _really_ should have a
             * list_del_init_careful() to properly pair with the unlocked list_empty_careful() in
             * finish_wait()": a full barrier, then a plain list_del_init(). The scheduling point
             * is list_del_init_careful()'s, on the same entry, so that the sc search is unchanged.
             */
            Barriers.smpMb("wake_page_function");
            Kernel.event("wake_page_function(%s): smp_mb(); list_del_init() (bug)", wait.name());
            Kernel.rt().point("list_del_init", wait);
            Wait.listDelInit(wait);
        }
        return (flags & WQ_FLAG_EXCLUSIVE) != 0 ? 1 : 0;
    }

    /**
     * mm/filemap.c: {@code wake_page_function()} (v4.14 to v5.7). Sets {@code page_match} for any
     * entry of this page; skips other bits; "stop walking if it's locked" (-1); otherwise
     * {@code autoremove_wake_function()} as of v5.7: {@code default_wake_function()} and, if that
     * woke the task, a plain {@code list_del_init()} (the careful variant came in v5.8; the
     * sequentially consistent model cannot tell them apart). The waiter tests the bit itself.
     */
    public static int wakePageFunctionV57(WaitQueueEntry wait, int mode, int sync, Object arg) {
        WaitPageKey key = (WaitPageKey) arg;
        WaitPageQueue waitPage = (WaitPageQueue) wait.containerOf();

        if (waitPage.page != key.page) {
            return 0;
        }
        key.pageMatch = 1;
        if (waitPage.bitNr != key.bitNr) {
            return 0;
        }
        /* Stop walking if it's locked. */
        if (testBit(key.bitNr, key.page)) {
            return -1;
        }
        int ret = Wait.defaultWakeFunction(wait, mode, sync, key);
        if (ret != 0) {
            waitPage.spuriousIfReused(key);
            Wait.listDelInit(wait);
        }
        return ret;
    }

    // ------------------------------------------------------------------ waking

    /**
     * mm/filemap.c: {@code wake_up_page_bit()} (v4.14 to v5.10). Walks the page's hashed queue
     * with a {@code wait_page_key} and an on-stack bookmark, dropping {@code q->lock} whenever the
     * walk leaves the bookmark ("take a breather ... allow pages that finish wake up
     * asynchronously to acquire the lock and remove themselves"); the key persists, so
     * {@code page_match} accumulates over the whole walk. Then, still under the lock, clears
     * PG_waiters if the queue is empty or no entry for this page was seen. Hash collisions can
     * leave it set: "The next waker will clear it."
     */
    public static void wakeUpPageBit(Page page, int bitNr) {
        wakeUpPageBit(page, page.gen(), bitNr);
    }

    /**
     * mm/filemap.c: {@code wake_up_page_bit()} (v5.10), as {@link #wakeUpPageBit(Page, int)},
     * through a pointer to incarnation {@code gen} of the page, which the caller (an unlocker, a
     * writeback completion) had a right to when it took it but may no longer have: the page may
     * be freed and reused meanwhile. The walk's late writes are checked for their effect
     * ({@link Page#lateFlagWrite}).
     */
    static void wakeUpPageBit(Page page, int gen, int bitNr) {
        WaitQueueHead q = pageWaitqueue(page);
        WaitPageKey key = new WaitPageKey(page, bitNr);
        key.gen = gen;
        key.pageMatch = 0;

        WaitQueueEntry bookmark = new WaitQueueEntry(q + ".bookmark");
        bookmark.setFlags(0);
        bookmark.setPrivate(null);
        bookmark.setFunc(null);
        bookmark.initListHead();

        long flags = Spinlock.spinLockIrqsave(q.lock);
        Wait.__wakeUpLockedKeyBookmark(q, Task.TASK_NORMAL, key, bookmark);

        while ((bookmark.flags() & WQ_FLAG_BOOKMARK) != 0) {
            /* Take a breather from holding the lock (cpu_relax() between). */
            Spinlock.spinUnlockIrqrestore(q.lock, flags);
            flags = Spinlock.spinLockIrqsave(q.lock);
            Wait.__wakeUpLockedKeyBookmark(q, Task.TASK_NORMAL, key, bookmark);
        }

        /*
         * Other pages may have collided on the hash: only clear PG_waiters if no entry for this
         * page was seen. Waking our waiters while other pages' keep the queue active leaves it
         * set; that's okay, the next waker will clear it.
         */
        if (!Wait.waitqueueActive(q) || key.pageMatch == 0) {
            page.lateFlagWrite(gen, PageFlags.PG_waiters, false, "wake_up_page_bit");
            PageFlags.ClearPageWaiters(page);
            Kernel.event("ClearPageWaiters(%s)", page);
        }
        Spinlock.spinUnlockIrqrestore(q.lock, flags);
        bookmark.leaveScope();
    }

    /** mm/filemap.c: {@code wake_up_page()}: nothing to do unless PG_waiters is set. */
    public static void wakeUpPage(Page page, int bit) {
        wakeUpPage(page, page.gen(), bit);
    }

    /**
     * mm/filemap.c: {@code wake_up_page()} (v5.10), as {@link #wakeUpPage(Page, int)}, through a
     * pointer to incarnation {@code gen} (see {@link #wakeUpPageBit(Page, int, int)}).
     */
    static void wakeUpPage(Page page, int gen, int bit) {
        if (!PageFlags.PageWaiters(page)) {
            return;
        }
        wakeUpPageBit(page, gen, bit);
    }

    /**
     * mm/filemap.c: {@code unlock_page()} (v5.10). {@code BUILD_BUG_ON(PG_waiters != 7)} (the
     * Java stand-in is {@link PageFlags#checkLayout()}), {@code VM_BUG_ON_PAGE(!PageLocked(page))}
     * ({@code bug-on} when a task unlocks a page nobody locked), then one atomic
     * {@code clear_bit_unlock_is_negative_byte()} that clears PG_locked and reports PG_waiters.
     * May be called from interrupt context.
     */
    public static void unlockPage(Page page) {
        PageFlags.VM_BUG_ON_PAGE(!PageFlags.PageLocked(page), page, "!PageLocked(page)");
        /*
         * The caller owns PG_locked, so the page is this incarnation until the bit is clear; an
         * unlock from I/O completion holds no reference, and from then on the page may be
         * truncated, freed and reused before the wake-up walks its queue.
         */
        int gen = page.gen();
        page.touch();
        page.lockOwner = null;
        if (Bitops.clearBitUnlockIsNegativeByte(PG_locked, page.flags)) {
            Kernel.event("unlock_page(%s): PG_waiters set, wake_up_page_bit", page);
            wakeUpPageBit(page, gen, PG_locked);
        } else {
            Kernel.event("unlock_page(%s)", page);
        }
    }

    // ------------------------------------------------------------------ writeback

    /**
     * include/linux/page-flags.h: {@code set_page_writeback()} ->
     * {@code test_set_page_writeback()} ({@link PageWriteback#__testSetPageWriteback}: the
     * mapping's marks when it keeps them, no accounting); returns the old bit, as the kernel's
     * {@code __test_set_page_writeback()} does.
     */
    public static boolean setPageWriteback(Page page) {
        return PageWriteback.__testSetPageWriteback(page, false);
    }

    /**
     * mm/page-writeback.c: {@code test_clear_page_writeback()} ({@link PageWriteback#testClearPageWriteback}:
     * the WRITEBACK mark when the mapping keeps marks, no accounting).
     */
    public static boolean testClearPageWriteback(Page page) {
        return PageWriteback.testClearPageWriteback(page);
    }

    /**
     * mm/filemap.c: {@code end_page_writeback()} (v5.10): {@code BUG()} unless the page was under
     * writeback, then {@code wake_up_page(page, PG_writeback)} (bug
     * {@code end-page-writeback-no-wake} leaves the wake-up out). The {@code PageReclaim()}
     * rotation is left out: the model does no reclaim, and PG_reclaim is PG_readahead's bit.
     */
    public static void endPageWriteback(Page page) {
        boolean noRef = Kernel.bug(FilemapBugs.END_WRITEBACK_NO_PAGE_REF);
        /*
         * Writeback does not hold a page reference of its own, relying on truncation to wait for
         * the clearing of PG_writeback. But here we must make sure that the page is not freed and
         * reused before the wake_up_page() (073861ed77b6, v5.10-rc6).
         */
        if (!noRef) {
            Page.getPage(page);
        }
        /* PG_writeback is set, so the page is this incarnation until it is clear. */
        int gen = page.gen();
        if (!testClearPageWriteback(page)) {
            Kernel.BUG_ON(true, "end_page_writeback(" + page.describe() + "): page was not under writeback");
        }
        Barriers.smpMbAfterAtomic("end_page_writeback");
        Kernel.event("end_page_writeback(%s)", page);
        if (!Kernel.bug(FilemapBugs.END_PAGE_WRITEBACK_NO_WAKE)) {
            wakeUpPage(page, gen, PG_writeback);
        }
        if (!noRef) {
            Page.putPage(page);
        }
    }

    /**
     * mm/page-writeback.c: {@code wait_on_page_writeback()} as c2407cf7d22d ("mm: make
     * wait_on_page_writeback() wait for multiple pending writebacks", v5.11-rc3, Cc: stable; 5.10.7) has
     * it: loop while PG_writeback is set. A wake-up can come from the end of an earlier writeback
     * whose {@code end_page_writeback()} cleared the bit, was delayed, and woke only after a new
     * writeback of the page had started; v5.10.0's single {@code if} then returned with the page
     * under writeback again (bug {@code wait-on-page-writeback-once}).
     */
    public static void waitOnPageWriteback(Page page) {
        if (Kernel.bug(FilemapBugs.WAIT_ON_PAGE_WRITEBACK_ONCE)) {
            if (PageFlags.PageWriteback(page)) {
                waitOnPageBit(page, PG_writeback);
            }
            return;
        }
        while (PageFlags.PageWriteback(page)) {
            waitOnPageBit(page, PG_writeback);
        }
    }

    // ------------------------------------------------------------------ sleeping waits

    /**
     * mm/filemap.c: {@code trylock_page_bit_common()} (v5.9+): one last try under {@code q->lock}
     * to take (exclusive) or see clear (shared) the bit; on success the waiter is marked
     * {@code WOKEN | DONE} and is not queued.
     */
    static boolean trylockPageBitCommon(Page page, int bitNr, WaitQueueEntry wait) {
        if ((wait.flags() & WQ_FLAG_EXCLUSIVE) != 0) {
            if (testAndSetBit(bitNr, page)) {
                return false;
            }
        } else if (testBit(bitNr, page)) {
            return false;
        }
        wait.setFlags(wait.flags() | WQ_FLAG_WOKEN | WQ_FLAG_DONE);
        return true;
    }

    /**
     * mm/filemap.c: {@code wait_on_page_bit_common()}: the v5.10 form, or the v5.7 one when
     * {@link MmOptions#PAGE_WAIT_V57} is set. Returns 0, or {@code -EINTR} when a signal the
     * sleep {@code state} admits ended the wait first. The {@code wait_page_queue} lives on this
     * frame: it leaves scope when this returns.
     */
    public static int waitOnPageBitCommon(WaitQueueHead q, Page page, int bitNr, int state, Behavior behavior) {
        if (Kernel.config().enabled(MmOptions.PAGE_WAIT_V57)) {
            return waitOnPageBitCommonV57(q, page, bitNr, state, behavior);
        }
        return waitOnPageBitCommonV510(q, page, bitNr, state, behavior);
    }

    /**
     * mm/filemap.c: {@code wait_on_page_bit_common()} (v5.10). The entry's flags decide
     * everything: the waker marks WOKEN (and DONE for a hand-off); the waiter, after
     * {@code set_current_state()}, loads them with acquire and sleeps only if not WOKEN. An
     * exclusive waiter woken without DONE tries the bit itself and, if that fails, requeues at
     * the tail ({@code goto repeat}) with {@code --unfairness}. The result is decided after
     * {@code finish_wait()}: "the wait->flags weren't stable until we've done the finish_wait()";
     * an exclusive waiter needs DONE, a shared one WOKEN. PSI thrashing accounting is left out.
     */
    static int waitOnPageBitCommonV510(WaitQueueHead q, Page page, int bitNr, int state, Behavior behavior) {
        int unfairness = (int) Kernel.config().value(MmOptions.PAGE_LOCK_UNFAIRNESS);
        boolean wokenKilledTrylock = Kernel.config().enabled(MmOptions.PAGE_LOCK_WOKEN_KILLED_TRYLOCK);
        WaitPageQueue waitPage = new WaitPageQueue(waitName());
        WaitQueueEntry wait = waitPage.wait;
        Task me = Kernel.current();

        Wait.initWait(wait);
        wait.setFunc(Filemap::wakePageFunction);
        waitPage.page = page;
        waitPage.gen = page.gen();
        waitPage.bitNr = bitNr;

        boolean repeat = true;
        while (repeat) { /* repeat: */
            repeat = false;
            wait.setFlags(0);
            if (behavior == Behavior.EXCLUSIVE) {
                wait.setFlags(WQ_FLAG_EXCLUSIVE);
                if (--unfairness < 0) {
                    wait.setFlags(wait.flags() | WQ_FLAG_CUSTOM);
                }
            }

            /*
             * One last check whether we can get the page bit synchronously, after the
             * SetPageWaiters() marking (so a waker we just missed knows to wake us), and queue
             * ourselves if we need to sleep; all under the queue lock.
             */
            Spinlock.spinLockIrq(q.lock);
            PageFlags.SetPageWaiters(page);
            if (!trylockPageBitCommon(page, bitNr, wait)) {
                Wait.__addWaitQueueEntryTail(q, wait);
            }
            Spinlock.spinUnlockIrq(q.lock);

            /* From now on, WQ_FLAG_WOKEN and WQ_FLAG_DONE say it all: we can drop our reference. */
            if (behavior == Behavior.DROP) {
                Page.putPage(page);
            }

            /* Until finish_wait() or WOKEN, wait->flags may race with a waker that sets them. */
            for (;;) {
                Sched.setCurrentState(state);
                /* Loop until we've been woken or interrupted */
                int flags = wait.loadAcquireFlags();
                if ((flags & WQ_FLAG_WOKEN) == 0) {
                    if (Sched.signalPendingState(state, me)) {
                        break;
                    }
                    Sched.waitingFor(waitingOn(waitPage, q), bitNr == PG_locked ? page : null);
                    Sched.ioSchedule();
                    continue;
                }
                /* If we were non-exclusive, we're done */
                if (behavior != Behavior.EXCLUSIVE) {
                    break;
                }
                /* If the waker got the lock for us, we're done */
                if ((flags & WQ_FLAG_DONE) != 0) {
                    break;
                }
                /* Otherwise try to get the lock ourselves, and if that fails, retry it all. */
                if (testAndSetBit(bitNr, page)) {
                    repeat = true;
                    break;
                }
                wait.setFlags(wait.flags() | WQ_FLAG_DONE);
                break;
            }
        }

        /*
         * After a signal this may remove the last waiter while PG_waiters stays set. That's ok:
         * the next wakeup will take care of it.
         */
        if (!Kernel.bug(FilemapBugs.PAGE_WAIT_LIST_DEL_NOT_CAREFUL)) {
            Wait.finishWait(q, wait);
        } else {
            finishWaitPlainListEmptyCareful(q, wait);
        }

        if (wokenKilledTrylock && behavior == Behavior.EXCLUSIVE) {
            wokenKilledTrylock(page, bitNr, wait);
        }

        /* Only now are the flags stable: exclusive needs DONE, shared WOKEN. */
        int ret;
        if (behavior == Behavior.EXCLUSIVE) {
            ret = (wait.flags() & WQ_FLAG_DONE) != 0 ? 0 : -Errno.EINTR;
        } else {
            ret = (wait.flags() & WQ_FLAG_WOKEN) != 0 ? 0 : -Errno.EINTR;
        }
        wait.leaveScope();
        return ret;
    }

    /**
     * kernel/sched/wait.c: {@code finish_wait()} as it was before c6fe44d96fc1 ("list: add
     * "list_del_init_careful()" to go with "list_empty_careful()"", v5.8), for bug
     * {@code page-wait-list-del-not-careful} only: {@code list_empty_careful()} read
     * {@code head->next} (and {@code head->prev}) with plain loads, not {@code smp_load_acquire()},
     * so a waiter that finds its entry unlinked and skips {@code q->lock} has nothing ordering its
     * later read of {@code wait->flags} after the waker's stores. The scheduling point is the one
     * {@code Wait.listEmptyCareful()} has, on the same entry, so that the sc search is unchanged.
     */
    private static void finishWaitPlainListEmptyCareful(WaitQueueHead q, WaitQueueEntry wait) {
        Sched.__setCurrentState(Task.TASK_RUNNING);
        Kernel.rt().point("list_empty_careful", wait);
        if (!wait.listEmpty()) {
            long f = Spinlock.spinLockIrqsave(q.lock);
            Wait.listDelInit(wait);
            Spinlock.spinUnlockIrqrestore(q.lock, f);
        }
    }

    /**
     * mm/filemap.c: {@code wait_on_page_bit_common()} (v5.10), after {@code finish_wait()}: the
     * candidate fix {@link MmOptions#PAGE_LOCK_WOKEN_KILLED_TRYLOCK}, in no kernel. An exclusive
     * waiter can reach this point with WOKEN but not DONE only by leaving its loop on a signal
     * and being picked by a waker before its {@code finish_wait()}: kind (b) of
     * {@link #wakePageFunction}, which returned 1 and so used up the walk's one exclusive
     * wake-up. Such a waiter takes the lock once ({@code test_and_set_bit()}, as the loop does)
     * and, if it gets it, owns it (DONE: the caller sees 0, as a hand-off waiter with a signal
     * pending does). If the bit is taken, its owner will unlock and, the other waiters still
     * queued and PG_waiters set, wake the next one: no wake-up is lost either way.
     */
    private static void wokenKilledTrylock(Page page, int bitNr, WaitQueueEntry wait) {
        int flags = wait.flags();
        if ((flags & (WQ_FLAG_WOKEN | WQ_FLAG_DONE)) != WQ_FLAG_WOKEN) {
            return;
        }
        if (!testAndSetBit(bitNr, page)) {
            wait.setFlags(flags | WQ_FLAG_DONE);
            Kernel.event("woken without DONE after a signal: took %s", page);
        } else {
            Kernel.event("woken without DONE after a signal: %s is owned, its unlock wakes the queue", page);
        }
    }

    /**
     * mm/filemap.c: {@code wait_on_page_bit_common()} (v4.20 to v5.7, enum behavior). Queue once
     * at the tail and set PG_waiters (under the lock), set the task state, test the bit and sleep
     * if it is set; after each wake-up the waiter itself takes the bit
     * ({@code test_and_set_bit_lock}, EXCLUSIVE) or tests it (SHARED), and only then checks for a
     * signal (a8b169afbf06). DROP puts the page reference after the first test and never touches
     * {@code page->flags} again. Bug {@code exclusive-wait-signal-first} restores the pre-v4.13
     * order: the signal check right after {@code io_schedule()}.
     */
    static int waitOnPageBitCommonV57(WaitQueueHead q, Page page, int bitNr, int state, Behavior behavior) {
        WaitPageQueue waitPage = new WaitPageQueue(waitName());
        WaitQueueEntry wait = waitPage.wait;
        Task me = Kernel.current();
        boolean signalFirst = Kernel.bug(FilemapBugs.EXCLUSIVE_WAIT_SIGNAL_FIRST);
        int ret = 0;

        Wait.initWait(wait);
        wait.setFlags(behavior == Behavior.EXCLUSIVE ? WQ_FLAG_EXCLUSIVE : 0);
        wait.setFunc(Filemap::wakePageFunctionV57);
        waitPage.page = page;
        waitPage.gen = page.gen();
        waitPage.bitNr = bitNr;

        for (;;) {
            Spinlock.spinLockIrq(q.lock);
            if (wait.listEmpty()) {
                Wait.__addWaitQueueEntryTail(q, wait);
                PageFlags.SetPageWaiters(page);
            }
            Sched.setCurrentState(state);
            Spinlock.spinUnlockIrq(q.lock);

            boolean bitIsSet = testBit(bitNr, page);
            if (behavior == Behavior.DROP) {
                Page.putPage(page);
            }
            if (bitIsSet) {
                Sched.waitingFor(waitingOn(waitPage, q), bitNr == PG_locked ? page : null);
                Sched.ioSchedule();
                if (signalFirst && Sched.signalPendingState(state, me)) {
                    /* Bug: leaving on a signal after a wake-up that was meant for us. */
                    ret = -Errno.EINTR;
                    break;
                }
            }

            if (behavior == Behavior.EXCLUSIVE) {
                if (!testAndSetBitLock(bitNr, page)) {
                    break;
                }
            } else if (behavior == Behavior.SHARED) {
                if (!testBit(bitNr, page)) {
                    break;
                }
            }

            if (!signalFirst && Sched.signalPendingState(state, me)) {
                ret = -Errno.EINTR;
                break;
            }

            if (behavior == Behavior.DROP) {
                /*
                 * We can no longer safely access page->flags: there is a risk of waiting forever
                 * on a page reused for something that keeps it locked indefinitely.
                 */
                break;
            }
        }

        Wait.finishWait(q, wait);
        /* A signal could leave PageWaiters set; the next wake-up clears it. */
        wait.leaveScope();
        return ret;
    }

    // ------------------------------------------------------------------ the page lock and its wrappers

    /** include/linux/pagemap.h: {@code trylock_page()}: {@code !test_and_set_bit_lock(PG_locked)}. */
    public static boolean trylockPage(Page page) {
        return !testAndSetBitLock(PG_locked, page);
    }

    /** mm/filemap.c: {@code __lock_page()}: sleep uninterruptibly until this task owns PG_locked. */
    public static void __lockPage(Page page) {
        WaitQueueHead q = pageWaitqueue(page);
        waitOnPageBitCommon(q, page, PG_locked, Task.TASK_UNINTERRUPTIBLE, Behavior.EXCLUSIVE);
    }

    /** mm/filemap.c: {@code __lock_page_killable()}: 0 when locked, {@code -EINTR} on a fatal signal. */
    public static int __lockPageKillable(Page page) {
        WaitQueueHead q = pageWaitqueue(page);
        return waitOnPageBitCommon(q, page, PG_locked, Task.TASK_KILLABLE, Behavior.EXCLUSIVE);
    }

    /** include/linux/pagemap.h: {@code lock_page()}. */
    public static void lockPage(Page page) {
        if (!trylockPage(page)) {
            __lockPage(page);
        }
    }

    /** include/linux/pagemap.h: {@code lock_page_killable()}: 0 when locked, {@code -EINTR} on a fatal signal. */
    public static int lockPageKillable(Page page) {
        if (!trylockPage(page)) {
            return __lockPageKillable(page);
        }
        return 0;
    }

    /** mm/filemap.c: {@code wait_on_page_bit()}: uninterruptible, SHARED. */
    public static void waitOnPageBit(Page page, int bitNr) {
        WaitQueueHead q = pageWaitqueue(page);
        waitOnPageBitCommon(q, page, bitNr, Task.TASK_UNINTERRUPTIBLE, Behavior.SHARED);
    }

    /** mm/filemap.c: {@code wait_on_page_bit_killable()}: 0, or {@code -EINTR} on a fatal signal. */
    public static int waitOnPageBitKillable(Page page, int bitNr) {
        WaitQueueHead q = pageWaitqueue(page);
        return waitOnPageBitCommon(q, page, bitNr, Task.TASK_KILLABLE, Behavior.SHARED);
    }

    /** include/linux/pagemap.h: {@code wait_on_page_locked()}. */
    public static void waitOnPageLocked(Page page) {
        if (PageFlags.PageLocked(page)) {
            waitOnPageBit(page, PG_locked);
        }
    }

    /** include/linux/pagemap.h: {@code wait_on_page_locked_killable()}: 0, or {@code -EINTR}. */
    public static int waitOnPageLockedKillable(Page page) {
        if (!PageFlags.PageLocked(page)) {
            return 0;
        }
        return waitOnPageBitKillable(page, PG_locked);
    }

    /**
     * mm/filemap.c: {@code put_and_wait_on_page_locked()} (v5.10, uninterruptible): drop the
     * caller's reference and wait for the page to be unlocked; the caller must not touch the
     * page afterwards.
     */
    public static void putAndWaitOnPageLocked(Page page) {
        WaitQueueHead q = pageWaitqueue(page);
        waitOnPageBitCommon(q, page, PG_locked, Task.TASK_UNINTERRUPTIBLE, Behavior.DROP);
    }

    /** mm/filemap.c: {@code add_page_wait_queue()}: queue an arbitrary waiter and set PG_waiters. */
    public static void addPageWaitQueue(Page page, WaitQueueEntry waiter) {
        WaitQueueHead q = pageWaitqueue(page);
        long flags = Spinlock.spinLockIrqsave(q.lock);
        Wait.__addWaitQueueEntryTail(q, waiter);
        PageFlags.SetPageWaiters(page);
        Spinlock.spinUnlockIrqrestore(q.lock, flags);
    }

    // ------------------------------------------------------------------ async waits (IOCB_WAITQ)

    /**
     * mm/filemap.c: {@code __wait_on_page_locked_async()} (v5.9/v5.10). Under {@code q->lock}:
     * queue the caller's entry (non-exclusive, its own wake function) <em>first</em>, set
     * PG_waiters, and only then re-check: take the lock ({@code set}) or test it. Done: remove
     * the entry again (still under the lock, so the callback cannot fire) and return 0.
     * Otherwise return {@code -EIOCBQUEUED} with the callback armed. Bug
     * {@code async-wait-check-before-add} tests first, as v1 did.
     */
    public static int __waitOnPageLockedAsync(Page page, WaitPageQueue wait, boolean set) {
        WaitQueueHead q = pageWaitqueue(page);
        int ret;

        wait.wait.touch();
        wait.page = page;
        wait.gen = page.gen();
        wait.bitNr = PG_locked;

        Spinlock.spinLockIrq(q.lock);
        if (Kernel.bug(FilemapBugs.ASYNC_WAIT_CHECK_BEFORE_ADD)) {
            /* v1: the test comes before the entry is queued and PG_waiters advertised. */
            ret = set ? (trylockPage(page) ? 0 : 1) : (PageFlags.PageLocked(page) ? 1 : 0);
            if (ret != 0) {
                Wait.__addWaitQueueEntryTail(q, wait.wait);
                PageFlags.SetPageWaiters(page);
                ret = -Errno.EIOCBQUEUED;
            }
            Spinlock.spinUnlockIrq(q.lock);
            Kernel.event("__wait_on_page_locked_async(%s, set=%s) = %s (v1: tested before queueing)", page, set,
                    Errno.name(ret));
            return ret;
        }
        Wait.__addWaitQueueEntryTail(q, wait.wait);
        PageFlags.SetPageWaiters(page);
        if (set) {
            ret = trylockPage(page) ? 0 : 1;
        } else {
            ret = PageFlags.PageLocked(page) ? 1 : 0;
        }
        /*
         * If we were successful now, we know we're still on the waitqueue as we're still under
         * the lock: safe to remove and return success, the callback isn't going to trigger.
         */
        if (ret == 0) {
            Wait.__removeWaitQueue(q, wait.wait);
        } else {
            ret = -Errno.EIOCBQUEUED;
        }
        Spinlock.spinUnlockIrq(q.lock);
        Kernel.event("__wait_on_page_locked_async(%s, set=%s) = %s", page, set, Errno.name(ret));
        return ret;
    }

    /** mm/filemap.c: {@code wait_on_page_locked_async()}: 0 if unlocked, else arm the callback ({@code -EIOCBQUEUED}). */
    public static int waitOnPageLockedAsync(Page page, WaitPageQueue wait) {
        if (!PageFlags.PageLocked(page)) {
            return 0;
        }
        return __waitOnPageLockedAsync(page, wait, false);
    }

    /**
     * mm/filemap.c: {@code __lock_page_async()}: trylock under {@code q->lock} with the callback
     * queued. Bug {@code async-lock-not-trylock}: v1's
     * {@code return wait_on_page_locked_async(page, wait)}, 0 for a merely unlocked page.
     */
    public static int __lockPageAsync(Page page, WaitPageQueue wait) {
        if (Kernel.bug(FilemapBugs.ASYNC_LOCK_NOT_TRYLOCK)) {
            return waitOnPageLockedAsync(page, wait);
        }
        return __waitOnPageLockedAsync(page, wait, true);
    }

    /**
     * include/linux/pagemap.h: {@code lock_page_async()}: 0 when this task now owns PG_locked,
     * or {@code -EIOCBQUEUED} with the callback armed.
     */
    public static int lockPageAsync(Page page, WaitPageQueue wait) {
        if (!trylockPage(page)) {
            return __lockPageAsync(page, wait);
        }
        return 0;
    }
}
