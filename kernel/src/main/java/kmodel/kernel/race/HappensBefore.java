package kmodel.kernel.race;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.DeterministicRuntime;
import kmodel.kernel.sched.KernelFunctions;
import kmodel.kernel.sched.Runtime;
import kmodel.kernel.sched.Task;

/**
 * Happens-before for one execution, as vector clocks (one component per task): a task's own
 * steps are ordered, and a release of a synchronisation object (a spinlock's unlock) orders what
 * came before it with what follows the next acquisition of that object. What is ordered this way
 * under the search's sequentially consistent interleavings: spinlocks only, today. The boot task
 * (a scenario's setup and its end checks) is ordered before and after every task: its accesses
 * are not checked.
 *
 * <p>Under {@code --memory-model sc} a race found this way is a real one for the interleaving's
 * order of synchronisation; plain accesses are not scheduling points, so the check adds no
 * executions. Under {@code --memory-model lkmm} the vector clocks are not used: plain accesses are
 * ordered by the LKMM views ({@link #access}, {@code accessByViews}), which release/acquire,
 * fences, lock handoffs, wake-ups and task creation carry. Cost: nothing at a spinlock until a plain access was checked in the execution
 * ({@link #ifAny()}).
 */
public final class HappensBefore {
    private final IdentityHashMap<Task, Integer> ids = new IdentityHashMap<>();
    private final ArrayList<Task> tasks = new ArrayList<>();
    private int[][] clocks = new int[0][];
    private final IdentityHashMap<Object, int[]> sync = new IdentityHashMap<>();

    /** This execution's happens-before, or null where it is not tracked (a free-running runtime, no task). */
    public static HappensBefore current() {
        Runtime rt = Kernel.rtOrNull();
        if (!(rt instanceof DeterministicRuntime)) {
            return null;
        }
        return rt.lifetimes().happensBefore();
    }

    /**
     * This execution's happens-before if a plain access has been checked in it, else null: a
     * synchronisation before the first plain access cannot order two plain accesses, so it need
     * not be recorded (spinlocks cost nothing in executions without plain accesses).
     */
    public static HappensBefore ifAny() {
        Runtime rt = Kernel.rtOrNull();
        if (!(rt instanceof DeterministicRuntime)) {
            return null;
        }
        return rt.lifetimes().happensBeforeIfAny();
    }

    private int id(Task t) {
        Integer i = ids.get(t);
        if (i != null) {
            return i;
        }
        int n = tasks.size();
        ids.put(t, n);
        tasks.add(t);
        clocks = Arrays.copyOf(clocks, n + 1);
        clocks[n] = new int[n + 1];
        clocks[n][n] = 1;
        return n;
    }

    private int[] clock(int id) {
        int[] c = clocks[id];
        if (c.length < tasks.size()) {
            c = Arrays.copyOf(c, tasks.size());
            clocks[id] = c;
        }
        return c;
    }

    private static boolean boot(Task t) {
        return t == null || t.id() < 0;
    }

    /** {@code t} released {@code obj} (unlock): what it did so far happens before the next acquire. */
    public void release(Task t, Object obj) {
        if (boot(t)) {
            return;
        }
        int me = id(t);
        int[] c = clock(me);
        int[] s = sync.get(obj);
        if (s == null || s.length < c.length) {
            s = s == null ? new int[c.length] : Arrays.copyOf(s, c.length);
            sync.put(obj, s);
        }
        for (int i = 0; i < c.length; i++) {
            s[i] = Math.max(s[i], c[i]);
        }
        c[me]++;
    }

    /** {@code t} acquired {@code obj} (lock): it now follows every release of it. */
    public void acquire(Task t, Object obj) {
        if (boot(t)) {
            return;
        }
        int[] s = sync.get(obj);
        if (s == null) {
            return;
        }
        int me = id(t);
        int[] c = clock(me);
        if (c.length < s.length) {
            c = Arrays.copyOf(c, s.length);
            clocks[me] = c;
        }
        for (int i = 0; i < s.length; i++) {
            c[i] = Math.max(c[i], s[i]);
        }
    }

    /** The access history of one plain location (kept by the location). */
    public static final class History {
        int writer = -1;
        int writeEpoch;
        String writeSite;
        int[] readEpochs = new int[0];
        String[] readSites = new String[0];
        /** The execution the history belongs to (a location outliving one is reset). */
        HappensBefore owner;
        // Under --memory-model lkmm (accessByViews): the last write and the reads since, by task
        // and stamp (LkmmTask#stamp).
        Task viewWriter;
        double viewWriteStamp;
        final ArrayList<Task> viewReaders = new ArrayList<>();
        final ArrayList<double[]> viewReadStamps = new ArrayList<>();
        final ArrayList<String> viewReadSites = new ArrayList<>();
    }

    /**
     * A plain access by the current task to the location {@code name} with history {@code h}:
     * reports {@code data-race} if it conflicts with an access not ordered before it.
     */
    public void access(History h, String name, boolean write) {
        Task t = Kernel.current();
        if (boot(t)) {
            return;
        }
        if (h.owner != this) {
            h.owner = this;
            h.writer = -1;
            h.readEpochs = new int[0];
            h.readSites = new String[0];
            h.viewWriter = null;
            h.viewReaders.clear();
            h.viewReadStamps.clear();
            h.viewReadSites.clear();
        }
        Runtime rt = Kernel.rt();
        if (rt instanceof DeterministicRuntime && ((DeterministicRuntime) rt).viewsOrderPlainAccesses()) {
            accessByViews((DeterministicRuntime) rt, t, h, name, write);
            return;
        }
        int me = id(t);
        int[] c = clock(me);
        boolean traced = Kernel.rt().tracing();
        if (h.writer >= 0 && h.writer != me && h.writeEpoch > at(c, h.writer)) {
            report(name, write, "write", h.writer, h.writeSite);
        }
        if (write) {
            for (int r = 0; r < h.readEpochs.length; r++) {
                if (r != me && h.readEpochs[r] > at(c, r)) {
                    report(name, true, "read", r, h.readSites[r]);
                }
            }
            h.writer = me;
            h.writeEpoch = c[me];
            h.writeSite = traced ? stack() : null;
            h.readEpochs = new int[0];
            h.readSites = new String[0];
        } else {
            if (h.readEpochs.length <= me) {
                h.readEpochs = Arrays.copyOf(h.readEpochs, me + 1);
                h.readSites = Arrays.copyOf(h.readSites, me + 1);
            }
            h.readEpochs[me] = c[me];
            h.readSites[me] = traced ? stack() : null;
        }
    }

    /**
     * {@link #access} under {@code --memory-model lkmm}: two plain accesses are ordered when the
     * later task's view covers the earlier access ({@link kmodel.kernel.lkmm.LkmmTask#stamp}): by
     * program order, and by whatever carries views in the approximation (RELEASE to ACQUIRE through
     * a store read, a relaxed read followed by {@code smp_rmb()} or a full barrier, the strong
     * fences' order, spinlock and sleeping-lock handoffs, wake-ups, task creation). That is the
     * LKMM's happens-before as far as the approximation has it; where the approximation is stronger
     * than the LKMM (its barriers), a race the LKMM has may be taken as ordered.
     */
    private void accessByViews(DeterministicRuntime rt, Task t, History h, String name, boolean write) {
        boolean traced = rt.tracing();
        if (h.viewWriter != null && h.viewWriter != t && !rt.orderedAfter(h.viewWriter, h.viewWriteStamp)) {
            reportByViews(name, write, "write", h.viewWriter, h.writeSite);
        }
        if (write) {
            for (int r = 0; r < h.viewReaders.size(); r++) {
                Task reader = h.viewReaders.get(r);
                if (reader != t && !rt.orderedAfter(reader, h.viewReadStamps.get(r)[0])) {
                    reportByViews(name, true, "read", reader, h.viewReadSites.get(r));
                }
            }
        }
        double stamp = rt.plainAccess(write);
        if (write) {
            h.viewWriter = t;
            h.viewWriteStamp = stamp;
            h.writeSite = traced ? stack() : null;
            h.viewReaders.clear();
            h.viewReadStamps.clear();
            h.viewReadSites.clear();
        } else {
            int i = h.viewReaders.indexOf(t);
            if (i < 0) {
                h.viewReaders.add(t);
                h.viewReadStamps.add(new double[] {stamp});
                h.viewReadSites.add(traced ? stack() : null);
            } else {
                h.viewReadStamps.get(i)[0] = stamp;
                h.viewReadSites.set(i, traced ? stack() : null);
            }
        }
    }

    private void reportByViews(String name, boolean write, String otherKind, Task other, String otherSite) {
        report(name, write, otherKind, other.name(), otherSite);
    }

    private static int at(int[] c, int i) {
        return i < c.length ? c[i] : 0;
    }

    private void report(String name, boolean write, String otherKind, int other, String otherSite) {
        report(name, write, otherKind, tasks.get(other).name(), otherSite);
    }

    private void report(String name, boolean write, String otherKind, String otherTask, String otherSite) {
        Task t = Kernel.current();
        String here = stack();
        String first = firstFunction(here);
        String second = firstFunction(otherSite);
        StringBuilder sb = new StringBuilder();
        sb.append("BUG: KCSAN: data-race in ").append(first).append(" / ").append(second == null ? "?" : second);
        sb.append("; ").append(write ? "write" : "read").append(" to ").append(name).append(" by task ")
                .append(t.name()).append(": ").append(here);
        sb.append("; ").append(otherKind).append(" to ").append(name).append(" by task ").append(otherTask)
                .append(": ").append(otherSite == null ? "(its stack is printed when the counterexample is replayed)" : otherSite);
        sb.append("; not ordered by happens-before");
        Kernel.fail(ViolationKind.DATA_RACE, sb.toString());
    }

    private static String firstFunction(String stack) {
        if (stack == null || stack.isEmpty()) {
            return "?";
        }
        int c = stack.indexOf(" <- ");
        return c < 0 ? stack : stack.substring(0, c);
    }

    /** The modelled kernel functions on the current stack, innermost first, joined by {@code <-}. */
    static String stack() {
        StringBuilder sb = new StringBuilder();
        for (StackTraceElement f : new Throwable().getStackTrace()) {
            String cls = f.getClassName();
            if (!cls.startsWith("kmodel.") || cls.startsWith("kmodel.kernel.race.") || cls.startsWith("kmodel.kernel.sched.")
                    || cls.equals("kmodel.kernel.Kernel") || cls.startsWith("kmodel.kernel.atomic.")
                    || cls.startsWith("kmodel.kernel.locking.") || f.getMethodName().startsWith("lambda$")
                    || f.getMethodName().startsWith("<")) {
                continue;
            }
            String n = KernelFunctions.name(f.getMethodName());
            if (n == null) {
                continue;
            }
            if (sb.length() > 0) {
                sb.append(" <- ");
            }
            sb.append(n);
            if (sb.length() > 300) {
                break;
            }
        }
        return sb.length() == 0 ? "(no modelled kernel function)" : sb.toString();
    }
}
