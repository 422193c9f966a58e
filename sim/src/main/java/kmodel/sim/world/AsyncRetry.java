package kmodel.sim.world;

import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;
import kmodel.mm.AsyncPageWaiter;

/**
 * The small callback harness of the IOCB_WAITQ scenarios: an {@link AsyncPageWaiter} whose
 * retry is task_work on the issuing task, and the wait for it in the shape of io_uring's
 * {@code io_cqring_wait()} (v5.10): sleep {@code TASK_INTERRUPTIBLE} until task_work is
 * pending, then run it. The task_work itself only records that a retry is due; the issuing task
 * then re-issues the operation, as {@code io_req_task_submit()} would.
 */
public final class AsyncRetry {
    public final AsyncPageWaiter waiter;
    private int retries;

    public AsyncRetry(String name) {
        Task me = Sched.current();
        this.waiter = new AsyncPageWaiter(name, me, cb -> retries++, null, null);
    }

    /** Retries requested by the callback so far. */
    public int retries() {
        return retries;
    }

    /**
     * fs/io_uring.c: the sleep of {@code io_cqring_wait()} until task_work arrives, then
     * {@code io_run_task_work()}: set the state before testing for work, so a callback between
     * the test and schedule() makes schedule() return at once.
     */
    public void awaitCallback() {
        int before = retries;
        for (;;) {
            Sched.setCurrentState(Task.TASK_INTERRUPTIBLE);
            if (Sched.taskWorkPending(Sched.current())) {
                Sched.__setCurrentState(Task.TASK_RUNNING);
                Sched.taskWorkRun();
                if (retries != before) {
                    return;
                }
                continue;
            }
            Sched.waitingOn("task_work from " + waiter.wpq.wait.name() + " (page-unlock callback)");
            Sched.schedule();
        }
    }
}
