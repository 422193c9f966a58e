package kmodel.iouring;

import kmodel.kernel.Kernel;
import kmodel.kernel.locking.Mutex;
import kmodel.kernel.sched.CallbackHead;
import kmodel.kernel.sched.Completion;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;

/**
 * fs/io_uring.c and kernel/exit.c (v5.10): closing a ring and the submitting task's exit.
 *
 * <h2>Closing: the context's last reference</h2>
 * <pre>
 *   io_uring_release()                 (the ring file's last fput)
 *     io_ring_ctx_wait_and_kill()
 *       uring_lock: percpu_ref_kill(&amp;ctx-&gt;refs); cq_overflow_flushed = 1; overflow flush (force)
 *       io_wq_cancel_cb(io_cancel_ctx_cb)
 *       queue_work(system_unbound_wq, io_ring_exit_work)
 *   io_ring_exit_work()                (a kworker)
 *     wait_for_completion(&amp;ctx-&gt;ref_comp)   -- every request, every queued task_work holds a ref
 *     io_ring_ctx_free(): io_finish_async() (io_wq_destroy()), free the context
 * </pre>
 *
 * <h2>Exiting: 5.10.13's order (v5.10.0's: {@link IoUringOptions#URING_CANCEL_AFTER_EXITING})</h2>
 * {@code do_exit()} calls {@code io_uring_files_cancel(tsk->files)} before
 * {@code exit_signals()} sets {@code PF_EXITING}. In v5.10 that cancels only requests on
 * {@code ctx->inflight_list}, which holds requests that grabbed the task's files
 * ({@code IO_WQ_WORK_FILES}); reads never do, so for reads it only flushes the task's
 * overflowed CQEs. A read with an armed page-unlock callback stays armed: when the callback
 * fires after {@code PF_EXITING}, {@code io_req_task_work_add()} fails and the io-wq manager
 * cancels the request ({@code -ECANCELED}). The ring file's last {@code fput()} in
 * {@code exit_files()} queues {@code ____fput} as task_work, run by {@code exit_task_work()}:
 * that is when {@code io_uring_release()} runs. The model queues that fput before
 * {@code PF_EXITING} is set (its {@code Sched.doExit()} sets the flag and runs the final task_work
 * in one go); the release still runs in the final {@code task_work_run()}.
 */
public final class IoUringExit {
    private IoUringExit() {
    }

    /**
     * fs/io_uring.c: {@code io_uring_release()} (v5.10): the ring file's last reference is gone:
     * {@code io_ring_ctx_wait_and_kill()}. The model's {@code close(2)} of the ring, run at once
     * (the kernel runs {@code ____fput} as task_work on the way back to user space).
     */
    public static void ioUringRelease(IoRingCtx ctx) {
        Kernel.BUG_ON(ctx.released, "io_uring_release(" + ctx + ") twice");
        ctx.released = true;
        Kernel.event("io_uring_release(%s)", ctx);
        ioRingCtxWaitAndKill(ctx);
    }

    /**
     * fs/io_uring.c: {@code io_ring_ctx_wait_and_kill()} (5.10.13): under {@code uring_lock} kill
     * {@code ctx->refs} and flush the overflow backlog for good ({@code cq_overflow_flushed}),
     * cancel the ring's io-wq work ({@code io_wq_cancel_cb(io_cancel_ctx_cb)}), and queue
     * {@code io_ring_exit_work()} (the model spawns a kworker task for it). v5.10.0's form
     * ({@link IoUringOptions#URING_FORCE_FLUSH_DROPS}, {@link IoUringOptions#URING_CLOSE_CANCEL_ALL}):
     * the forced flush sets {@code cq_overflow_flushed} itself, and {@code io_wq_cancel_all()}
     * cancels instead.
     */
    static void ioRingCtxWaitAndKill(final IoRingCtx ctx) {
        Mutex.mutexLock(ctx.uringLock);
        ctx.refs.kill();
        if (!Kernel.config().enabled(IoUringOptions.URING_FORCE_FLUSH_DROPS)) {
            /* if force is set, the ring is going away. always drop after that */
            ctx.cqOverflowFlushed = true; // 5.10.4 on (cda286f0715c); before, the forced flush set it
        }
        IoCqring.ioCqringOverflowFlush(ctx, true, null);
        Mutex.mutexUnlock(ctx.uringLock);
        if (Kernel.config().enabled(IoUringOptions.URING_CLOSE_CANCEL_ALL)) {
            IoWq.ioWqCancelAll(ctx.ioWq); // v5.10.0-5.10.3: the bit stays set
        } else {
            IoWq.ioWqCancelCb(ctx.ioWq, (work, data) -> ((IoKiocb) work.owner).ctx == data, ctx, true);
        }
        ctx.exitWork = Kernel.rt().spawn("kworker:" + ctx, "kworker", false, false, () -> ioRingExitWork(ctx));
    }

    /**
     * fs/io_uring.c: {@code io_ring_exit_work()} (v5.10): wait for {@code ref_comp} (the kernel
     * waits in {@code HZ/20} slices to reap IOPOLL completions meanwhile; without IOPOLL that is
     * one wait), then {@code io_ring_ctx_free()}.
     */
    static void ioRingExitWork(IoRingCtx ctx) {
        Completion.waitForCompletionIo(ctx.refComp);
        ioRingCtxFree(ctx);
    }

    /** fs/io_uring.c: {@code io_ring_ctx_free()} (v5.10): {@code io_finish_async()} destroys the io-wq; free the context. */
    static void ioRingCtxFree(IoRingCtx ctx) {
        ctx.touch();
        Kernel.event("io_ring_ctx_free(%s)", ctx);
        IoWq.ioWqDestroy(ctx.ioWq);
        ctx.free();
    }

    /**
     * fs/io_uring.c: {@code __io_uring_files_cancel(files)} for one ring the task used (v5.10):
     * {@code io_uring_cancel_task_requests(ctx, files)}: the task's overflowed CQEs are flushed
     * ({@code io_cqring_overflow_flush(ctx, true, task, files)}), then
     * {@code io_uring_cancel_files()} cancels the requests of {@code ctx->inflight_list} that
     * hold these files and waits for them: the model's reads never join that list (only
     * {@code IO_WQ_WORK_FILES} work does), so there is nothing to cancel or wait for.
     */
    public static void ioUringFilesCancel(IoRingCtx ctx) {
        Kernel.event("io_uring_files_cancel(%s)", ctx);
        IoCqring.ioCqringOverflowFlush(ctx, true, Sched.current());
    }

    /**
     * kernel/exit.c: {@code do_exit()} (v5.10), the parts io_uring takes part in, for a task that
     * used {@code rings}: {@code io_uring_files_cancel()}, then {@code exit_files()}'s last
     * {@code fput()} of each ring not closed yet (queued as task_work, {@code TWA_RESUME}), then
     * {@code exit_signals()} ({@code PF_EXITING}) and {@code exit_task_work()}
     * ({@code Sched.doExit()}), which runs {@code io_uring_release()} and any queued retry, and
     * closes the task_work list.
     */
    public static void doExit(IoRingCtx... rings) {
        Task me = Sched.current();
        if (Kernel.config().enabled(IoUringOptions.URING_CANCEL_AFTER_EXITING)) {
            doExitV5100(me, rings);
            return;
        }
        exitFiles(me, rings);
        Sched.doExit();
    }

    /**
     * kernel/exit.c: {@code exit_files()} (v5.10): {@code io_uring_files_cancel(files)} on each
     * live ring, then the files' last {@code fput()}, queued as task_work ({@code ____fput()}
     * releases the ring).
     */
    private static void exitFiles(Task me, IoRingCtx... rings) {
        for (IoRingCtx ctx : rings) {
            if (!ctx.released) {
                ioUringFilesCancel(ctx);
            }
        }
        for (final IoRingCtx ctx : rings) {
            if (!ctx.released) {
                CallbackHead fput = new CallbackHead();
                CallbackHead.initTaskWork(fput, cb -> ioUringRelease(ctx));
                fput.label = "____fput(" + ctx + ")";
                Sched.taskWorkAdd(me, fput, Sched.TWA_RESUME);
            }
        }
    }

    /**
     * kernel/exit.c: {@code do_exit()} (v5.10.0 to 5.10.4, before b1b6b5a30dce):
     * {@code exit_signals()} sets {@code PF_EXITING} first; {@code exit_files()} then calls
     * {@code io_uring_files_cancel(files)} and drops the files (the ring's last {@code fput()},
     * queued as task_work); {@code exit_task_work()} runs it. Between the two a page-unlock
     * callback already finds the task exiting ({@code io_req_task_work_add()} fails) while the
     * task's overflowed CQEs are not flushed yet.
     */
    private static void doExitV5100(Task me, IoRingCtx... rings) {
        Sched.exitSignals();
        exitFiles(me, rings);
        Sched.exitTaskWork();
    }
}
