package kmodel.explorer;

import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import kmodel.explorer.search.Schedule;
import kmodel.kernel.Violation;
import kmodel.kernel.ViolationKind;

/**
 * What the search of one unit of a split exploration saw ({@link SplitExplorer}), in execution
 * order, so that runs of the units side by side, or on other machines, merge into exactly what
 * one sequential run over the same units reports: executions are numbered from 0 within the
 * unit, and each outcome, step-bound stop and violation carries the number of the execution that
 * reached it first. A merge cut by the execution budget keeps what came before the cut.
 */
public final class UnitResult {
    private final int bound;
    private final int index;
    private final int[] prefix;
    private long executions;
    private boolean finished;
    private final TreeMap<String, Long> outcomes = new TreeMap<>();
    private long[] boundHits = new long[0];
    private int nBoundHits;
    /** Numbers of the executions that ended sleep-set blocked, ascending. */
    private long[] pruned = new long[0];
    private int nPruned;
    private String firstBound;
    /** The schedule of the first execution stopped at the step bound, or null. */
    private int[] boundSchedule;
    private long violationAt = -1;
    private ViolationKind kind;
    private String message;
    private String task;
    private int[] schedule;
    /** The violation itself, when found in this process (absent when read back from a file). */
    private Violation violation;
    private Throwable oops;

    /** An empty result of unit {@code index} of level {@code bound} (the preemption bound, or -1 unbounded). */
    public UnitResult(int bound, int index, int[] prefix) {
        this.bound = bound;
        this.index = index;
        this.prefix = prefix.clone();
    }

    /** The level: the preemption bound this unit was explored with, or -1 for unbounded. */
    public int bound() {
        return bound;
    }

    /** Position of the unit in its level (the order of a sequential run). */
    public int index() {
        return index;
    }

    /** The unit's fixed branching decisions. */
    public int[] prefix() {
        return prefix.clone();
    }

    /** Executions run. */
    public long executions() {
        return executions;
    }

    /** Whether the unit's search ran to its end (not stopped at a violation, a cancel or the budget). */
    public boolean finished() {
        return finished;
    }

    /** Distinct outcomes, each with the number of the first execution that reached it. */
    public Map<String, Long> outcomes() {
        return Collections.unmodifiableMap(outcomes);
    }

    /** Numbers of the executions stopped at the step bound, ascending. */
    public long[] boundHits() {
        return Arrays.copyOf(boundHits, nBoundHits);
    }

    /** The first step-bound report, or null. */
    public String firstBound() {
        return firstBound;
    }

    /** Number of the execution that found the violation, or -1. */
    public long violationAt() {
        return violationAt;
    }

    /** The violation's kind, or null. */
    public ViolationKind kind() {
        return kind;
    }

    /** The violation's message, or null. */
    public String message() {
        return message;
    }

    /** The task that found the violation, or null. */
    public String task() {
        return task;
    }

    /** The failing execution's decisions, or null. */
    public int[] schedule() {
        return schedule != null ? schedule.clone() : null;
    }

    /** The violation, rebuilt from kind, message and task when read back from a file. */
    Violation violation() {
        if (violation == null && kind != null) {
            violation = new Violation(kind, message, task);
        }
        return violation;
    }

    /** The Java exception behind an oops found in this process, or null. */
    Throwable oops() {
        return oops;
    }

    // ---------------------------------------------------------------- recording

    void ran(long n) {
        executions = n;
    }

    void pruned(long at) {
        if (nPruned == pruned.length) {
            pruned = Arrays.copyOf(pruned, Math.max(8, nPruned * 2));
        }
        pruned[nPruned++] = at;
    }

    /** How many of the executions before number {@code limit} ended sleep-set blocked. */
    long prunedBefore(long limit) {
        int lo = 0;
        int hi = nPruned;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (pruned[mid] < limit) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    void outcome(String outcome, long at) {
        outcomes.putIfAbsent(outcome, at);
    }

    void stepBound(String report, long at, Schedule schedule) {
        if (nBoundHits == boundHits.length) {
            boundHits = Arrays.copyOf(boundHits, Math.max(8, nBoundHits * 2));
        }
        boundHits[nBoundHits++] = at;
        if (firstBound == null) {
            firstBound = report;
            boundSchedule = schedule.toArray(); // the first stop's only: later ones copy nothing
        }
    }

    /** The schedule of the first execution stopped at the step bound; null if none. */
    public int[] boundSchedule() {
        return boundSchedule != null ? boundSchedule.clone() : null;
    }

    void violation(Violation v, Throwable oops, int[] schedule, long at) {
        this.violation = v;
        this.oops = oops;
        this.kind = v.kind();
        this.message = v.getMessage();
        this.task = v.task();
        this.schedule = schedule.clone();
        this.violationAt = at;
    }

    void finished(boolean f) {
        finished = f;
    }

    /**
     * Rebuilds a unit's result read back from a file ({@code kmodel merge}). The caller has checked
     * every number against the file's own sizes; this only copies.
     */
    public static UnitResult restore(int bound, int index, int[] prefix, long executions, boolean finished,
            Map<String, Long> outcomes, long[] boundHits, String firstBound, int[] boundSchedule, long violationAt,
            ViolationKind kind, String message, String task, int[] schedule) {
        UnitResult u = new UnitResult(bound, index, prefix);
        u.executions = executions;
        u.finished = finished;
        u.outcomes.putAll(outcomes);
        u.boundHits = boundHits.clone();
        u.nBoundHits = boundHits.length;
        u.firstBound = firstBound;
        u.boundSchedule = boundSchedule != null ? boundSchedule.clone() : null;
        u.violationAt = violationAt;
        u.kind = kind;
        u.message = message;
        u.task = task;
        u.schedule = schedule != null ? schedule.clone() : null;
        return u;
    }
}
