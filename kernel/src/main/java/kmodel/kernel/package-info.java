/**
 * The {@code kernel} module: mirrors {@code kernel/} and {@code include/linux/} (sched, wait,
 * spinlock, bitops, atomic, refcount, task_work, signals, errno, bug.h).
 *
 * <p>It holds the deterministic runtime that every other module's model code runs on: tasks
 * backed by Java threads of which exactly one runs at a time, with every kernel primitive a
 * scheduling point where a strategy picks the next task ({@link kmodel.kernel.sched}); wait
 * queues ({@link kmodel.kernel.wait}); spinlocks ({@link kmodel.kernel.locking}); bit operations,
 * {@code atomic_t}, {@code refcount_t} and {@code READ_ONCE} ({@link kmodel.kernel.atomic});
 * object lifetimes ({@link kmodel.kernel.lifetime}); the configuration ({@link
 * kmodel.kernel.Kconfig}) and violations ({@link kmodel.kernel.ViolationKind}).
 *
 * <h2>Lock ordering (the locks this module models)</h2>
 * <pre>
 *   wq_head-&gt;lock                  (kernel/sched/wait.c: __wake_up_common_lock, prepare_to_wait)
 *     p-&gt;state / run queue          (try_to_wake_up from a wake function, under wq_head-&gt;lock)
 *     task-&gt;task_works              (task_work_add from a wake function: io_async_buf_func)
 * </pre>
 *
 * <h2>Limitations</h2>
 * <ul>
 *   <li>Memory model: sequential consistency between scheduling points; acquire/release and
 *       {@code smp_mb()} add nothing, so bugs that need weak ordering are not found.</li>
 *   <li>{@code spin_lock_irq}/{@code _irqsave} behave like {@code spin_lock}: interrupt handlers
 *       are tasks that may run "on another CPU"; lockdep's irq-safety rules are not checked.</li>
 *   <li>Signals: only SIGKILL (fatal) and the TWA_SIGNAL notification are modelled.</li>
 *   <li>The free-running runtime is minimal (no quiescence detection, no trace, no step bound:
 *       {@link kmodel.kernel.sched.Runtime#loopStep} is free there).</li>
 *   <li>List checks are those of {@code CONFIG_DEBUG_LIST} with
 *       {@code CONFIG_BUG_ON_DATA_CORRUPTION} ({@link kmodel.kernel.wait.ListHead}), always on;
 *       the task_work double-add check is the model's own (the kernel has none).</li>
 * </ul>
 */
package kmodel.kernel;
