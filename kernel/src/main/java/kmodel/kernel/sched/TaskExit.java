package kmodel.kernel.sched;

import kmodel.kernel.Violation;
import kmodel.kernel.ViolationKind;

/**
 * What both runtimes report about a task that returns or crashes: kernel/exit.c's view of a task
 * leaving with a lock held ({@code do_exit()} warns "lock held when returning to user space" in
 * the kernel, {@code lockdep}'s {@code debug_check_no_locks_held()}), and the message of an
 * {@code oops}. Shared by {@link DeterministicRuntime} and {@link FreeRunningRuntime}, so that a
 * free run reports what an explored execution reports, word for word.
 */
final class TaskExit {
    private TaskExit() {
    }

    /**
     * kernel/locking/lockdep.c: {@code debug_check_no_locks_held()} at exit: a task that returns
     * holding a spinlock or a sleeping lock is a {@code lock-leak}; null when it holds none.
     */
    static Violation lockLeak(Task t) {
        if (t.locksHeld > 0) {
            return new Violation(ViolationKind.LOCK_LEAK, t.name() + " exited holding " + t.locksHeld + " spinlock(s)",
                    t.name());
        }
        if (!t.heldLocks().isEmpty()) {
            return new Violation(ViolationKind.LOCK_LEAK, t.name() + " exited holding " + t.heldLocks().get(0).lockName(),
                    t.name());
        }
        return null;
    }

    /**
     * The message of an {@code oops}: the task, the exception and the model frame it came from,
     * e.g. {@code oops in t1: java.lang.NullPointerException: ... at
     * kmodel.mm.Filemap.unlockPage(Filemap.java:293)}. The model frame is the first frame, from the
     * top, of a class in a {@code kmodel.} package that is not a runtime: for an exception
     * thrown inside the JDK (a collection, {@code Objects.requireNonNull}) or inside the runtime
     * (a primitive handed a null task), that is the model code that called it.
     */
    static String oopsMessage(String task, Throwable e) {
        StringBuilder sb = new StringBuilder("oops in ").append(task).append(": ").append(e);
        StackTraceElement f = modelFrame(e);
        if (f != null) {
            // Formatted by hand: StackTraceElement.toString() may prefix a class loader or module.
            sb.append(" at ").append(f.getClassName()).append('.').append(f.getMethodName()).append('(')
                    .append(f.getFileName() != null ? f.getFileName() : "Unknown Source");
            if (f.getLineNumber() >= 0) {
                sb.append(':').append(f.getLineNumber());
            }
            sb.append(')');
        }
        return sb.toString();
    }

    /** The first stack frame of {@code e} in a {@code kmodel.} class other than the runtimes, or null. */
    static StackTraceElement modelFrame(Throwable e) {
        for (StackTraceElement f : e.getStackTrace()) {
            String c = f.getClassName();
            if (c.startsWith("kmodel.") && !c.startsWith("kmodel.kernel.sched.DeterministicRuntime")
                    && !c.startsWith("kmodel.kernel.sched.FreeRunningRuntime")) {
                return f;
            }
        }
        return null;
    }
}
