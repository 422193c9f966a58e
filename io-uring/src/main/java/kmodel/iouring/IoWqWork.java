package kmodel.iouring;

/**
 * fs/io-wq.h (v5.10): {@code struct io_wq_work}, the part of a request that io-wq queues and
 * runs: embedded in {@code struct io_kiocb} as {@code req->work}; {@link #owner} stands for
 * {@code container_of()}.
 *
 * <p>Field rules: {@code next} (the {@code io_wq_work_node}) is protected by the queue's
 * {@code wqe->lock} while the work is queued; {@code flags} is written by the submitter before
 * {@code io_wq_enqueue()} and then by the worker that runs it (or the canceller that took it off
 * the list), one at a time.
 *
 * <p>Not modelled: the identity the work carries for the worker ({@code creds}, {@code mm},
 * {@code files}, {@code fs}, {@code fsize}: io-wq's impersonation), and hashed work
 * ({@code IO_WQ_WORK_HASHED}: io_uring hashes only writes to regular files).
 */
public final class IoWqWork {
    /** {@code IO_WQ_WORK_CANCEL}: run it only to cancel it. */
    public static final int IO_WQ_WORK_CANCEL = 1;
    /** {@code IO_WQ_WORK_HASHED}: serialised with work of the same hash (not modelled). */
    public static final int IO_WQ_WORK_HASHED = 2;
    /** {@code IO_WQ_WORK_UNBOUND}: may block for an unbounded time (run by an unbound worker). */
    public static final int IO_WQ_WORK_UNBOUND = 4;
    /** {@code IO_WQ_WORK_NO_CANCEL}: a running work that must not be signalled. */
    public static final int IO_WQ_WORK_NO_CANCEL = 8;
    /** {@code IO_WQ_WORK_CONCURRENT}: wake a worker even if one is running. */
    public static final int IO_WQ_WORK_CONCURRENT = 16;

    /** {@code list}: the next work on {@code wqe->work_list}; protected by {@code wqe->lock}. */
    IoWqWork next;
    /** {@code flags}: {@code IO_WQ_WORK_*}. */
    public int flags;
    /** The structure the work is embedded in ({@code container_of(work, struct io_kiocb, work)}). */
    public final Object owner;

    public IoWqWork(Object owner) {
        this.owner = owner;
    }

    @Override
    public String toString() {
        return owner + ".work";
    }
}
