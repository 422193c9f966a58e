package kmodel.iouring;

import java.util.ArrayList;
import java.util.List;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;

/**
 * The application's side of one ring, as liburing (src/queue.c, src/include/liburing.h) does
 * it: not kernel code, but the user-space half of the SQ/CQ protocol the kernel relies on. Fill
 * SQEs at the application's SQ tail and publish it with {@code smp_store_release}; submit with
 * {@code io_uring_enter()}; reap CQEs between the head the application owns and the tail the
 * kernel publishes ({@code smp_load_acquire}), and give them back by moving the head
 * ({@code io_uring_cqe_seen()}).
 *
 * <p>Owned by one task (the submitter), like a liburing {@code struct io_uring}.
 */
public final class Liburing {
    /** The ring ({@code ring->ring_fd}). */
    public final IoRingCtx ctx;
    /** {@code sq->sqe_tail}: SQEs filled, not yet published. */
    private int sqeTail;
    /** {@code sq->sqe_head}: SQEs published. */
    private int sqeHead;
    /** Every CQE this application reaped, in order. */
    public final List<IoUringCqe> reaped = new ArrayList<>();

    public Liburing(IoRingCtx ctx) {
        this.ctx = ctx;
    }

    /** liburing: {@code io_uring_queue_init(entries, ring, 0)}: a ring set up by the calling task. */
    public static Liburing queueInit(String name, int entries) {
        return new Liburing(IoUring.ioUringSetup(name, entries));
    }

    /** liburing: {@code io_uring_get_sqe()}: the next free SQE, or null if the SQ ring is full. */
    public IoUringSqe getSqe() {
        int head = ctx.sqHead.loadAcquire();
        if (sqeTail - head >= ctx.sqEntries) {
            return null;
        }
        return ctx.sqes[sqeTail++ & ctx.sqMask()];
    }

    /** {@code io_uring_get_sqe()} + {@code io_uring_prep_read()}: a read of {@code buf.length} bytes at {@code off}. */
    public IoUringSqe prepRead(IoFd fd, byte[] buf, long off, long userData) {
        return getSqe().prepRead(IoUringSqe.IORING_OP_READ, fd, buf, off, userData);
    }

    /**
     * liburing: {@code io_uring_submit_and_wait(ring, waitNr)}: publish the filled SQEs and enter
     * the kernel to submit them, waiting for {@code waitNr} CQEs ({@code IORING_ENTER_GETEVENTS})
     * if non-zero. Returns what {@code io_uring_enter()} returned.
     */
    public long submitAndWait(int waitNr) {
        int toSubmit = sqeTail - sqeHead;
        sqeHead = sqeTail;
        ctx.sqTail.storeRelease(sqeTail);
        return IoUring.ioUringEnter(ctx, toSubmit, waitNr, waitNr > 0 ? IoRingCtx.IORING_ENTER_GETEVENTS : 0);
    }

    /** liburing: {@code io_uring_peek_cqe()} + {@code io_uring_cqe_seen()}: reap one CQE if there is one (a copy), else null. */
    public IoUringCqe peekCqe() {
        int head = ctx.cqHead.plain();
        int tail = ctx.cqTail.loadAcquire();
        if (head == tail) {
            return null;
        }
        IoUringCqe c = ctx.cqes[head & ctx.cqMask()];
        IoUringCqe copy = new IoUringCqe();
        copy.userData = c.userData;
        copy.res = c.res;
        copy.flags = c.flags;
        ctx.cqHead.storeRelease(head + 1);
        reaped.add(copy);
        return copy;
    }

    /**
     * liburing: {@code io_uring_wait_cqe_nr()}-style loop: reap CQEs until {@code nr} were reaped
     * by this call, entering the kernel ({@code io_uring_enter(0, 1, GETEVENTS)}) whenever none
     * is ready. Returns early with the enter's error (e.g. {@code -EINTR}).
     *
     * <p>The enter returns at once, without sleeping, while a CQE is filled ({@code
     * cached_cq_tail}, which {@code io_cqring_events()} counts) but not yet committed to the
     * tail this loop reads; then the loop polls. A round that neither slept nor ran task_work
     * and found no CQE changed nothing, so the next one starts at {@link Sched#spinYield}: the
     * explorer's fairness rule, so that the task filling the CQE is run rather than the poll
     * forever (in a kernel it runs on its own CPU, under {@code completion_lock} with
     * interrupts off).
     */
    public long waitCqes(int nr) {
        Task me = Sched.current();
        int got = 0;
        boolean fruitless = false;
        while (got < nr) {
            if (peekCqe() != null) {
                got++;
                fruitless = false;
                continue;
            }
            if (fruitless) {
                Sched.spinYield("io_uring_wait_cqe: polling (the last round found nothing)");
            }
            long slept = me.nvcsw();
            long ran = me.taskWorkRuns();
            long ret = IoUring.ioUringEnter(ctx, 0, 1, IoRingCtx.IORING_ENTER_GETEVENTS);
            if (ret < 0) {
                return ret;
            }
            fruitless = ret == 0 && me.nvcsw() == slept && me.taskWorkRuns() == ran;
        }
        return 0;
    }

    /** {@code close(ring_fd)}: the ring file's last reference ({@code io_uring_release()}). */
    public void close() {
        IoUringExit.ioUringRelease(ctx);
    }
}
