package kmodel.mm;

import kmodel.kernel.Kernel;
import kmodel.kernel.wait.WaitQueueEntry;

/**
 * include/linux/pagemap.h (v5.9+): {@code struct wait_page_queue}: a waiter on one bit of one
 * page, queued on the page's hashed wait queue. The sync waiters' entries live on their stack;
 * io_uring's lives in the request's heap-allocated {@code io_async_rw}.
 */
public final class WaitPageQueue {
    /** {@code page}: the page waited on. */
    public Page page;
    /** {@code bit_nr}: the bit waited on (PG_locked, PG_writeback). */
    public int bitNr;
    /**
     * Model-only: the incarnation of {@code page} waited on ({@link Page#gen()}), set with
     * {@code page}. A waiter that dropped its reference before sleeping (io_uring's, or
     * {@code put_and_wait_on_page_locked()}) may find the page freed and reused while it waits;
     * {@code wake_page_match()} compares pointers only, so the new owner's wake-up wakes it
     * spuriously ({@link #spuriousIfReused}).
     */
    public int gen;
    /** {@code wait}: the queue entry. */
    public final WaitQueueEntry wait;

    /**
     * Model-only: this waiter, woken by a wake-up meant for another incarnation of its struct
     * page (its page or the waker's was freed and reused: {@link #gen}, {@link WaitPageKey#gen}),
     * was woken spuriously. No violation, as in the kernel: every page waiter re-checks its
     * condition (the lock, PG_writeback) or, waiting for a page it holds no reference to, looks
     * the page up again. Counted in the trace. An instance method, so that a counterexample's
     * function column names the wake function that called it.
     */
    public void spuriousIfReused(WaitPageKey key) {
        if (gen != key.gen) {
            Kernel.event("spurious wake-up of %s: it waits on P%s, the wake-up is for P%s (one struct page, freed and reused)",
                    wait.name(), gen, key.gen);
        }
    }

    public WaitPageQueue(String name) {
        this.wait = new WaitQueueEntry(name);
        this.wait.setOwnerObject(this);
    }
}
