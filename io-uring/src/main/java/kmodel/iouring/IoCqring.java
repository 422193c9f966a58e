package kmodel.iouring;

import kmodel.kernel.sched.Work;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.atomic.Barriers;
import kmodel.kernel.locking.Spinlock;
import kmodel.kernel.wait.Wait;

/**
 * fs/io_uring.c (v5.10): the completion side: filling CQEs under {@code ctx->completion_lock},
 * publishing the CQ tail, waking CQ waiters, and the overflow backlog
 * ({@code cq_overflow_list}, {@code IORING_SQ_CQ_OVERFLOW}) for CQEs that did not fit because the
 * application had not reaped.
 *
 * <p>Every CQE filled, or dropped, is recorded in {@link IoRingCtx#cqeLog} (model-only), so the
 * scenarios can check that each SQE got exactly one.
 */
public final class IoCqring {
    private IoCqring() {
    }

    /**
     * fs/io_uring.c: {@code io_get_cqring()}: the next free CQE, or null when the ring is full
     * ({@code cached_cq_tail - READ_ONCE(cq.head) == cq_ring_entries}). Caller holds
     * {@code completion_lock}.
     */
    static IoUringCqe ioGetCqring(IoRingCtx ctx) {
        int tail = ctx.cachedCqTail.get();
        if (tail - ctx.cqHead.readOnce() == ctx.cqEntries) {
            return null;
        }
        Kernel.access(ctx.cqState);
        ctx.cachedCqTail.set(tail + 1);
        return ctx.cqes[tail & ctx.cqMask()];
    }

    private static void log(IoRingCtx ctx, long userData, long res, String how) {
        ctx.cqeLog.add(new long[] {userData, res});
        ctx.nrCqes++;
        Kernel.event("CQE %s %s: res %s", how, userData, Errno.name(res));
    }

    /**
     * fs/io_uring.c: {@code __io_cqring_fill_event()} (v5.10): write the CQE; if the ring is full,
     * drop it when the ring is going away ({@code cq_overflow_flushed}; the task's
     * {@code in_idle} is not modelled), else keep the request (with one more reference) on the
     * overflow list and flag {@code IORING_SQ_CQ_OVERFLOW}. Caller holds {@code completion_lock}.
     */
    static void ioCqringFillEvent(IoKiocb req, long res) {
        IoRingCtx ctx = req.ctx;
        Spinlock.lockdepAssertHeld(ctx.completionLock);
        req.touch();
        Kernel.rt().work(Work.URING_ENTRY, 1);
        IoUringCqe cqe = ioGetCqring(ctx);
        if (cqe != null) {
            cqe.userData = req.userData;
            cqe.res = (int) res;
            cqe.flags = 0;
            log(ctx, req.userData, res, "posted");
        } else if (ctx.cqOverflowFlushed) {
            ctx.cachedCqOverflow++;
            log(ctx, req.userData, res, "dropped (ring going away)");
        } else {
            Kernel.access(ctx.cqState);
            if (ctx.cqOverflowList.isEmpty()) {
                ctx.cqCheckOverflow = true;
                ctx.sqFlags |= IoRingCtx.IORING_SQ_CQ_OVERFLOW;
            }
            req.result = res;
            req.refs.inc();
            Kernel.access(ctx.cqState); // the reference was a scheduling point
            ctx.cqOverflowList.add(req);
            Kernel.event("CQ ring full: %s on cq_overflow_list", req.name());
        }
    }

    /**
     * fs/io_uring.c: {@code io_commit_cqring()} / {@code __io_commit_cqring()}: publish
     * {@code cached_cq_tail} ({@code smp_store_release(&rings->cq.tail)}); no timeouts or
     * deferred requests in the model; the poll queue {@code cq_wait} is not modelled. Caller
     * holds {@code completion_lock}.
     */
    static void ioCommitCqring(IoRingCtx ctx) {
        ctx.cqTail.storeRelease(ctx.cachedCqTail.get());
    }

    /**
     * fs/io_uring.c: {@code io_cqring_ev_posted()} (v5.10): wake the CQ waiters if there are any
     * (no eventfd, no SQPOLL). The poll queue {@code cq_wait} is not modelled, but its
     * {@code wq_has_sleeper(&ctx->cq_wait)} is what orders the CQ tail just published before the
     * lockless {@code waitqueue_active(&ctx->wait)} below: its {@code smp_mb()} stays, pairing with
     * {@code set_current_state()} in {@code io_cqring_wait()}'s
     * {@code prepare_to_wait_exclusive()}. Bug {@code cq-ev-posted-no-mb} leaves it out: the shape
     * c57a91fb1ccf ("io_uring: fix missing mb() before waitqueue_active", v5.15-rc1) fixed in
     * {@code io_cqring_ev_posted_iopoll()}.
     */
    static void ioCqringEvPosted(IoRingCtx ctx) {
        if (!Kernel.bug(IoUringBugs.CQ_EV_POSTED_NO_MB)) {
            Barriers.smpMb("io_cqring_ev_posted"); // wq_has_sleeper(&ctx->cq_wait)
        } else {
            Kernel.event("io_cqring_ev_posted(%s): no smp_mb() before waitqueue_active() (bug)", ctx);
        }
        if (Wait.waitqueueActive(ctx.wait)) {
            Wait.wakeUp(ctx.wait);
        }
    }

    /** fs/io_uring.c: {@code io_cqring_add_event()}: fill and commit under the lock, then wake. */
    static void ioCqringAddEvent(IoKiocb req, long res) {
        IoRingCtx ctx = req.ctx;
        long flags = Spinlock.spinLockIrqsave(ctx.completionLock);
        ioCqringFillEvent(req, res);
        ioCommitCqring(ctx);
        Spinlock.spinUnlockIrqrestore(ctx.completionLock, flags);
        ioCqringEvPosted(ctx);
    }

    /**
     * fs/io_uring.c: {@code io_req_complete()} / {@code __io_req_complete(req, res, 0, NULL)}: post
     * the CQE and drop the completion reference.
     */
    static void ioReqComplete(IoKiocb req, long res) {
        ioCqringAddEvent(req, res);
        IoUring.ioPutReq(req);
    }

    /**
     * fs/io_uring.c: {@code io_cqring_overflow_flush()} (v5.10): move backlogged CQEs into the
     * ring while there is room (with {@code force}, drop those that do not fit), optionally only
     * those of task {@code tsk}; clear the overflow flags once the list is empty; wake waiters;
     * drop the references the backlog held. Returns true if no backlog is left. In v5.10.0
     * ({@link IoUringOptions#URING_FORCE_FLUSH_DROPS}) a forced flush also sets
     * {@code cq_overflow_flushed}, whoever calls it (cda286f0715c, 5.10.4, moved that to
     * {@code io_ring_ctx_wait_and_kill()}).
     */
    static boolean ioCqringOverflowFlush(IoRingCtx ctx, boolean force, kmodel.kernel.sched.Task tsk) {
        if (!force) {
            /* list_empty_careful(&ctx->cq_overflow_list): what completion_lock guards, read without it */
            Kernel.rt().pointRead("list_empty_careful(cq_overflow_list)", ctx.completionLock);
            Kernel.accessRead(ctx.cqState);
            if (ctx.cqOverflowList.isEmpty()) {
                return true;
            }
            if (ctx.cachedCqTail.racy() - ctx.cqHead.readOnce() == ctx.cqEntries) {
                return false;
            }
        }
        long flags = Spinlock.spinLockIrqsave(ctx.completionLock);
        if (force && Kernel.config().enabled(IoUringOptions.URING_FORCE_FLUSH_DROPS)) {
            /* v5.10.0-5.10.3: if force is set, the ring is going away. always drop after that */
            ctx.cqOverflowFlushed = true;
        }
        java.util.ArrayList<IoKiocb> done = new java.util.ArrayList<>();
        IoUringCqe cqe = null;
        for (int i = 0; i < ctx.cqOverflowList.size();) {
            IoKiocb req = ctx.cqOverflowList.get(i);
            if (tsk != null && req.task != tsk) {
                i++;
                continue;
            }
            cqe = ioGetCqring(ctx);
            if (cqe == null && !force) {
                break;
            }
            Kernel.access(ctx.cqState);
            ctx.cqOverflowList.remove(i);
            done.add(req);
            if (cqe != null) {
                cqe.userData = req.userData;
                cqe.res = (int) req.result;
                cqe.flags = 0;
                log(ctx, req.userData, req.result, "posted from cq_overflow_list");
            } else {
                ctx.cachedCqOverflow++;
                log(ctx, req.userData, req.result, "dropped from cq_overflow_list");
            }
        }
        ioCommitCqring(ctx);
        /* io_cqring_mark_overflow() */
        Kernel.access(ctx.cqState);
        if (ctx.cqOverflowList.isEmpty()) {
            ctx.cqCheckOverflow = false;
            ctx.sqFlags &= ~IoRingCtx.IORING_SQ_CQ_OVERFLOW;
        }
        Spinlock.spinUnlockIrqrestore(ctx.completionLock, flags);
        ioCqringEvPosted(ctx);
        for (int i = 0; i < done.size(); i++) {
            IoUring.ioPutReq(done.get(i));
        }
        return cqe != null;
    }

    /**
     * fs/io_uring.c: {@code io_cqring_events()} (v5.10): CQEs the application has not reaped,
     * {@code cached_cq_tail - READ_ONCE(rings->cq.head)}, read without {@code completion_lock}
     * (a scheduling point of its own); with a backlog, flush it first, or from a wake function
     * ({@code noflush}) report "enough" ({@code -1U}) so the waiter wakes and flushes.
     */
    static int ioCqringEvents(IoRingCtx ctx, boolean noflush) {
        /* cached_cq_tail and the overflow bit are completion_lock's; read without it */
        Kernel.rt().pointRead("io_cqring_events", ctx.completionLock);
        Kernel.accessRead(ctx.cqState);
        if (ctx.cqCheckOverflow) {
            if (noflush) {
                return -1;
            }
            ioCqringOverflowFlush(ctx, false, null);
            Kernel.accessRead(ctx.cqState); // the flush had scheduling points
        }
        /* See comment at the top of this file */
        Barriers.smpRmb("io_cqring_events");
        return ctx.cachedCqTail.racy() - ctx.cqHead.readOnce();
    }
}
