package kmodel.iouring;

import kmodel.mm.IovIter;
import kmodel.mm.WaitPageQueue;

/**
 * fs/io_uring.c (v5.10): {@code struct io_async_rw}, a read's state that outlives one issue
 * attempt ({@code req->async_data}, {@code kmalloc}ed by {@code io_setup_async_rw()}, freed by
 * {@code io_dismantle_req()}): the persistent iterator, the bytes done by earlier attempts
 * ("io_uring: internally retry short reads", 227c0c9673d8) and the page-unlock wait entry.
 *
 * <p>Lifetime: {@link #wpq}'s entry is a tracked object; freeing the async data frees it, so a
 * page waker that still finds it queued afterwards touches freed memory ({@code use-after-free}).
 *
 * <p>Field rules: {@code iter} and {@code bytesDone} belong to whoever issues the request
 * (one at a time: submitter, task_work, io-wq worker); {@code wpq} is owned by the page wait
 * queue's lock while queued.
 */
public final class IoAsyncRw {
    /** {@code iter}: where the next attempt copies to (a copy of the issue-time iterator). */
    public final IovIter iter;
    /** {@code bytes_done}: bytes earlier attempts read. */
    public long bytesDone;
    /** {@code wpq}: the {@code wait_page_queue} armed by {@code io_rw_should_retry()}. */
    public final WaitPageQueue wpq;

    IoAsyncRw(IovIter from, String name) {
        IovIter copy = new IovIter(from.buf);
        copy.iovOffset = from.iovOffset;
        copy.count = from.count;
        this.iter = copy;
        this.wpq = new WaitPageQueue(name + ".wpq");
    }
}
