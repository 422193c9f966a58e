/**
 * Mirrors {@code include/linux/spinlock.h} and {@code lockdep_assert_held()}, and the sleeping
 * locks of {@code kernel/locking/mutex.c} ({@link kmodel.kernel.locking.Mutex}) and
 * {@code kernel/locking/rwsem.c} ({@link kmodel.kernel.locking.RwSemaphore}).
 *
 * <h2>Lock ordering</h2>
 * <pre>
 *   mutex / rw_semaphore        (sleeping: taken before any spinlock, never in interrupt context)
 *     lock-&gt;wait_lock           (their own spinlock, around the wait list)
 *       p-&gt;state                (set_current_state by the waiter; the wake-up after the unlock)
 * </pre>
 */
package kmodel.kernel.locking;
