package kmodel.kernel;

import java.util.concurrent.atomic.AtomicInteger;
import kmodel.kernel.lifetime.Lifetimes;
import kmodel.kernel.sched.Runtime;
import kmodel.kernel.sched.Task;

/**
 * The one choke point between model code and the runtime that executes it (loom's "facade vs
 * runtime"). Model code calls kernel-style primitives ({@code Sched}, {@code Wait},
 * {@code Spinlock}, {@code Bitops}, ...); each of them reaches the installed {@link Runtime}
 * through here, and the runtime decides which task runs next.
 *
 * <p>Usually one runtime is installed for the whole JVM ({@link #install}), which keeps
 * {@link #current()} a plain field read on the hot path. Explorations that run side by side
 * ({@code --jobs N}) each bind their own runtime to their own threads instead ({@link
 * #bindThread}); while any such binding is live, every lookup first asks the calling thread for
 * its runtime and falls back to the installed one.
 */
public final class Kernel {
    /** The runtime installed for the whole JVM: read by threads that have none of their own. */
    private static volatile Runtime rt;
    /** Runtimes bound to threads (parallel explorations), or unset. */
    private static final ThreadLocal<Runtime> OWN = new ThreadLocal<>();
    /**
     * Thread bindings live now ({@link #bindingOpened}/{@link #bindingClosed}): non-zero sends every
     * lookup to {@link #OWN} first. A runtime counts itself before it starts a thread that it
     * binds, so such a thread never sees zero.
     */
    private static final AtomicInteger BOUND = new AtomicInteger();
    /**
     * The bound runtime while it is the only one ({@code BOUND == 1}), else null: found without
     * the thread-local lookup (a ThreadLocal read on every primitive costs a third of the
     * speed). Written under {@link #BINDINGS}, together with {@code BOUND}.
     */
    private static volatile Runtime sole;
    /** Guards {@link #sole} and the changes of {@link #BOUND}. */
    private static final Object BINDINGS = new Object();

    private Kernel() {
    }

    /** The runtime of the calling thread: its own binding if it has one, else the installed one. */
    private static Runtime lookup() {
        Runtime only = sole;
        if (only != null) {
            return only;
        }
        if (BOUND.get() != 0) {
            Runtime own = OWN.get();
            if (own != null) {
                return own;
            }
        }
        return rt;
    }

    /**
     * Binds {@code runtime} to the calling thread (null unbinds): model code on this thread talks
     * to it, whatever runtime is installed. Only between {@link #bindingOpened} and
     * {@link #bindingClosed}. Returns the thread's previous binding.
     */
    public static Runtime bindThread(Runtime runtime) {
        Runtime prev = OWN.get();
        if (runtime == null) {
            OWN.remove();
        } else {
            OWN.set(runtime);
        }
        return prev;
    }

    /**
     * {@code runtime} starts binding threads ({@link #bindThread}): lookups ask threads first from
     * now on, or go straight to {@code runtime} while it is the only one. No runtime may be
     * {@linkplain #install installed} for the whole JVM meanwhile.
     */
    public static void bindingOpened(Runtime runtime) {
        synchronized (BINDINGS) {
            sole = BOUND.incrementAndGet() == 1 ? runtime : null;
        }
    }

    /** A runtime that bound threads has stopped them. */
    public static void bindingClosed() {
        synchronized (BINDINGS) {
            BOUND.decrementAndGet();
            sole = null;
        }
    }

    /** Installs the runtime that primitives talk to; returns the previous one. */
    public static Runtime install(Runtime runtime) {
        if (runtime != null && BOUND.get() != 0) {
            throw new IllegalStateException("a runtime is installed for the whole JVM while thread-bound runtimes run");
        }
        Runtime prev = rt;
        rt = runtime;
        return prev;
    }

    /** The installed runtime; a {@code bug-on} style error when model code runs outside one. */
    public static Runtime rt() {
        Runtime r = lookup();
        if (r == null) {
            throw new IllegalStateException("kmodel: model code ran with no runtime installed "
                    + "(use ModelCheck, or FreeRunningRuntime.install() in a unit test)");
        }
        return r;
    }

    /** A name for a new {@link kmodel.kernel.sched.Footprinted} object (0 outside a reducing search). */
    public static long newUid() {
        Runtime r = lookup();
        return r != null ? r.newUid() : 0;
    }

    /**
     * Tells a reducing search that the running step acts on {@code o} although no scheduling
     * point named it (see {@link Runtime#access}); nothing outside a runtime.
     */
    public static void access(Object o) {
        Runtime r = lookup();
        if (r != null) {
            r.access(o);
        }
    }

    /**
     * Tells a reducing search that the running step only reads {@code o} although no scheduling
     * point named it (see {@link Runtime#accessRead}): two steps that only read one object
     * commute. Nothing outside a runtime.
     */
    public static void accessRead(Object o) {
        Runtime r = lookup();
        if (r != null) {
            r.accessRead(o);
        }
    }

    /** The runtime of the calling thread, or null when there is none (no {@code bug-on}). */
    public static Runtime rtOrNull() {
        return lookup();
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
        Runtime r = lookup();
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
