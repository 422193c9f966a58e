package kmodel.mm;

import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.sched.CallbackHead;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;
import kmodel.kernel.wait.Wait;
import kmodel.kernel.wait.WaitQueueEntry;

/**
 * A reduced page-unlock callback for {@code IOCB_WAITQ} reads, kept as the harness of the mm
 * unit tests and of the free-running (JPF, Lincheck) harnesses, which run without io_uring: the
 * real wake function is io_uring's, {@code kmodel.iouring.IoRw#ioAsyncBufFunc} (fs/io_uring.c
 * {@code io_async_buf_func()}, v5.10), with the request and context references, the task_work
 * retry {@code io_req_task_submit()} and the io-wq fallback {@code io_req_task_cancel()}; the
 * io_uring scenarios use that one. This stand-in has the same {@code wake_page_match()} step
 * (and honours {@code async-page-match-not-set} the same way) but no request, ring, or reference
 * counts.
 *
 * <p>Its {@code wait_page_queue} is heap-allocated (io_uring keeps it in the request's
 * {@code io_async_rw}), so it never leaves scope: a waker may touch it at any time while it is
 * queued.
 *
 * <p>Protocol: {@link #arm} marks the kiocb {@code IOCB_WAITQ}; {@code generic_file_buffered_read()}
 * returns {@code -EIOCBQUEUED} after queueing the entry on a locked page's hashed queue
 * ({@link Filemap#waitOnPageLockedAsync}, {@link Filemap#lockPageAsync}); the page's unlock calls
 * {@link #ioAsyncBufFunc} under {@code q->lock}, possibly in interrupt context, which unlinks the
 * entry and queues {@code retry} as task_work on the owner task (with {@code TWA_SIGNAL}, so an
 * interruptible sleep ends and {@code task_work_run()} runs it). If the owner is exiting, the
 * {@code cancel} work goes to the fallback task instead (io_uring: the io-wq manager).
 *
 * <p>Field rules: {@code wpq} and {@code kiocb} are set by the owner before the entry is queued;
 * while queued, only the waker (under {@code q->lock}) touches them. {@code fired} is written by
 * the waker under {@code q->lock} and read by the owner after its task_work ran.
 */
public final class AsyncPageWaiter {
    /** The wait entry and its page/bit ({@code &req->async_data->wpq} in io_uring). */
    public final WaitPageQueue wpq;
    /** The task whose task_work retries the read ({@code req->task}). */
    public final Task task;
    /** The retry, run by {@link #task} ({@code io_req_task_submit} / v1's {@code io_async_buf_retry}). */
    public final CallbackHead retry = new CallbackHead();
    /** The cancellation, run by {@link #fallback} when the owner is exiting ({@code io_req_task_cancel}). */
    public final CallbackHead cancel = new CallbackHead();
    /** Where {@link #cancel} goes when {@code task_work_add()} fails, or null (then that is a {@code bug-on}). */
    public final Task fallback;
    private Kiocb kiocb;
    private int fired;

    /**
     * A waiter owned by {@code task}.
     *
     * @param name entry name for traces, e.g. "t1.wpq"
     * @param task the task that will run {@code retryFn} as task_work
     * @param retryFn re-issues the read (runs in {@code task}'s context)
     * @param fallback the task that runs {@code cancelFn} if {@code task} is exiting, or null
     * @param cancelFn cancels the request there, or null with a null fallback
     */
    public AsyncPageWaiter(String name, Task task, CallbackHead.TaskWorkFunc retryFn, Task fallback,
            CallbackHead.TaskWorkFunc cancelFn) {
        this.wpq = new WaitPageQueue(name);
        this.task = task;
        this.fallback = fallback;
        CallbackHead.initTaskWork(retry, retryFn);
        retry.label = name + ".retry";
        if (cancelFn != null) {
            CallbackHead.initTaskWork(cancel, cancelFn);
            cancel.label = name + ".cancel";
        }
    }

    /**
     * fs/io_uring.c: the arming half of {@code io_rw_should_retry()} (v5.10):
     * {@code wait->wait.func = io_async_buf_func; wait->wait.private = req; wait->wait.flags = 0;
     * INIT_LIST_HEAD(&wait->wait.entry); kiocb->ki_flags |= IOCB_WAITQ; kiocb->ki_flags &= ~IOCB_NOWAIT;
     * kiocb->ki_waitq = wait}. The caller has checked {@code FMODE_BUF_RASYNC}. Re-arming after a
     * retry is allowed once the entry is off every queue.
     */
    public void arm(Kiocb iocb) {
        initEntry();
        this.kiocb = iocb;
        iocb.kiFlags |= Kiocb.IOCB_WAITQ;
        iocb.kiFlags &= ~Kiocb.IOCB_NOWAIT;
        iocb.kiWaitq = wpq;
    }

    /**
     * The entry half of {@link #arm} alone, for callers of {@link Filemap#lockPageAsync} /
     * {@link Filemap#waitOnPageLockedAsync} without a kiocb: wake function, private, flags 0,
     * empty list node.
     */
    public void initEntry() {
        WaitQueueEntry w = wpq.wait;
        w.setFunc(AsyncPageWaiter::ioAsyncBufFunc);
        w.setPrivate(this);
        w.setFlags(0);
        w.initListHead();
        this.kiocb = null;
    }

    /** How many times the callback fired (woke and queued the retry or the cancel). */
    public int fired() {
        return fired;
    }

    /**
     * fs/io_uring.c: {@code io_async_buf_func()} (v5.10.13), called under {@code q->lock} by the
     * page's wake-up walk. {@code wake_page_match()} first (it records {@code page_match} for any
     * entry of this page); on a match: clear {@code IOCB_WAITQ}, {@code list_del_init()} (plain:
     * nobody checks this entry locklessly), then {@code io_req_task_work_add()}: -ESRCH if the
     * task is exiting, else {@code task_work_add(TWA_SIGNAL)} and {@code wake_up_process()}; on
     * failure queue the cancel on the fallback task and wake it. Returns 1: the entry is
     * non-exclusive, so it never uses up the walk's exclusive wake-up. Bug
     * {@code async-page-match-not-set}: compare page and bit without recording the page match,
     * as v1 did.
     */
    public static int ioAsyncBufFunc(WaitQueueEntry wait, int mode, int sync, Object arg) {
        WaitPageQueue wpq = (WaitPageQueue) wait.containerOf();
        WaitPageKey key = (WaitPageKey) arg;
        AsyncPageWaiter req = (AsyncPageWaiter) wait.private_();

        if (Kernel.bug(FilemapBugs.ASYNC_PAGE_MATCH_NOT_SET)) {
            /* v1: its own comparison, key->page_match never set. */
            if (wpq.page != key.page || wpq.bitNr != key.bitNr) {
                return 0;
            }
        } else if (!Filemap.wakePageMatch(wpq, key)) {
            return 0;
        }

        if (req.kiocb != null) {
            req.kiocb.kiFlags &= ~Kiocb.IOCB_WAITQ;
        }
        Wait.listDelInit(wait);
        wpq.spuriousIfReused(key);
        req.fired++;
        Kernel.event("io_async_buf_func: %s", wpq.wait.name());

        int ret = taskWorkAdd(req);
        if (ret != 0) {
            /* The target task is exiting: run the cancellation elsewhere. */
            Kernel.BUG_ON(req.fallback == null, "task_work_add(" + req.task.name()
                    + ") failed and " + wpq.wait.name() + " has no fallback task");
            Sched.taskWorkAdd(req.fallback, req.cancel, Sched.TWA_NONE);
            Sched.wakeUpProcess(req.fallback);
        }
        return 1;
    }

    /** fs/io_uring.c: {@code io_req_task_work_add()} (v5.10, not SQPOLL): TWA_SIGNAL, then wake the task. */
    private static int taskWorkAdd(AsyncPageWaiter req) {
        Task tsk = req.task;
        if (Sched.taskExiting(tsk)) {
            return -Errno.ESRCH;
        }
        int ret = Sched.taskWorkAdd(tsk, req.retry, Sched.TWA_SIGNAL);
        if (ret == 0) {
            Sched.wakeUpProcess(tsk);
        }
        return ret;
    }
}
