package kmodel.mm;

import kmodel.kernel.sched.Footprinted;

import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.wait.WaitQueueEntry;
import kmodel.kernel.wait.WaitQueueHead;

/**
 * mm/filemap.c (v5.10): {@code page_wait_table[PAGE_WAIT_TABLE_SIZE]}, the hashed wait queues
 * that page waiters sleep on.
 *
 * <p>From the kernel's comment: "In order to wait for pages to become available there must be
 * waitqueues associated with pages. By using a hash table of waitqueues where the bucket
 * discipline is to maintain all waiters on the same queue and wake all when any of the pages
 * become available, and for the woken contexts to check to be sure the appropriate page became
 * available, this saves space at a cost of 'thundering herd' phenomena during rare hash
 * collisions."
 *
 * <p>Size: {@link MmOptions#PAGE_WAIT_TABLE_SIZE} (kernel: {@code 1 << PAGE_WAIT_TABLE_BITS} =
 * 256); checks make it 1 or 2 so that waiters on different pages share a queue. Ownership: one
 * table per {@link PageAllocator} (see there), never a static.
 *
 * <p>Hash: the kernel uses {@code hash_ptr(page, PAGE_WAIT_TABLE_BITS)}; the model uses
 * {@code page->pfn % size}, deterministic and easy to predict in tests (with two heads, P0 and
 * P2 collide). The pfn survives page reuse, as the struct page address does.
 *
 * <p>Lock rule: each head's list is protected by its own {@code q->lock} (see
 * {@link WaitQueueHead}); the table itself is immutable.
 */
public final class PageWaitTable extends Footprinted {
    private final WaitQueueHead[] heads;

    /** mm/filemap.c: {@code pagecache_init()}: {@code init_waitqueue_head()} for each head. */
    public PageWaitTable(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("PAGE_WAIT_TABLE_SIZE must be at least 1, got " + size);
        }
        heads = new WaitQueueHead[size];
    }

    /**
     * Head {@code i}, initialised on first use: the kernel initialises all 256 at boot, but a
     * scenario touches a few, and every execution builds its world afresh. The first use is by
     * whichever task hashes there first; an untouched head is an empty queue either way.
     */
    private WaitQueueHead headAt(int i) {
        Kernel.accessRead(this); // the slot: whether a head is there decides who creates it (the footprint audit)
        WaitQueueHead q = heads[i];
        if (q == null) {
            // Whoever creates the head names it: creations must not commute (Footprinted).
            Kernel.access(this);
            q = new WaitQueueHead("page_wait_table[" + i + "]");
            heads[i] = q;
        }
        return q;
    }

    /** Number of heads. */
    public int size() {
        return heads.length;
    }

    /** Head {@code i}, for checks and reports. */
    public WaitQueueHead head(int i) {
        return headAt(i);
    }

    /** mm/filemap.c: {@code page_waitqueue()}: the head {@code page} hashes to. */
    public WaitQueueHead pageWaitqueue(Page page) {
        return headAt(page.pfn % heads.length);
    }

    /**
     * The protocol invariant of KERNEL-NOTES A.8, checked without scheduling points: on every
     * head whose lock is free, each queued {@code wait_page_queue} for a live page has
     * PG_waiters set on that page. Only {@code wake_up_page_bit()} clears PG_waiters, under
     * {@code q->lock}, and only when no entry for the page was seen; an entry left queued on a
     * page without PG_waiters is never woken by a later {@code unlock_page()}, so a failure is
     * reported as {@code missed-wakeup} (the one to come). Heads whose lock is held are skipped:
     * a waiter queues and sets PG_waiters inside one critical section.
     */
    public void checkInvariants() {
        for (WaitQueueHead q : heads) {
            if (q == null || q.lock.owner() != null) {
                continue;
            }
            for (WaitQueueEntry e : q.peekEntries()) {
                if (e.isFreed()) {
                    Kernel.fail(ViolationKind.USE_AFTER_FREE, q + " still links " + e.name()
                            + ", whose owner has returned");
                }
                Object owner = e.containerOf();
                if (!(owner instanceof WaitPageQueue)) {
                    continue;
                }
                WaitPageQueue wpq = (WaitPageQueue) owner;
                Page page = wpq.page;
                if (page == null || page.isFreed() || page.gen() != wpq.gen) {
                    /* an entry for an earlier incarnation of a reused page: see WaitPageQueue.gen */
                    continue;
                }
                if ((page.flags.peek() & (1L << PageFlags.PG_waiters)) == 0) {
                    Kernel.fail(ViolationKind.MISSED_WAKEUP, e.name() + " waits on " + q + " for " + page.describe()
                            + " but PG_waiters is clear: no unlock_page() will wake it");
                }
            }
        }
    }
}
