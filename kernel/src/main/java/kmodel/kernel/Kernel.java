package kmodel.kernel;

import kmodel.kernel.lifetime.Lifetimes;
import kmodel.kernel.sched.Runtime;
import kmodel.kernel.sched.Task;

/**
 * The one choke point between model code and the runtime that executes it (loom's "facade vs
 * runtime"). Model code calls kernel-style primitives ({@code Sched}, {@code Wait},
 * {@code Spinlock}, {@code Bitops}, ...); each of them reaches the installed {@link Runtime}
 * through here, and the runtime decides which task runs next.
 *
 * <p>Exactly one runtime is installed at a time in a JVM: explorations are serialised by
 * {@link #install}. This is what keeps {@link #current()} a plain field read on the hot path.
 */
public final class Kernel {
    private static volatile Runtime rt;

    private Kernel() {
    }

    /** Installs the runtime that primitives talk to; returns the previous one. */
    public static Runtime install(Runtime runtime) {
        Runtime prev = rt;
        rt = runtime;
        return prev;
    }

    /** The installed runtime; a {@code bug-on} style error when model code runs outside one. */
    public static Runtime rt() {
        Runtime r = rt;
        if (r == null) {
            throw new IllegalStateException("kmodel: model code ran with no runtime installed "
                    + "(use ModelCheck, or FreeRunningRuntime.install() in a unit test)");
        }
        return r;
    }

    /** A name for a new {@link kmodel.kernel.sched.Footprinted} object (0 outside a reducing search). */
    public static long newUid() {
        Runtime r = rt;
        return r != null ? r.newUid() : 0;
    }

    /**
     * Tells a reducing search that the running step acts on {@code o} although no scheduling
     * point named it (see {@link Runtime#access}); nothing outside a runtime.
     */
    public static void access(Object o) {
        Runtime r = rt;
        if (r != null) {
            r.access(o);
        }
    }

    /** include/asm-generic/current.h: {@code current}, the task running this code. */
    public static Task current() {
        return rt().current();
    }

    /** The configuration (seed patches, sizes, catalog bugs) this execution runs under. */
    public static Kconfig config() {
        return rt().config();
    }

    /** Whether catalog bug {@code id} is switched back in. */
    public static boolean bug(String id) {
        return rt().config().bug(id);
    }

    /** The lifetime tracker of pages, bios, requests and on-stack wait entries. */
    public static Lifetimes lifetimes() {
        return rt().lifetimes();
    }

    /** Records a model-level event for the counterexample diagram (free when not tracing). */
    public static void event(String text) {
        Runtime r = rt();
        if (r.tracing()) {
            r.event(text);
        }
    }

    /** {@link #event(String)} with one argument, formatted only when tracing. */
    public static void event(String fmt, Object a) {
        Runtime r = rt();
        if (r.tracing()) {
            r.event(String.format(fmt, a));
        }
    }

    /** {@link #event(String)} with two arguments, formatted only when tracing. */
    public static void event(String fmt, Object a, Object b) {
        Runtime r = rt();
        if (r.tracing()) {
            r.event(String.format(fmt, a, b));
        }
    }

    /** {@link #event(String)} with three arguments, formatted only when tracing. */
    public static void event(String fmt, Object a, Object b, Object c) {
        Runtime r = rt();
        if (r.tracing()) {
            r.event(String.format(fmt, a, b, c));
        }
    }

    /** Reports a violation of {@code kind} at this step: never returns. */
    public static Violation fail(ViolationKind kind, String message) {
        Runtime r = rt;
        Task t = r != null ? r.current() : null;
        throw new Violation(kind, message, t != null ? t.name() : null);
    }

    /** include/asm-generic/bug.h: {@code BUG_ON(cond)}, reported as {@code bug-on}. */
    public static void BUG_ON(boolean condition, String message) {
        if (condition) {
            fail(ViolationKind.BUG_ON, "BUG_ON: " + message);
        }
    }

    /** include/asm-generic/bug.h: {@code WARN_ON(cond)}; the model treats a warning as a failed check. */
    public static boolean WARN_ON(boolean condition, String message) {
        if (condition) {
            fail(ViolationKind.BUG_ON, "WARN_ON: " + message);
        }
        return condition;
    }
}
