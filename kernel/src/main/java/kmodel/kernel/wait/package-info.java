/**
 * Mirrors {@code kernel/sched/wait.c} and {@code include/linux/wait.h} (v5.10): wait queue heads
 * and entries, {@code prepare_to_wait}/{@code finish_wait}, and the {@code __wake_up_common}
 * walk with its return-value contract and bookmarks. Lock rule: everything under
 * {@code wq_head->lock}, except the {@code list_empty_careful}/{@code list_del_init_careful}
 * pair, which is drawn in {@link kmodel.kernel.wait.Wait}. Every list operation is checked as
 * with {@code CONFIG_DEBUG_LIST} ({@link kmodel.kernel.wait.ListHead}), and every iteration of
 * the walk counts against the step bound, so a corrupted (cyclic) queue is reported, never hung on.
 */
package kmodel.kernel.wait;
