package kmodel.iouring;

import java.util.ArrayList;
import kmodel.kernel.atomic.Plain;
import kmodel.kernel.atomic.Shared;
import kmodel.kernel.lifetime.KObject;
import kmodel.kernel.locking.Mutex;
import kmodel.kernel.locking.Spinlock;
import kmodel.kernel.sched.Completion;
import kmodel.kernel.sched.Task;
import kmodel.kernel.wait.WaitQueueHead;

/**
 * fs/io_uring.c (v5.10): {@code struct io_ring_ctx} with its {@code struct io_rings}: one ring
 * (no SQPOLL, no IOPOLL, no fixed files or buffers, no links, timeouts or drains).
 *
 * <h2>Locks</h2>
 * <pre>
 *   ctx-&gt;uring_lock              (io_uring_enter: io_submit_sqes; io_req_task_submit; io_ring_ctx_wait_and_kill)
 *     ctx-&gt;completion_lock       (io_cqring_add_event, __io_req_task_cancel, io_cqring_overflow_flush)
 *       ctx-&gt;wait.lock           (io_cqring_ev_posted: wake_up)
 *   q-&gt;lock (a page's wait queue) (io_async_buf_func, called by the page's wake-up walk)
 *     p-&gt;pi_lock                 (task_work_add, wake_up_process)
 * </pre>
 * {@code cached_cq_tail}, the CQE array, the overflow list and {@code sq_flags} are protected by
 * {@code completion_lock}; {@code io_cqring_events()} reads {@code cached_cq_tail} and the
 * application's {@code cq.head} without it (a scheduling point of its own). The SQ side
 * ({@code cached_sq_head}) is the submitter's under {@code uring_lock}. The CQ tail and head the
 * application sees are {@code smp_store_release}/{@code READ_ONCE} words ({@link Shared}).
 *
 * <h2>Lifetime</h2>
 * A tracked object, freed by {@code io_ring_ctx_free()} once {@code refs} reached zero after
 * {@code io_ring_ctx_wait_and_kill()} killed it: {@code ref_comp} wakes the exit work, which
 * frees it. Every live request holds a reference, and so does every queued
 * {@code io_req_task_submit} / {@code io_req_task_cancel} task_work (6d816e088c35); an access
 * after the free is a {@code use-after-free}.
 *
 * <h2>Counters (model-only)</h2>
 * For the seed 002 comparison: SQEs consumed, CQEs posted, punts to io-wq, task_work retries,
 * {@code -EIOCBQUEUED} arms; and every CQE posted, in order ({@link #cqeLog}), including those
 * dropped on overflow, for the one-CQE-per-SQE check.
 */
public final class IoRingCtx extends KObject {
    /** {@code IORING_SQ_CQ_OVERFLOW}: {@code sq_flags} bit: the CQ ring overflowed. */
    public static final int IORING_SQ_CQ_OVERFLOW = 1 << 1;
    /** {@code IORING_ENTER_GETEVENTS}. */
    public static final int IORING_ENTER_GETEVENTS = 1 << 0;

    /** {@code sq_entries} (a power of two). */
    public final int sqEntries;
    /** {@code cq_entries}: twice the SQ's. */
    public final int cqEntries;
    /** The SQE array ({@code sq_sqes}; the model's {@code sq_array} is the identity). */
    final IoUringSqe[] sqes;
    /** {@code rings->sq.tail}: written by the application ({@code smp_store_release}). */
    public final Shared<Integer> sqTail;
    /** {@code cached_sq_head}: the submitter's, under {@code uring_lock}. */
    int cachedSqHead;
    /** {@code rings->sq.head}: published by {@code io_commit_sqring()}. */
    public final Shared<Integer> sqHead;
    /** {@code rings->cqes}. */
    final IoUringCqe[] cqes;
    /**
     * {@code cached_cq_tail}: written under {@code completion_lock} ({@code io_get_cqring()}), a
     * kernel-plain field ({@link Plain}); read without the lock, plainly, by
     * {@code io_cqring_events()} (after its {@code smp_rmb()}) and by
     * {@code io_cqring_overflow_flush()}'s early test: those reads are {@link Plain#racy()}.
     */
    final Plain<Integer> cachedCqTail;
    /**
     * Names {@link #cachedCqTail}, {@link #cqCheckOverflow} and {@link #cqOverflowList} for the
     * partial-order reduction: they are written under {@code completion_lock}, in steps that need
     * not be the one that took it, and read without it ({@code io_cqring_events()},
     * {@code io_submit_sqes()}, {@code io_cqring_overflow_flush()}); every such write and
     * lockless read reports it (the footprint audit found {@code cached_cq_tail} unordered).
     */
    final kmodel.kernel.sched.Footprinted cqState = new kmodel.kernel.sched.Footprinted() { };
    /** {@code rings->cq.tail}: published by {@code __io_commit_cqring()}. */
    public final Shared<Integer> cqTail;
    /** {@code rings->cq.head}: written by the application as it reaps. */
    public final Shared<Integer> cqHead;
    /** {@code cq_overflow_list}: requests whose CQE did not fit; under {@code completion_lock}. */
    final ArrayList<IoKiocb> cqOverflowList = new ArrayList<>();
    /** {@code cq_check_overflow} / {@code sq_check_overflow} (bit 0): the overflow list is not empty. */
    boolean cqCheckOverflow;
    /** {@code rings->sq_flags}: {@code IORING_SQ_CQ_OVERFLOW}; under {@code completion_lock}. */
    int sqFlags;
    /** {@code cq_overflow_flushed}: the ring is going away, drop what does not fit. */
    boolean cqOverflowFlushed;
    /** {@code cached_cq_overflow} / {@code rings->cq_overflow}: CQEs dropped. */
    int cachedCqOverflow;

    /** {@code uring_lock}. */
    public final Mutex uringLock;
    /** {@code completion_lock}. */
    public final Spinlock completionLock;
    /** {@code wait}: where {@code io_cqring_wait()} sleeps ({@code cq_wait} is the poll queue, not modelled). */
    public final WaitQueueHead wait;
    /** {@code refs}. */
    public final PercpuRef refs;
    /** {@code ref_comp}: completed by {@code io_ring_ctx_ref_free()}. */
    public final Completion refComp;
    /** {@code io_wq}. */
    IoWq ioWq;
    /** {@code sqo_task}: the task that created the ring. */
    public final Task sqoTask;
    /** The task running {@code io_ring_exit_work()} once the ring is closed, or null (model-only). */
    Task exitWork;
    /** The ring file was released ({@code io_uring_release()}); model-only. */
    boolean released;

    /** Every CQE filled, dropped ones included, in order: {@code {user_data, res}} (model-only). */
    public final ArrayList<long[]> cqeLog = new ArrayList<>();
    /** SQEs consumed by {@code io_submit_sqes()}. */
    public int nrSqes;
    /** CQEs filled (posted or dropped). */
    public int nrCqes;
    /** Requests punted to io-wq ({@code io_queue_async_work()}). */
    public int nrPunts;
    /** task_work retries ({@code io_req_task_submit()} runs). */
    public int nrTaskWorkRetries;
    /** {@code -EIOCBQUEUED} arms (reads that left a page-unlock callback armed). */
    public int nrEiocbqueued;
    /** Cancellations run for exiting tasks ({@code io_req_task_cancel()}). */
    public int nrCancels;
    /** Requests allocated, for names ("ring0.r3"). */
    int nrReqs;

    IoRingCtx(String name, int entries, Task creator) {
        super("io_ring_ctx", name);
        int sq = 1;
        while (sq < entries) {
            sq <<= 1;
        }
        this.sqEntries = sq;
        this.cqEntries = 2 * sq;
        this.sqes = new IoUringSqe[sq];
        for (int i = 0; i < sq; i++) {
            sqes[i] = new IoUringSqe();
        }
        this.cqes = new IoUringCqe[cqEntries];
        for (int i = 0; i < cqEntries; i++) {
            cqes[i] = new IoUringCqe();
        }
        this.sqTail = new Shared<>(name + ".sq.tail", 0);
        this.sqHead = new Shared<>(name + ".sq.head", 0);
        this.cqTail = new Shared<>(name + ".cq.tail", 0);
        this.cachedCqTail = new Plain<>(name + ".cached_cq_tail", 0);
        this.cqHead = new Shared<>(name + ".cq.head", 0);
        this.uringLock = new Mutex(name + ".uring_lock");
        this.completionLock = new Spinlock(name + ".completion_lock");
        this.wait = new WaitQueueHead(name + ".wait");
        this.refComp = new Completion(name + ".ref_comp");
        this.refs = new PercpuRef(name + ".refs", r -> IoUring.ioRingCtxRefFree(this));
        this.sqoTask = creator;
    }

    /** {@code sq_mask}. */
    int sqMask() {
        return sqEntries - 1;
    }

    /** {@code cq_mask}. */
    int cqMask() {
        return cqEntries - 1;
    }

    /** The io-wq of the ring (checks and tests). */
    public IoWq ioWq() {
        return ioWq;
    }

    /** Whether the ring file was released ({@code io_uring_release()} ran). */
    public boolean fileReleased() {
        return released;
    }

    /** The task running the exit work, or null. */
    public Task exitWork() {
        return exitWork;
    }

    /** Frees the context ({@code kfree(ctx)} in {@code io_ring_ctx_free()}). */
    void free() {
        released();
    }

    @Override
    public int refs() {
        return (int) refs.peek();
    }
}
