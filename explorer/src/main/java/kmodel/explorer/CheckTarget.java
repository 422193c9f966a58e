package kmodel.explorer;

import kmodel.kernel.Kconfig;
import kmodel.kernel.sched.Program;

/**
 * What the explorer checks: a named, deterministic program written against the runtime
 * ({@code kmodel.kernel.sched}), with the settings it needs. {@link ModelCheck} explores its
 * interleavings; a replay token names it by {@link #name()}.
 *
 * <p>The explorer knows nothing else of what it checks: the project's scenarios
 * ({@code kmodel.verification.world.Scenario}) implement this interface, and so may any other
 * code written against the runtime.
 */
public interface CheckTarget {
    /** The name, as results and replay tokens carry it. */
    String name();

    /** The target's own settings; a check's configuration is laid over them ({@link Kconfig#overlay}). */
    Kconfig settings();

    /** One execution's program: fresh state, fresh tasks, the same every time. */
    Program program();

    /**
     * The preemption bound the default search ({@link ModelCheck#AUTO}) falls back to when the
     * unbounded search does not finish in its budget: {@link ModelCheck#AUTO_BOUND} unless the
     * target lowers it.
     */
    int autoBound();
}
