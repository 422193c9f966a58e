package kmodel.kernel.sched;

/**
 * The footprint audit's hooks (issue 25): the checking mode that sees every plain field and array
 * element access of the model and tells when two tasks touched the same one in steps that the
 * partial-order reduction took as independent.
 *
 * <p>Nothing calls these hooks in the classes the JVM loads normally, so they cost nothing
 * there. The audit runs a check inside a class loader of its own that rewrites the bytecode of
 * the model's and the scenarios' classes (ASM; {@code kmodel.explorer.search.AuditClassLoader}):
 * every {@code getfield}/{@code putfield} of a non-final field of a {@code kmodel} class and every
 * array element load and store then calls {@link #getfield}, {@link #putfield}, {@link #element}
 * or one of the {@code *astore} methods first. Classes of the runtime and of the explorer are not
 * rewritten: their bookkeeping is not the model's state.
 *
 * <p>While a {@link Sink} is installed ({@link #install}, in that class loader only), the
 * deterministic runtime hands it every step's footprint with the task that took it
 * ({@link Sink#stepDone}) when a reducing strategy runs, and throws the sink's
 * {@link Sink#finding()} at the end of the execution in which it found one.
 */
public final class FieldAudit {
    /** Receives the accesses, the steps and the executions of a check under audit. */
    public interface Sink {
        /**
         * {@code owner.field} (a field's {@code Class.field} name) or {@code owner[index]}
         * ({@code field} null) was accessed at {@code site} ({@code File.java:line}).
         */
        void access(Object owner, String field, int index, boolean write, String site);

        /** An execution starts: accesses made before this (the scenario's setup) are forgotten. */
        void beginExecution();

        /** {@code task} ended a step whose reported footprint is {@code footprint[0..len)} ({@link Strategy#stepDone}). */
        void stepDone(Task task, long[] footprint, int len);

        /** The first unreported conflict found, or null. */
        RuntimeException finding();
    }

    private static volatile Sink sink;

    /**
     * How deep the running thread is in static initialisers: accesses made while a class is
     * initialised are not reported, since the JVM's class-initialisation lock orders them before
     * every use of the class (JLS 12.4.2). Written only by the thread it counts.
     */
    private static final ThreadLocal<int[]> CLINIT_DEPTH = ThreadLocal.withInitial(() -> new int[1]);

    private FieldAudit() {
    }

    /** At the start of a static initialiser (rewritten classes only). */
    public static void clinitEnter() {
        CLINIT_DEPTH.get()[0]++;
    }

    /** Before a static initialiser returns. */
    public static void clinitExit() {
        CLINIT_DEPTH.get()[0]--;
    }

    private static Sink reporting() {
        Sink s = sink;
        return s == null || CLINIT_DEPTH.get()[0] > 0 ? null : s;
    }

    /** Installs {@code s} (null: none) for the executions that follow; returns the previous one. */
    public static Sink install(Sink s) {
        Sink prev = sink;
        sink = s;
        return prev;
    }

    /** The installed sink, or null. */
    public static Sink sink() {
        return sink;
    }

    /** Before a {@code getfield} of {@code field} on {@code owner}. */
    public static void getfield(Object owner, String field, String site) {
        Sink s = reporting();
        if (s != null && owner != null) {
            s.access(owner, field, -1, false, site);
        }
    }

    /** Before a {@code putfield} of {@code field} on {@code owner}. */
    public static void putfield(Object owner, String field, String site) {
        Sink s = reporting();
        if (s != null && owner != null) {
            s.access(owner, field, -1, true, site);
        }
    }

    /** Before an array element load ({@code iaload}, {@code aaload}, ...). */
    public static void element(Object array, int index, String site) {
        Sink s = reporting();
        if (s != null && array != null) {
            s.access(array, null, index, false, site);
        }
    }

    private static void stored(Object array, int index, String site) {
        Sink s = reporting();
        if (s != null && array != null) {
            s.access(array, null, index, true, site);
        }
    }

    /** {@code iastore}, reported. */
    public static void iastore(int[] a, int i, int v, String site) {
        stored(a, i, site);
        a[i] = v;
    }

    /** {@code lastore}, reported. */
    public static void lastore(long[] a, int i, long v, String site) {
        stored(a, i, site);
        a[i] = v;
    }

    /** {@code fastore}, reported. */
    public static void fastore(float[] a, int i, float v, String site) {
        stored(a, i, site);
        a[i] = v;
    }

    /** {@code dastore}, reported. */
    public static void dastore(double[] a, int i, double v, String site) {
        stored(a, i, site);
        a[i] = v;
    }

    /** {@code aastore}, reported (the array store check is the same: {@code a[i] = v}). */
    public static void aastore(Object[] a, int i, Object v, String site) {
        stored(a, i, site);
        a[i] = v;
    }

    /** {@code bastore} on a {@code byte[]} or a {@code boolean[]} (the instruction serves both). */
    public static void bastore(Object a, int i, int v, String site) {
        stored(a, i, site);
        if (a instanceof boolean[]) {
            ((boolean[]) a)[i] = (v & 1) != 0;
        } else {
            ((byte[]) a)[i] = (byte) v;
        }
    }

    /** {@code castore}, reported. */
    public static void castore(char[] a, int i, int v, String site) {
        stored(a, i, site);
        a[i] = (char) v;
    }

    /** {@code sastore}, reported. */
    public static void sastore(short[] a, int i, int v, String site) {
        stored(a, i, site);
        a[i] = (short) v;
    }
}
