package kmodel.explorer.search;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import kmodel.kernel.sched.FieldAudit;
import kmodel.kernel.sched.Task;

/**
 * The footprint audit's check (issue 25), run beside a reducing search: every plain field and
 * array element access of the model ({@link FieldAudit}, through {@link AuditClassLoader}) is
 * recorded in the step that made it, and when the step ends it is checked against the earlier
 * accesses of other tasks to the same field of the same object. Two accesses conflict when one
 * writes; a conflicting pair must be ordered by the happens-before that the reported footprints
 * give (the steps' vector clocks, built by the rule {@link DporStrategy} uses: two steps are
 * dependent when they name one object and not both only read it). A conflicting pair that the
 * footprints leave unordered is a pair the reduction treats as commuting although it does not:
 * the search could miss the order it never tried, and its "complete" would not hold. The first
 * such pair is the finding, thrown at the end of the execution as an
 * {@link UnreportedAccessException} (never a pass).
 *
 * <p>How strong: it checks the executions the search runs, not all executions. An access that
 * is unordered in some execution the reduced search skipped is seen only if an explored
 * execution shows it too; for a missing footprint, the usual case, the first execution in which
 * both tasks reach the access does (the search explores at least one order of every pair of
 * steps it takes as independent).
 */
public final class FootprintAuditor implements FieldAudit.Sink {
    private static final int READ = 1;
    /**
     * {@code -Dkmodel.audit.stacks=true}: a finding also names the calls that led to the second
     * access (its model frames); slow, for diagnosing a finding.
     */
    static final boolean STACKS = Boolean.getBoolean("kmodel.audit.stacks");

    /** One access of the step under way. */
    private static final class Access {
        final Object owner;
        final String field;
        final int index;
        final boolean write;
        final String site;
        /** Where the access was made, with {@link #STACKS}; else null. */
        final Throwable where = STACKS ? new Throwable() : null;

        Access(Object owner, String field, int index, boolean write, String site) {
            this.owner = owner;
            this.field = field;
            this.index = index;
            this.write = write;
            this.site = site;
        }
    }

    /** The last write of one field (or element) and the reads since it. */
    private static final class Shadow {
        int writer = -1;
        int writerEpoch;
        String writerName;
        String writerSite;
        int[] readers = new int[2];
        int[] readerEpochs = new int[2];
        String[] readerNames = new String[2];
        String[] readerSites = new String[2];
        int nReaders;

        void read(int task, int epoch, String name, String site) {
            for (int i = 0; i < nReaders; i++) {
                if (readers[i] == task) {
                    readerEpochs[i] = epoch;
                    readerSites[i] = site;
                    return;
                }
            }
            if (nReaders == readers.length) {
                readers = Arrays.copyOf(readers, nReaders * 2);
                readerEpochs = Arrays.copyOf(readerEpochs, nReaders * 2);
                readerNames = Arrays.copyOf(readerNames, nReaders * 2);
                readerSites = Arrays.copyOf(readerSites, nReaders * 2);
            }
            readers[nReaders] = task;
            readerEpochs[nReaders] = epoch;
            readerSites[nReaders] = site;
            readerNames[nReaders++] = name;
        }
    }

    /** Per object (by reported uid): the clock of its last write, and the join of the reads since. */
    private static final class Sync {
        int[] write = new int[0];
        int[] reads = new int[0];
    }

    private final ArrayList<Access> step = new ArrayList<>();
    private final IdentityHashMap<Object, Map<Object, Shadow>> shadows = new IdentityHashMap<>();
    private final HashMap<Long, Sync> sync = new HashMap<>();
    private int[][] taskClock = new int[0][];
    private long executions;
    private long accesses;
    private UnreportedAccessException finding;

    /** Set while a finding is described: what {@code toString()} reads is not the model's step. */
    private boolean muted;

    @Override
    public void access(Object owner, String field, int index, boolean write, String site) {
        if (!muted) {
            step.add(new Access(owner, field, index, write, site));
        }
    }

    @Override
    public void beginExecution() {
        step.clear();
        shadows.clear();
        sync.clear();
        taskClock = new int[0][];
        executions++;
    }

    @Override
    public void stepDone(Task task, long[] footprint, int len) {
        int t = task.id();
        if (t >= taskClock.length) {
            taskClock = Arrays.copyOf(taskClock, t + 1);
        }
        int[] clock = taskClock[t] == null ? new int[t + 1] : taskClock[t].clone();
        for (int i = 0; i < len; i++) {
            Sync s = sync.get(footprint[i] >> 2);
            if (s != null) {
                clock = join(clock, s.write);
                if ((footprint[i] & 3) != READ) {
                    clock = join(clock, s.reads);
                }
            }
        }
        if (clock.length <= t) {
            clock = Arrays.copyOf(clock, t + 1);
        }
        clock[t]++;
        taskClock[t] = clock;
        for (int i = 0; i < len; i++) {
            Sync s = sync.computeIfAbsent(footprint[i] >> 2, k -> new Sync());
            if ((footprint[i] & 3) == READ) {
                s.reads = join(s.reads, clock);
            } else {
                s.write = clock;
                s.reads = new int[0];
            }
        }
        for (Access a : step) {
            check(a, t, task.name(), clock);
        }
        accesses += step.size();
        step.clear();
    }

    private void check(Access a, int t, String name, int[] clock) {
        Map<Object, Shadow> fields = shadows.computeIfAbsent(a.owner, k -> new HashMap<>());
        Object key = a.field != null ? a.field : Integer.valueOf(a.index);
        Shadow sh = fields.computeIfAbsent(key, k -> new Shadow());
        if (sh.writer >= 0 && sh.writer != t && !ordered(sh.writer, sh.writerEpoch, clock)) {
            found(sh.writerName, "wrote", sh.writerSite, name, a.write ? "wrote" : "read", a);
        }
        if (a.write) {
            for (int i = 0; i < sh.nReaders; i++) {
                if (sh.readers[i] != t && !ordered(sh.readers[i], sh.readerEpochs[i], clock)) {
                    found(sh.readerNames[i], "read", sh.readerSites[i], name, "wrote", a);
                }
            }
            sh.writer = t;
            sh.writerEpoch = clock[t];
            sh.writerName = name;
            sh.writerSite = a.site;
            sh.nReaders = 0;
        } else {
            sh.read(t, clock[t], name, a.site);
        }
    }

    /** Whether the step numbered {@code epoch} of task {@code u} happens before a step with {@code clock}. */
    private static boolean ordered(int u, int epoch, int[] clock) {
        return u < clock.length && clock[u] >= epoch;
    }

    private void found(String first, String firstDid, String firstSite, String second, String secondDid, Access a) {
        if (finding != null) {
            return;
        }
        String what = a.field != null ? a.field + " of " + describe(a.owner)
                : "element " + a.index + " of " + a.owner.getClass().getSimpleName() + " " + describe(a.owner);
        finding = new UnreportedAccessException("footprint audit: task " + first + " " + firstDid + " " + what
                + " (at " + firstSite + ") and task " + second + " " + secondDid + " it (at " + a.site
                + ") in steps the reduction treated as independent "
                + "(no reported footprint orders them; execution " + executions + "): the partial-order reduction "
                + "may have skipped the other order, so its verdict does not hold; make the access a scheduling "
                + "point (a kmodel.kernel primitive: Shared, AtomicT, Bitops, a lock) or report it "
                + "(Kernel.access for a write, Kernel.accessRead for a read)" + frames(a.where));
    }

    /** The model frames of {@code where} (null: none recorded), for {@link #STACKS}. */
    private static String frames(Throwable where) {
        if (where == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder("; the second access from");
        int n = 0;
        for (StackTraceElement e : where.getStackTrace()) {
            if (e.getClassName().startsWith("kmodel.") && !e.getClassName().startsWith("kmodel.kernel.sched.")
                    && !e.getClassName().startsWith("kmodel.explorer.") && n++ < 12) {
                sb.append(' ').append(e.getFileName()).append(':').append(e.getLineNumber());
            }
        }
        return sb.toString();
    }

    private String describe(Object o) {
        String s;
        muted = true;
        try {
            s = String.valueOf(o);
        } catch (RuntimeException e) {
            s = o.getClass().getSimpleName();
        } finally {
            muted = false;
        }
        if (s.length() > 80) {
            s = s.substring(0, 77) + "...";
        }
        return s.startsWith(o.getClass().getName() + "@") ? o.getClass().getSimpleName() : s;
    }

    private static int[] join(int[] into, int[] from) {
        if (from.length > into.length) {
            into = Arrays.copyOf(into, from.length);
        }
        for (int i = 0; i < from.length; i++) {
            if (from[i] > into[i]) {
                into[i] = from[i];
            }
        }
        return into;
    }

    @Override
    public UnreportedAccessException finding() {
        return finding;
    }

    /** Executions audited so far. */
    public long executions() {
        return executions;
    }

    /** Field and element accesses checked so far. */
    public long accesses() {
        return accesses;
    }
}
