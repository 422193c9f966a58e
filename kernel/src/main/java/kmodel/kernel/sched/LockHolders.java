package kmodel.kernel.sched;

import java.util.List;

/**
 * A lock whose holders the model knows: a spinlock, a page lock (PG_locked), a {@code struct
 * mutex}, an {@code rw_semaphore}. Model-only bookkeeping (the kernel tracks owners only for
 * some locks, and only with debugging options): the runtime uses it to say, for a task asleep
 * at the end of a run, who holds what it waits for, and to find a {@code deadlock} cycle.
 */
public interface LockHolders {
    /** Adds the tasks holding the lock right now to {@code out} (none when it is free). */
    void addHolders(List<Task> out);

    /** The lock as reports name it, e.g. {@code mutex m0} or {@code P0 (PG_locked)}. */
    String lockName();
}
