package kmodel.kernel.sched;

import kmodel.kernel.locking.Spinlock;
import kmodel.kernel.wait.Wait;
import kmodel.kernel.wait.WaitQueueEntry;
import kmodel.kernel.wait.WaitQueueHead;

/**
 * kernel/sched/completion.c and include/linux/completion.h (v5.10): {@code struct completion},
 * for {@code submit_bio_wait()}, direct I/O and the file systems' synchronous repair reads.
 *
 * <p>The kernel uses a simple wait queue ({@code swait}); the model uses a wait queue whose
 * waiters are exclusive, so that {@code complete()} wakes exactly the first one as
 * {@code swake_up_locked()} does.
 *
 * <p>Lock rule: {@code done} and the queue are protected by {@code wait.lock}.
 */
public final class Completion {
    /** {@code done}: completions not yet consumed; protected by {@code wait.lock}. */
    private int done;
    /** {@code wait}. */
    private final WaitQueueHead wait;
    private final String name;

    /** include/linux/completion.h: {@code init_completion()} / {@code DECLARE_COMPLETION_ONSTACK}. */
    public Completion(String name) {
        this.name = name;
        this.wait = new WaitQueueHead(name + ".wait");
    }

    /**
     * kernel/sched/completion.c: {@code complete()}: {@code done++} and wake the first waiter,
     * under the lock. May be called in interrupt context.
     */
    public static void complete(Completion x) {
        long flags = Spinlock.spinLockIrqsave(x.wait.lock);
        if (x.done != Integer.MAX_VALUE) {
            x.done++;
        }
        Wait.__wakeUpCommon(x.wait, Task.TASK_NORMAL, 1, 0, null, null);
        Spinlock.spinUnlockIrqrestore(x.wait.lock, flags);
    }

    /**
     * kernel/sched/completion.c: {@code wait_for_completion_io()}: {@code do_wait_for_common()} in
     * {@code TASK_UNINTERRUPTIBLE} with {@code io_schedule()}: queue, drop the lock, sleep,
     * retake the lock, until {@code done}; then consume one.
     */
    public static void waitForCompletionIo(Completion x) {
        Spinlock.spinLockIrq(x.wait.lock);
        if (x.done == 0) {
            WaitQueueEntry entry = new WaitQueueEntry(Sched.current().name() + ".completion_wait");
            Wait.initWaitEntry(entry, WaitQueueEntry.WQ_FLAG_EXCLUSIVE);
            do {
                if (entry.listEmpty()) {
                    Wait.__addWaitQueueEntryTail(x.wait, entry);
                }
                Sched.__setCurrentState(Task.TASK_UNINTERRUPTIBLE);
                Spinlock.spinUnlockIrq(x.wait.lock);
                Sched.waitingOn("completion " + x.name);
                Sched.ioSchedule();
                Spinlock.spinLockIrq(x.wait.lock);
            } while (x.done == 0);
            // __finish_swait()
            Sched.__setCurrentState(Task.TASK_RUNNING);
            if (!entry.listEmpty()) {
                Wait.listDelInit(entry);
            }
            entry.leaveScope();
        }
        if (x.done != Integer.MAX_VALUE) {
            x.done--;
        }
        Spinlock.spinUnlockIrq(x.wait.lock);
    }

    /** {@code completion_done()} without a scheduling point (checks). */
    public int peekDone() {
        return done;
    }

    @Override
    public String toString() {
        return name;
    }
}
