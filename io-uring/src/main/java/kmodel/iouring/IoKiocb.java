package kmodel.iouring;

import kmodel.kernel.atomic.RefcountT;
import kmodel.kernel.lifetime.KObject;
import kmodel.kernel.sched.CallbackHead;
import kmodel.kernel.sched.Task;
import kmodel.mm.Kiocb;

/**
 * fs/io_uring.c (v5.10): {@code struct io_kiocb}, one request, from {@code io_init_req()} to
 * {@code __io_free_req()}.
 *
 * <h2>References</h2>
 * {@code refs} starts at 2 ("one is dropped after submission, the other at completion"):
 * {@code __io_queue_sqe()} drops the submission reference once the issue returned 0 (done, or
 * {@code -EIOCBQUEUED}: armed), io-wq drops it for a punted request ({@code io_free_work}), and
 * the completion ({@code io_req_complete()} / {@code __io_req_task_cancel()}'s double put) drops
 * the other. {@code io_async_buf_func()} takes one more for the task_work retry, since that
 * retry goes through {@code __io_queue_sqe()} again, which drops a submission reference again.
 * Each live request also holds one {@code ctx->refs} reference (taken in bulk by
 * {@code io_submit_sqes()}, dropped by {@code __io_free_req()}).
 *
 * <h2>Lifetime</h2>
 * A tracked object: freeing it twice is a {@code double-release}, touching it after the free a
 * {@code use-after-free}; at the end a live request is a {@code ref-leak} (its {@link #refs()}).
 *
 * <h2>Field rules</h2>
 * {@code flags}, {@code result}, {@code rw} and {@code asyncData} belong to whoever issues the
 * request (the submitter under {@code uring_lock}, the task_work retry under
 * {@code uring_lock}, an io-wq worker), one at a time: the page wait entry hands the request
 * from the armed issue to the task_work. {@code rw.kiocb.kiFlags}'s {@code IOCB_WAITQ} is also
 * cleared by the waker under the page queue's lock, while nobody issues.
 */
public final class IoKiocb extends KObject {
    /** {@code REQ_F_FORCE_ASYNC}: {@code IOSQE_ASYNC}. */
    public static final int REQ_F_FORCE_ASYNC = 1 << 4;
    /** {@code REQ_F_NOWAIT}: must not punt to workers ({@code RWF_NOWAIT} or {@code O_NONBLOCK}). */
    public static final int REQ_F_NOWAIT = 1 << 10;
    /** {@code REQ_F_ISREG}: regular file. */
    public static final int REQ_F_ISREG = 1 << 12;
    /** {@code REQ_F_NEED_CLEANUP}: the async data holds an allocated iovec to free. */
    public static final int REQ_F_NEED_CLEANUP = 1 << 13;
    /** {@code REQ_F_WORK_INITIALIZED}: {@code req->work} was prepared for io-wq. */
    public static final int REQ_F_WORK_INITIALIZED = 1 << 17;

    /** {@code ctx}. */
    public final IoRingCtx ctx;
    /** {@code opcode}. */
    public int opcode;
    /** {@code user_data}. */
    public long userData;
    /** {@code flags}: {@code REQ_F_*}. */
    public int flags;
    /** {@code refs}. */
    public final RefcountT refs;
    /** {@code task}: the submitting task (where task_work goes). */
    public Task task;
    /** {@code result}: the expected size ({@code io_read()} sets it to the import's). */
    public long result;
    /** {@code file}. */
    public IoFd file;
    /** {@code rw.kiocb}: set up by {@code io_prep_rw()}. */
    public Kiocb kiocb;
    /** {@code rw.addr} / {@code rw.len}: the user buffer. */
    public byte[] rwAddr;
    public int rwLen;
    /** {@code async_data}, or null. */
    public IoAsyncRw asyncData;
    /** {@code task_work}. */
    public final TaskWork taskWork = new TaskWork(this);
    /** {@code work}: what io-wq queues. */
    public final IoWqWork work;

    IoKiocb(IoRingCtx ctx, String name) {
        super("io_kiocb", name);
        this.ctx = ctx;
        this.refs = new RefcountT(name + ".refs", 2);
        this.work = new IoWqWork(this);
        this.taskWork.label = name + ".task_work";
    }

    /** {@code req->task_work}, from which {@code container_of()} finds the request. */
    public static final class TaskWork extends CallbackHead {
        /** The request it is embedded in. */
        public final IoKiocb req;

        TaskWork(IoKiocb req) {
            this.req = req;
        }
    }

    @Override
    public int refs() {
        return refs.peek();
    }

    /** The free at the end of {@code __io_free_req()} ({@code kmem_cache_free}). */
    void free() {
        released();
    }
}
