package kmodel.kernel.wait;

/**
 * include/linux/wait.h: {@code wait_queue_func_t}. Called by {@code __wake_up_common()} with the
 * queue lock held, possibly from interrupt context: it must not sleep. Return contract: negative
 * stops the walk; positive counts as a wake-up (and uses up an exclusive slot if the entry is
 * {@code WQ_FLAG_EXCLUSIVE}); zero skips the entry.
 */
public interface WaitQueueFunc {
    /** The wake function. */
    int wake(WaitQueueEntry wqEntry, int mode, int wakeFlags, Object key);
}
