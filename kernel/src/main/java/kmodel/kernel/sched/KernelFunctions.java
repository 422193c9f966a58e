package kmodel.kernel.sched;

/**
 * Names the modelled kernel function a trace event happened in, for the counterexample diagram
 * ({@code wake_page_function}, {@code finish_wait}, ...), so that a reader can put the kernel
 * source beside it. Only the traced replay of a counterexample asks, so exploration pays nothing.
 *
 * <p>The name comes from the innermost model frame on the stack, through the project's naming
 * convention (STYLE.md, "Variants by suffix"): a model method mirrors a kernel function and keeps
 * its name in camelCase, so {@code __wakeUpCommon} is {@code __wake_up_common} and
 * {@code lockPageKillable} is {@code lock_page_killable}; a version suffix ({@code V510},
 * {@code V57}) is dropped; a name that starts with a capital letter is a kernel macro kept as
 * it is ({@code PageLocked}). Frames skipped, so that the row names the function that called
 * them: the runtime itself and {@code Kernel}; the scheduler core ({@code Sched} but task_work:
 * {@code schedule()}, {@code try_to_wake_up()} and signals are what the row's text already
 * says, "sleeps", "wakes", "SIGKILL"); the primitives (bit ops, atomics, {@code READ_ONCE},
 * list operations, spinlocks); lambdas, constructors, assertion macros
 * ({@code VM_BUG_ON_PAGE}), instance methods (accessors of a structure) and private helpers. {@code KernelFunctionsTest} checks that every name the diagram of
 * a few catalog bugs shows is a function some model method's Javadoc names. When the
 * innermost remaining frame is not model code (a scenario's or a test's task body, the
 * runtime's own "exits"), there is no name.
 */
public final class KernelFunctions {
    private KernelFunctions() {
    }

    /** The kernel function of the innermost model frame of the calling thread, or null. */
    static String ofCurrentStack() {
        // A Throwable's stack trace, not StackWalker: its walk takes a stream, which the model
        // modules do not use (ModelRulesArchTest). Only the traced replay pays for it.
        return ofTrace(new Throwable().getStackTrace());
    }

    /** The kernel function of the innermost model frame of {@code t}'s stack trace, or null. */
    static String ofThrowable(Throwable t) {
        return ofTrace(t.getStackTrace());
    }

    private static String ofTrace(StackTraceElement[] frames) {
        for (StackTraceElement f : frames) {
            int verdict = classify(f.getClassName(), f.getMethodName());
            if (verdict == MODEL) {
                return name(f.getMethodName());
            }
            if (verdict == STOP) {
                return null;
            }
        }
        return null;
    }

    private static final int SKIP = 0;
    private static final int MODEL = 1;
    private static final int STOP = 2;

    private static int classify(String cls, String method) {
        if (!cls.startsWith("kmodel.")) {
            return SKIP; // the JDK (a collection, a lambda's bridge)
        }
        if (!cls.startsWith("kmodel.kernel.") && !cls.startsWith("kmodel.mm.") && !cls.startsWith("kmodel.block.")
                && !cls.startsWith("kmodel.fs.") && !cls.startsWith("kmodel.iouring.")) {
            return STOP; // not the model's modules: scenario, world, simulation, explorer, test or harness code
        }
        if (cls.equals("kmodel.kernel.Kernel") || cls.startsWith("kmodel.kernel.sched.DeterministicRuntime")
                || cls.equals("kmodel.kernel.sched.KernelFunctions") || cls.startsWith("kmodel.kernel.sched.Task")
                || cls.startsWith("kmodel.kernel.atomic.") || cls.equals("kmodel.kernel.wait.ListHead")
                || cls.equals("kmodel.kernel.locking.Spinlock") || cls.startsWith("kmodel.kernel.lifetime.")) {
            return SKIP; // the runtime, the lifetime checks, primitives whose row text names them
        }
        if (cls.equals("kmodel.kernel.sched.Sched") && !method.startsWith("taskWork") && !method.equals("doExit")) {
            return SKIP; // schedule(), try_to_wake_up(), signals: the row says "sleeps", "wakes", "SIGKILL"
        }
        if (method.startsWith("lambda$") || method.equals("<init>") || method.equals("<clinit>")
                || method.startsWith("access$") || method.equals("run") || method.matches("[A-Z_]+")) {
            return SKIP; // an assertion macro (VM_BUG_ON_PAGE): the function is its caller
        }
        return modelFunction(cls, method) ? MODEL : SKIP;
    }

    /**
     * Whether {@code cls} has a static, non-private method {@code method}: model functions are
     * static, in kernel style. An instance method is an accessor or primitive of a structure
     * ({@code loadAcquireFlags}, {@code touch}), a private one a helper (a {@code test_bit}
     * wrapper that also marks the page touched): the row names the function that called them.
     * Reflection, but only while tracing.
     */
    private static boolean modelFunction(String cls, String method) {
        Class<?> c;
        try {
            c = Class.forName(cls, false, KernelFunctions.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            return false;
        }
        for (java.lang.reflect.Method m : c.getDeclaredMethods()) {
            int mod = m.getModifiers();
            if (m.getName().equals(method) && java.lang.reflect.Modifier.isStatic(mod)
                    && !java.lang.reflect.Modifier.isPrivate(mod)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The kernel name of a model method: camelCase to snake_case, leading underscores kept, a
     * trailing version suffix ({@code V510}) dropped; a name starting with a capital is kept.
     */
    public static String name(String method) {
        String m = method.replaceFirst("V[0-9]+$", "");
        int lead = 0;
        while (lead < m.length() && m.charAt(lead) == '_') {
            lead++;
        }
        if (lead < m.length() && Character.isUpperCase(m.charAt(lead))) {
            return m;
        }
        StringBuilder sb = new StringBuilder(m.substring(0, lead));
        for (int i = lead; i < m.length(); i++) {
            char c = m.charAt(i);
            if (Character.isUpperCase(c)) {
                char prev = m.charAt(i - 1);
                if (prev != '_' && (Character.isLowerCase(prev) || Character.isDigit(prev)
                        || i + 1 < m.length() && Character.isLowerCase(m.charAt(i + 1)))) {
                    sb.append('_');
                }
                sb.append(Character.toLowerCase(c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
