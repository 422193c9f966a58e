/**
 * Mirrors {@code kernel/sched/core.c}, {@code include/linux/sched.h},
 * {@code include/linux/sched/signal.h}, {@code kernel/task_work.c} and {@code kernel/exit.c}:
 * {@link kmodel.kernel.sched.Task} ({@code task_struct}), {@link kmodel.kernel.sched.Sched}
 * ({@code set_current_state}, {@code schedule}, {@code try_to_wake_up}, signals, task_work), and
 * the two runtimes that execute model code: {@link kmodel.kernel.sched.DeterministicRuntime}
 * (one task at a time, a {@link kmodel.kernel.sched.Strategy} picks at every scheduling point)
 * and {@link kmodel.kernel.sched.FreeRunningRuntime} (real threads, for JPF and Lincheck).
 */
package kmodel.kernel.sched;
