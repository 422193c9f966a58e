package kmodel.iouring;

import kmodel.kernel.sched.Work;
import kmodel.block.BlkPlug;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.locking.Mutex;
import kmodel.kernel.locking.Spinlock;
import kmodel.kernel.sched.CallbackHead;
import kmodel.kernel.sched.Completion;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;
import kmodel.kernel.wait.Wait;
import kmodel.kernel.wait.WaitQueueEntry;

/**
 * fs/io_uring.c (v5.10): ring set-up, {@code io_uring_enter()}, submission, issue, the task_work
 * retry and cancellation, and the completion wait. The read itself is {@link IoRw}; completions
 * are {@link IoCqring}; ring teardown and task exit are {@link IoUringExit}.
 *
 * <h2>Submission</h2>
 * <pre>
 *   io_uring_enter(to_submit, min_complete, IORING_ENTER_GETEVENTS)
 *     mutex_lock(uring_lock); io_submit_sqes()          -- plug started (io_submit_state_start)
 *       io_init_req(); io_submit_sqe() = io_queue_sqe()
 *         io_read_prep(); __io_queue_sqe()
 *           io_issue_sqe(req, force_nonblock = true)    -- a non-blocking section (Sched.nowaitEnter)
 *             io_read(): 0 / -EIOCBQUEUED -&gt; drop the submission ref
 *                        -EAGAIN           -&gt; io_queue_async_work(): punt to io-wq, where
 *                                              io_wq_submit_work() issues with force_nonblock = false
 *     mutex_unlock(uring_lock)
 *     io_cqring_wait(min_complete)                      -- sleeps on ctx-&gt;wait, runs task_work
 * </pre>
 *
 * <h2>The task_work retry</h2>
 * A read that armed a page-unlock callback ({@code -EIOCBQUEUED}) is re-issued by
 * {@link #ioReqTaskSubmit} on the submitting task, queued by {@link IoRw#ioAsyncBufFunc} with a
 * request reference and a context reference; it takes {@code uring_lock} and calls
 * {@link #__ioQueueSqe}, which is the same {@code force_nonblock} issue (without a plug: v5.10
 * starts none there). If the task is exiting, {@link #ioReqTaskCancel} runs on the io-wq
 * manager instead and completes the request with {@code -ECANCELED}.
 *
 * <h2>Simplifications</h2>
 * No SQPOLL, IOPOLL, links, drains, timeouts, fixed files or buffers, buffer selection,
 * personalities, or {@code io_arm_poll_handler()} (regular and block-device files cannot be
 * polled, so it never arms for reads). Completions inside {@code io_submit_sqes()} are posted at
 * once ({@code cs == NULL}) instead of batched in {@code state->comp} and flushed by
 * {@code io_submit_state_end()}: the same CQEs, posted a little earlier, still under
 * {@code uring_lock}.
 */
public final class IoUring {
    private IoUring() {
    }


    /** fs/io-wq.h: {@code io_wq_current_is_worker()}: {@code current->flags & PF_IO_WORKER}. */
    static boolean ioWqCurrentIsWorker() {
        return (Sched.current().flags() & Task.PF_IO_WORKER) != 0;
    }

    // ------------------------------------------------------------------ set-up

    /**
     * fs/io_uring.c: {@code io_uring_setup()} / {@code io_uring_create()} (v5.10): a ring of
     * {@code entries} SQEs (rounded up to a power of two) and twice as many CQEs, its context
     * ({@code io_ring_ctx_alloc()}) and its io-wq ({@code io_sq_offload_create()} -&gt;
     * {@code io_init_wq_offload()}: {@code io_wq_create(min(sq_entries, 4 * num_online_cpus()))}
     * with {@code do_work = io_wq_submit_work}, {@code free_work = io_free_work}; the CPUs are
     * {@link IoUringOptions#IO_URING_ONLINE_CPUS}, the unbound limit
     * {@link IoUringOptions#IO_WQ_RLIMIT_NPROC}). Runs in the creating task.
     */
    public static IoRingCtx ioUringSetup(String name, int entries) {
        IoRingCtx ctx = new IoRingCtx(name, entries, Sched.current());
        int cpus = (int) Kernel.config().value(IoUringOptions.IO_URING_ONLINE_CPUS);
        int nproc = (int) Kernel.config().value(IoUringOptions.IO_WQ_RLIMIT_NPROC);
        ctx.ioWq = IoWq.ioWqCreate(name + "-wq", Math.min(ctx.sqEntries, 4 * cpus), nproc, IoUring::ioWqSubmitWork,
                IoUring::ioFreeWork);
        Kernel.event("io_uring_setup(%s) = %s", entries, name);
        return ctx;
    }

    /** fs/io_uring.c: {@code io_ring_ctx_ref_free()}: the last {@code ctx->refs} reference: {@code complete(&ctx->ref_comp)}. */
    static void ioRingCtxRefFree(IoRingCtx ctx) {
        Completion.complete(ctx.refComp);
    }

    // ------------------------------------------------------------------ io_uring_enter

    /**
     * fs/io_uring.c: {@code io_uring_enter()} (v5.10, no SQPOLL/IOPOLL): run pending task_work,
     * take a context reference ({@code percpu_ref_tryget}: {@code -ENXIO} once it reached zero),
     * submit up to {@code toSubmit} SQEs under {@code uring_lock}, then with
     * {@code IORING_ENTER_GETEVENTS} wait for {@code minComplete} CQEs. Returns the number
     * submitted if any, else the wait's result.
     */
    public static long ioUringEnter(IoRingCtx ctx, int toSubmit, int minComplete, int flags) {
        Kernel.rt().work(Work.SYSCALL, 1);
        ioRunTaskWork();
        if (!ctx.refs.tryGet()) {
            return -Errno.ENXIO;
        }
        long ret = 0;
        int submitted = 0;
        if (toSubmit > 0) {
            Mutex.mutexLock(ctx.uringLock);
            submitted = ioSubmitSqes(ctx, toSubmit);
            Mutex.mutexUnlock(ctx.uringLock);
            if (submitted != toSubmit) {
                ctx.refs.put();
                return submitted != 0 ? submitted : ret;
            }
        }
        if ((flags & IoRingCtx.IORING_ENTER_GETEVENTS) != 0) {
            minComplete = Math.min(minComplete, ctx.cqEntries);
            ret = ioCqringWait(ctx, minComplete);
        }
        ctx.refs.put();
        Kernel.event("io_uring_enter(%s) = %s", ctx, Errno.name(submitted != 0 ? submitted : ret));
        return submitted != 0 ? submitted : ret;
    }

    // ------------------------------------------------------------------ submission

    /** fs/io_uring.c: {@code io_sqring_entries()}: {@code smp_load_acquire(&rings->sq.tail) - cached_sq_head}. */
    static int ioSqringEntries(IoRingCtx ctx) {
        return ctx.sqTail.loadAcquire() - ctx.cachedSqHead;
    }

    /**
     * fs/io_uring.c: {@code io_submit_sqes()} (v5.10), called with {@code uring_lock} held:
     * refuse with {@code -EBUSY} while an overflow backlog cannot be flushed, take one context
     * reference per SQE ({@code percpu_ref_tryget_many}), start the submission plug
     * ({@code io_submit_state_start()}), then for each SQE allocate and initialise a request and
     * queue it; return the references of SQEs not submitted, finish the plug and publish the SQ
     * head.
     */
    static int ioSubmitSqes(IoRingCtx ctx, int nr) {
        /* test_bit(0, &ctx->sq_check_overflow): a lockless read of what completion_lock guards */
        Kernel.rt().pointRead("test_bit(sq_check_overflow)", ctx.completionLock);
        Kernel.accessRead(ctx.cqState);
        if (ctx.cqCheckOverflow) {
            if (!ctx.cqOverflowList.isEmpty() && !IoCqring.ioCqringOverflowFlush(ctx, false, null)) {
                return -Errno.EBUSY;
            }
        }
        nr = Math.min(nr, Math.min(ctx.sqEntries, ioSqringEntries(ctx)));
        if (nr <= 0) {
            return 0;
        }
        if (!ctx.refs.tryGetMany(nr)) {
            return -Errno.EAGAIN;
        }
        /* io_submit_state_start() */
        BlkPlug plug = new BlkPlug();
        BlkPlug.blkStartPlug(plug);
        if (Kernel.config().enabled(IoUringOptions.IO_URING_PLUG_NOWAIT)) {
            plug.nowait = true;
        }
        int submitted = 0;
        for (int i = 0; i < nr; i++) {
            IoUringSqe sqe = ctx.sqes[ctx.cachedSqHead & ctx.sqMask()];
            Kernel.rt().work(Work.URING_ENTRY, 1);
            IoKiocb req = new IoKiocb(ctx, ctx + ".r" + ctx.nrReqs++);
            ctx.cachedSqHead++; /* io_consume_sqe() */
            submitted++;
            ctx.nrSqes++;
            int err = ioInitReq(ctx, req, sqe);
            if (err == 0) {
                err = ioQueueSqe(req, sqe);
            }
            if (err != 0) {
                /* fail_req: */
                ioPutReq(req);
                IoCqring.ioReqComplete(req, err);
                break;
            }
        }
        if (submitted != nr) {
            ctx.refs.putMany(nr - submitted);
        }
        /* io_submit_state_end() */
        BlkPlug.blkFinishPlug(plug);
        /* io_commit_sqring() */
        ctx.sqHead.storeRelease(ctx.cachedSqHead);
        return submitted;
    }

    /**
     * fs/io_uring.c: {@code io_init_req()} (v5.10): opcode, {@code user_data}, the two references
     * (done by the constructor), {@code req->task = current}, the SQE flags
     * ({@code IOSQE_ASYNC} is {@code REQ_F_FORCE_ASYNC}), the file.
     */
    static int ioInitReq(IoRingCtx ctx, IoKiocb req, IoUringSqe sqe) {
        req.opcode = sqe.opcode;
        req.userData = sqe.userData;
        req.asyncData = null;
        req.file = null;
        req.flags = 0;
        req.task = Sched.current();
        req.result = 0;
        if (sqe.opcode != IoUringSqe.IORING_OP_READ && sqe.opcode != IoUringSqe.IORING_OP_READV) {
            return -Errno.EINVAL;
        }
        req.flags |= sqe.flags & IoUringSqe.IOSQE_ASYNC;
        req.file = sqe.fd;
        return req.file == null ? -Errno.EBADF : 0;
    }

    /**
     * fs/io_uring.c: {@code io_queue_sqe()} (v5.10, no drain): {@code IOSQE_ASYNC} requests are
     * prepared with their async data ({@code io_req_defer_prep()}) and punted at once; others are
     * prepared ({@code io_req_prep()}) and issued ({@link #__ioQueueSqe}). A prep error fails the
     * request (the caller completes it).
     */
    static int ioQueueSqe(IoKiocb req, IoUringSqe sqe) {
        int ret;
        if ((req.flags & IoKiocb.REQ_F_FORCE_ASYNC) != 0) {
            /* io_req_defer_prep(): io_alloc_async_data() (READV needs it; READ too, model) then prep */
            ret = IoRw.ioReadPrep(req, sqe, true);
            if (ret != 0) {
                return ret;
            }
            ioQueueAsyncWork(req);
            return 0;
        }
        ret = IoRw.ioReadPrep(req, sqe, false);
        if (ret != 0) {
            return ret;
        }
        __ioQueueSqe(req);
        return 0;
    }

    /**
     * fs/io_uring.c: {@code __io_queue_sqe()} (v5.10): issue with {@code force_nonblock}; on
     * {@code -EAGAIN} (without {@code REQ_F_NOWAIT}) punt to io-wq, which will drop the
     * submission reference when the work has run; on 0 drop the submission reference now; on an
     * error drop it and complete the request with the error.
     *
     * <p>The issue is a non-blocking section ({@link Sched#nowaitEnter}): sleeping inside it is
     * {@code blocked-in-nowait}. That holds for both callers, the submission
     * ({@code io_submit_sqes()}) and the task_work retry ({@link #ioReqTaskSubmit}): both pass
     * {@code force_nonblock = true}, the contract io_uring relies on to keep the submitting task
     * from sleeping.
     */
    static void __ioQueueSqe(IoKiocb req) {
        Sched.nowaitEnter("io_issue_sqe(" + req.name() + ", force_nonblock)");
        int ret = ioIssueSqe(req, true);
        Sched.nowaitExit();
        req.touch();
        if (ret == -Errno.EAGAIN && (req.flags & IoKiocb.REQ_F_NOWAIT) == 0) {
            /* io_arm_poll_handler(): regular and block-device files cannot be polled */
            IoUringContracts.noNeedlessPunt(req);
            ioQueueAsyncWork(req);
        } else if (ret == 0) {
            /* drop submission reference */
            ioPutReq(req);
        } else {
            ioPutReq(req);
            IoCqring.ioReqComplete(req, ret);
        }
    }

    /** fs/io_uring.c: {@code io_issue_sqe()} (v5.10): the read opcodes go to {@code io_read()}. */
    static int ioIssueSqe(IoKiocb req, boolean forceNonblock) {
        switch (req.opcode) {
            case IoUringSqe.IORING_OP_READV:
            case IoUringSqe.IORING_OP_READ:
                return IoRw.ioRead(req, forceNonblock);
            default:
                return -Errno.EINVAL;
        }
    }

    /**
     * fs/io_uring.c: {@code io_queue_async_work()} (v5.10): {@code io_prep_async_work()}
     * ({@code REQ_F_WORK_INITIALIZED}; {@code IO_WQ_WORK_CONCURRENT} for {@code IOSQE_ASYNC};
     * unbound for a non-regular file, since a read op has {@code unbound_nonreg_file}), then
     * {@code io_wq_enqueue()}.
     */
    static void ioQueueAsyncWork(IoKiocb req) {
        req.touch();
        if ((req.flags & IoKiocb.REQ_F_WORK_INITIALIZED) == 0) {
            req.flags |= IoKiocb.REQ_F_WORK_INITIALIZED;
            req.work.flags = 0;
        }
        if ((req.flags & IoKiocb.REQ_F_FORCE_ASYNC) != 0) {
            req.work.flags |= IoWqWork.IO_WQ_WORK_CONCURRENT;
        }
        if ((req.flags & IoKiocb.REQ_F_ISREG) == 0) {
            req.work.flags |= IoWqWork.IO_WQ_WORK_UNBOUND;
        }
        req.ctx.nrPunts++;
        Kernel.event("io_queue_async_work(%s)", req.name());
        IoWq.ioWqEnqueue(req.ctx.ioWq, req.work);
    }

    /**
     * fs/io_uring.c: {@code io_wq_submit_work()} (v5.10), io-wq's {@code do_work}, on a worker:
     * a cancelled work completes with {@code -ECANCELED}; otherwise issue with
     * {@code force_nonblock = false} (again on {@code -EAGAIN}), and complete with the error if
     * the issue failed. No linked work to steal ({@code io_steal_work()}).
     */
    static IoWqWork ioWqSubmitWork(IoWqWork work) {
        IoKiocb req = (IoKiocb) work.owner;
        req.touch();
        int ret = 0;
        if ((work.flags & (IoWqWork.IO_WQ_WORK_CANCEL | IoWqWork.IO_WQ_WORK_NO_CANCEL)) == IoWqWork.IO_WQ_WORK_CANCEL) {
            ret = -Errno.ECANCELED;
        }
        if (ret == 0) {
            do {
                ret = ioIssueSqe(req, false);
            } while (ret == -Errno.EAGAIN);
        }
        if (ret != 0) {
            IoCqring.ioReqComplete(req, ret);
        }
        return null;
    }

    /** fs/io_uring.c: {@code io_free_work()} (v5.10), io-wq's {@code free_work}: drop the submission reference io-wq held. */
    static void ioFreeWork(IoWqWork work) {
        ioPutReq((IoKiocb) work.owner);
    }

    // ------------------------------------------------------------------ references

    /** fs/io_uring.c: {@code io_put_req()} / {@code io_put_req_find_next()} (no links). */
    static void ioPutReq(IoKiocb req) {
        if (req.refs.decAndTest()) {
            ioFreeReq(req);
        }
    }

    /** fs/io_uring.c: {@code io_double_put_req()}: drop both submit and complete references. */
    static void ioDoublePutReq(IoKiocb req) {
        if (req.refs.subAndTest(2)) {
            ioFreeReq(req);
        }
    }

    /**
     * fs/io_uring.c: {@code io_free_req()} -&gt; {@code __io_free_req()} (v5.10, no links):
     * {@code io_dismantle_req()} (free the async data, whose page wait entry goes with it), free
     * the request, drop its context reference.
     */
    static void ioFreeReq(IoKiocb req) {
        IoRingCtx ctx = req.ctx;
        req.touch();
        if (req.asyncData != null) {
            /* kfree(req->async_data): the wait_page_queue inside it is gone too */
            req.asyncData.wpq.wait.leaveScope();
            req.asyncData = null;
        }
        req.flags &= ~IoKiocb.REQ_F_NEED_CLEANUP;
        Kernel.event("__io_free_req(%s)", req.name());
        req.free();
        ctx.refs.put();
    }

    // ------------------------------------------------------------------ task_work

    /**
     * fs/io_uring.c: {@code io_req_task_work_add()} (v5.10, not SQPOLL, {@code twa_signal_ok}):
     * {@code -ESRCH} if the task is exiting, else {@code task_work_add(TWA_SIGNAL)} and
     * {@code wake_up_process()}.
     */
    static int ioReqTaskWorkAdd(IoKiocb req) {
        Task tsk = req.task;
        if (Sched.taskExiting(tsk)) {
            return -Errno.ESRCH;
        }
        int ret = Sched.taskWorkAdd(tsk, req.taskWork, Sched.TWA_SIGNAL);
        if (ret == 0) {
            Sched.wakeUpProcess(tsk);
        }
        return ret;
    }

    /**
     * fs/io_uring.c: {@code io_req_task_submit()} (v5.10): the retry, on the submitting task:
     * {@code __io_req_task_submit()} ({@code mutex_lock(&ctx->uring_lock)},
     * {@link #__ioQueueSqe}, unlock), then drop the context reference
     * {@link IoRw#ioAsyncBufFunc} took. Bug {@code uring-no-ctx-ref}: no reference was taken,
     * none is dropped.
     */
    static void ioReqTaskSubmit(CallbackHead cb) {
        IoKiocb req = ((IoKiocb.TaskWork) cb).req;
        IoRingCtx ctx = req.ctx;
        ctx.nrTaskWorkRetries++;
        Kernel.event("io_req_task_submit(%s)", req.name());
        Mutex.mutexLock(ctx.uringLock);
        __ioQueueSqe(req);
        Mutex.mutexUnlock(ctx.uringLock);
        /* the unlock wrote ctx->uring_lock: an access to the context (in the unlock's step) */
        ctx.touch();
        if (!Kernel.bug(IoUringBugs.URING_NO_CTX_REF)) {
            ctx.refs.put();
        }
    }

    /**
     * fs/io_uring.c: {@code io_req_task_cancel()} (v5.10), run by the io-wq manager for a
     * request whose task was exiting: {@code __io_req_task_cancel(req, -ECANCELED)} (post the CQE
     * under {@code completion_lock}, wake waiters, drop both references), then drop the context
     * reference. Bug {@code uring-cancel-leaks-ctx-ref}: the last put is left out.
     */
    static void ioReqTaskCancel(CallbackHead cb) {
        IoKiocb req = ((IoKiocb.TaskWork) cb).req;
        IoRingCtx ctx = req.ctx;
        ctx.nrCancels++;
        Kernel.event("io_req_task_cancel(%s)", req.name());
        /* __io_req_task_cancel() */
        long flags = Spinlock.spinLockIrqsave(ctx.completionLock);
        IoCqring.ioCqringFillEvent(req, -Errno.ECANCELED);
        IoCqring.ioCommitCqring(ctx);
        Spinlock.spinUnlockIrqrestore(ctx.completionLock, flags);
        IoCqring.ioCqringEvPosted(ctx);
        ioDoublePutReq(req);
        if (!Kernel.bug(IoUringBugs.URING_CANCEL_LEAKS_CTX_REF) && !Kernel.bug(IoUringBugs.URING_NO_CTX_REF)) {
            ctx.touch();
            ctx.refs.put();
        }
    }

    /**
     * fs/io_uring.c: {@code io_run_task_work()} (v5.10): not on an exiting task; if task_work is
     * pending ({@code current->task_works}), run it.
     */
    public static boolean ioRunTaskWork() {
        Task me = Sched.current();
        if ((me.flags() & Task.PF_EXITING) != 0) {
            return false;
        }
        if (Sched.taskWorkPending(me)) {
            Sched.__setCurrentState(Task.TASK_RUNNING);
            Sched.taskWorkRun();
            return true;
        }
        return false;
    }

    /**
     * fs/io_uring.c: {@code io_run_task_work_sig()} (v5.10): 1 if task_work ran; 0 without a
     * signal; a pending signal that was only the task_work notification ({@code TWA_SIGNAL}'s
     * {@code JOBCTL_TASK_WORK}, cleared by the model's {@code task_work_run()}) is not one;
     * otherwise {@code -EINTR}.
     */
    static int ioRunTaskWorkSig() {
        if (ioRunTaskWork()) {
            return 1;
        }
        if (!Sched.signalPending(Sched.current())) {
            return 0;
        }
        return -Errno.EINTR;
    }

    // ------------------------------------------------------------------ waiting for CQEs

    /** fs/io_uring.c: {@code struct io_wait_queue}: the waiter's entry with what it waits for. */
    static final class IoWaitQueue {
        final WaitQueueEntry wq;
        final IoRingCtx ctx;
        final int toWait;

        IoWaitQueue(IoRingCtx ctx, int toWait) {
            this.ctx = ctx;
            this.toWait = toWait;
            this.wq = new WaitQueueEntry(Sched.current().name() + ".iowq");
            this.wq.setOwnerObject(this);
        }
    }

    /** fs/io_uring.c: {@code io_should_wake()} (no timeouts): enough CQEs. */
    static boolean ioShouldWake(IoWaitQueue iowq, boolean noflush) {
        return Integer.compareUnsigned(IoCqring.ioCqringEvents(iowq.ctx, noflush), iowq.toWait) >= 0;
    }

    /**
     * fs/io_uring.c: {@code io_wake_function()} (v5.10): the CQ waiter's wake function, under
     * {@code ctx->wait.lock}: stop the walk (-1) while there are not enough CQEs, else
     * {@code autoremove_wake_function()}.
     */
    static int ioWakeFunction(WaitQueueEntry curr, int mode, int wakeFlags, Object key) {
        IoWaitQueue iowq = (IoWaitQueue) curr.containerOf();
        /* use noflush == true, as we can't safely rely on locking context */
        if (!ioShouldWake(iowq, true)) {
            return -1;
        }
        return Wait.autoremoveWakeFunction(curr, mode, wakeFlags, key);
    }

    /**
     * fs/io_uring.c: {@code io_cqring_wait()} (v5.10, no signal mask, no timeout): return at
     * once if {@code minEvents} CQEs exist, running task_work meanwhile; else sleep
     * {@code TASK_INTERRUPTIBLE} on {@code ctx->wait} (exclusive, {@code io_wake_function}),
     * running task_work each time round ({@code io_run_task_work_sig()}: task_work is what
     * completes async buffered reads), until there are enough CQEs or a real signal
     * ({@code -EINTR}).
     */
    static int ioCqringWait(IoRingCtx ctx, int minEvents) {
        for (;;) {
            if (Integer.compareUnsigned(IoCqring.ioCqringEvents(ctx, false), minEvents) >= 0) {
                return 0;
            }
            if (!ioRunTaskWork()) {
                break;
            }
        }
        IoWaitQueue iowq = new IoWaitQueue(ctx, minEvents);
        WaitQueueEntry wq = iowq.wq;
        wq.setPrivate(Sched.current());
        wq.setFunc(IoUring::ioWakeFunction);
        wq.setFlags(0);
        wq.initListHead();
        int ret = 0;
        for (;;) {
            Wait.prepareToWaitExclusive(ctx.wait, wq, Task.TASK_INTERRUPTIBLE);
            /* make sure we run task_work before checking for signals */
            ret = ioRunTaskWorkSig();
            if (ret > 0) {
                continue;
            } else if (ret < 0) {
                break;
            }
            if (ioShouldWake(iowq, false)) {
                break;
            }
            Sched.waitingOn(minEvents + " CQE(s) on " + ctx + " (io_cqring_wait)");
            Sched.schedule();
        }
        Wait.finishWait(ctx.wait, wq);
        wq.leaveScope();
        return ctx.cqHead.readOnce().intValue() == ctx.cqTail.readOnce().intValue() ? ret : 0;
    }
}
