package kmodel.iouring;

/**
 * Catalog bugs of io-uring: historical mistakes and mutations of fs/io_uring.c and fs/io-wq.c
 * (v5.10), switched back in with {@code Kconfig.withBug(id)} (CLI: {@code --bug ID}) and read by
 * the model with {@code Kernel.bug(id)}. Each one has a test that shows the checker finding it, with the
 * violation kind named below.
 */
public final class IoUringBugs {
    private IoUringBugs() {
    }

    /**
     * {@code io_async_buf_func()} without its {@code refcount_inc(&req->refs)} ("submit ref gets
     * dropped, acquire a new one", present from the merged 5.9 form): the submission reference
     * was dropped by {@code __io_queue_sqe()} when the read returned {@code -EIOCBQUEUED}, so the
     * task_work retry completes the request (dropping the completion reference: freed) and then
     * drops the submission reference of its own {@code __io_queue_sqe()} once more. Manifests as
     * {@code double-release} (or {@code use-after-free}, whichever touch comes first).
     */
    public static final String URING_NO_REQ_REF = "uring-no-req-ref";

    /**
     * Undoes 6d816e088c35 ("io_uring: hold 'ctx' reference around task_work queue + execute",
     * v5.9-rc): {@code io_async_buf_func()} queues the task_work without
     * {@code percpu_ref_get(&ctx->refs)} and {@code io_req_task_submit()} /
     * {@code io_req_task_cancel()} drop none. When the ring was closed meanwhile, the request's
     * completion drops the last context reference inside the task_work, the exit work frees the
     * context, and the task_work's {@code mutex_unlock(&ctx->uring_lock)} touches it. Manifests
     * as {@code use-after-free}.
     */
    public static final String URING_NO_CTX_REF = "uring-no-ctx-ref";

    /**
     * A mutation of {@code io_req_task_cancel()} (v5.10): the cancellation that the io-wq manager
     * runs for an exiting task's request does not {@code percpu_ref_put(&ctx->refs)} the
     * reference {@code io_async_buf_func()} took. {@code ctx->refs} never reaches zero,
     * {@code ref_comp} is never completed and {@code io_ring_exit_work()} waits for ever: the ring
     * is never freed. Manifests as {@code missed-wakeup} (the exit work asleep on
     * {@code ref_comp}).
     */
    public static final String URING_CANCEL_LEAKS_CTX_REF = "uring-cancel-leaks-ctx-ref";

    /**
     * Undoes c4068bf898dd ("io-wq: fix use-after-free in io_wq_worker_running", v5.10-rc1, for
     * v5.5+): fs/io-wq.c's {@code wq->refs} counts nodes with workers again, as in v5.9. The
     * worker that leaves its node without workers drops the node's reference, even while the
     * manager is still inside {@code create_io_worker()}; {@code io_wq_destroy()} then finds
     * {@code wq->done} completed and frees the io_wq under the new worker, which drops
     * {@code refs} once more when it exits (syzbot's use-after-free in
     * {@code io_wq_worker_running()}). Manifests as {@code double-release} of {@code refs}.
     */
    public static final String IOWQ_REFS_PER_NODE = "iowq-refs-per-node";

    /**
     * A barrier bug (found only under a weak memory model, not under sequential consistency):
     * {@code io_cqring_ev_posted()} (v5.10) without the {@code smp_mb()} that its
     * {@code wq_has_sleeper(&ctx->cq_wait)} puts between publishing the CQ tail
     * ({@code io_commit_cqring()}) and the lockless {@code waitqueue_active(&ctx->wait)}. A CQ
     * waiter in {@code io_cqring_wait()} queues itself and runs {@code set_current_state()} (a
     * full barrier) before it counts the CQEs; without the waker's barrier both can miss the
     * other (store buffering) and the waiter sleeps with its CQE posted. The bug c57a91fb1ccf
     * ("io_uring: fix missing mb() before waitqueue_active", Pavel Begunkov, v5.15-rc1; Fixes:
     * 5fd4617840596 "io_uring: be smarter about waking multiple CQ ring waiters") fixed in
     * {@code io_cqring_ev_posted_iopoll()}, where {@code wq_has_sleeper()} was called only for
     * SQPOLL; here it is moved to the non-IOPOLL waker the model has. Manifests as
     * {@code missed-wakeup} under the LKMM.
     */
    public static final String CQ_EV_POSTED_NO_MB = "cq-ev-posted-no-mb";

    /** Every bug id of this module. */
    public static String[] all() {
        return new String[] {URING_NO_REQ_REF, URING_NO_CTX_REF, URING_CANCEL_LEAKS_CTX_REF, IOWQ_REFS_PER_NODE,
            CQ_EV_POSTED_NO_MB};
    }
}
