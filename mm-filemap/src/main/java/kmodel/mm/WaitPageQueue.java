package kmodel.mm;

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
     * spuriously ({@link Filemap#spuriousIfReused}).
     */
    public int gen;
    /** {@code wait}: the queue entry. */
    public final WaitQueueEntry wait;

    public WaitPageQueue(String name) {
        this.wait = new WaitQueueEntry(name);
        this.wait.setOwnerObject(this);
    }
}
