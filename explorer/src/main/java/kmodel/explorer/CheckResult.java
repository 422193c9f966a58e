package kmodel.explorer;

import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.SortedSet;
import java.util.TreeSet;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Violation;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.TraceEvent;

/**
 * What a model check found: counts, and for a violation its kind, diagram and replay token.
 *
 * <h2>What "passed" means</h2>
 * A check {@link #passed() passes} only when it is both
 * <ul>
 *   <li>{@link #clean() clean}: no violation, and no execution stopped at the step bound (a run
 *       stopped there was never checked to its end: no quiescence, leak or end-state check), and</li>
 *   <li>{@link #complete() complete}: the exploration ran to its end. For exhaustive search, every
 *       execution within the preemption bound was explored (the search was not cut by its
 *       execution budget); for random and PCT, every execution asked for ran.</li>
 * </ul>
 * The {@link #verdict()} says which of the four cases a check is in; the command line prints it as
 * the first word of the scenario's line. Tests that need less than a pass say so: a sampled check
 * may assert {@link #clean()} alone.
 */
public final class CheckResult {
    /** The four outcomes of a check, printed as the first word of its summary line. */
    public enum Verdict {
        /** Clean and complete: no violation, no step-bound stop, the exploration ran to its end. */
        PASS,
        /** A violation was found (the exploration stopped there). */
        FAIL,
        /** No violation, but some execution was stopped at the step bound and never checked to its end. */
        BOUND,
        /**
         * No violation and no step-bound stop, but the search was cut: by the execution budget
         * (exhaustive search), or by the time budget.
         */
        INCOMPLETE
    }

    private final String scenario;
    private final Kconfig config;
    private final String strategy;
    private final long executions;
    private final SortedSet<String> outcomes;
    private final long nanos;
    private final boolean complete;
    private final Violation violation;
    private final List<TraceEvent> trace;
    private final String diagram;
    private final String token;
    private final long stepBoundHits;
    private final String firstStepBound;
    private final Throwable oops;
    private final boolean budgetReached;
    /** The units behind a split search ({@link SplitExplorer}), or null. */
    private SplitRun split;
    /** Set when the time budget cut the search: what it covered. */
    private String timeBudgetNote;
    /** The replay token of the first execution stopped at the step bound, or null. */
    private String stepBoundToken;
    /**
     * Executions of the reduced searches that ended sleep-set blocked (every runnable task asleep:
     * redundant, pruned, no end state), counted in {@link #executions}.
     */
    private long sleepBlocked;

    CheckResult(String scenario, Kconfig config, String strategy, long executions, SortedSet<String> outcomes, long nanos,
            boolean complete, Violation violation, List<TraceEvent> trace, String diagram, String token, long stepBoundHits,
            String firstStepBound, Throwable oops, boolean budgetReached) {
        this.budgetReached = budgetReached;
        this.scenario = scenario;
        this.config = config;
        this.strategy = strategy;
        this.executions = executions;
        this.outcomes = Collections.unmodifiableSortedSet(new TreeSet<>(outcomes));
        this.nanos = nanos;
        this.complete = complete;
        this.violation = violation;
        this.trace = trace;
        this.diagram = diagram;
        this.token = token;
        this.stepBoundHits = stepBoundHits;
        this.firstStepBound = firstStepBound;
        this.oops = oops;
    }

    public String scenario() {
        return scenario;
    }

    public Kconfig config() {
        return config;
    }

    /** e.g. "exhaustive, preemption bound 2". */
    public String strategy() {
        return strategy;
    }

    /** Executions run. */
    public long executions() {
        return executions;
    }

    /** Distinct terminal outcomes (the scenario's end-state summaries) among passing executions. */
    public int distinctOutcomes() {
        return outcomes.size();
    }

    /** The distinct terminal outcomes themselves, sorted. */
    public SortedSet<String> outcomes() {
        return outcomes;
    }

    /** Wall time of the exploration (reported, never asserted). */
    public long nanos() {
        return nanos;
    }

    /**
     * Whether the exploration ran to its end: an exhaustive search explored every execution within
     * its preemption bound (not cut by the execution budget, not stopped at a violation); random
     * and PCT ran every execution asked for.
     */
    public boolean complete() {
        return complete;
    }

    /** Records that the time budget cut the search, and what it covered ({@code note}; null: not cut). */
    CheckResult timeBudgetReached(String note) {
        this.timeBudgetNote = note;
        return this;
    }

    /** Whether the time budget ({@code --time-budget}) stopped the search; it is then not complete. */
    public boolean timeBudgetReached() {
        return timeBudgetNote != null;
    }

    /**
     * What a search cut by the time budget covered, e.g. "time budget reached, not exhaustive;
     * complete to preemption bound 1, bound 2 about 37% explored", or null when it was not cut.
     */
    public String timeBudgetNote() {
        return timeBudgetNote;
    }

    /** Whether the execution budget cut an exhaustive search short ("not exhaustive"). */
    public boolean budgetReached() {
        return budgetReached;
    }

    /** No violation, and no execution stopped at the step bound. Says nothing about completeness. */
    public boolean clean() {
        return violation == null && stepBoundHits == 0;
    }

    /** {@link #clean()} and {@link #complete()}: the only result printed as {@code PASS}. */
    public boolean passed() {
        return clean() && complete();
    }

    /**
     * Executions that ended sleep-set blocked: pruned as redundant by the reduced search, with no
     * end state (counted in {@link #executions()}). 0 for optimal DPOR in a deterministic model; not
     * kept by {@code --shard} files (a merge counts 0 for them).
     */
    public long sleepBlocked() {
        return sleepBlocked;
    }

    CheckResult sleepBlocked(long n) {
        this.sleepBlocked = n;
        return this;
    }

    /** PASS, FAIL, BOUND or INCOMPLETE; see the class comment. */
    public Verdict verdict() {
        if (violation != null) {
            return Verdict.FAIL;
        }
        if (stepBoundHits > 0) {
            return Verdict.BOUND;
        }
        return complete ? Verdict.PASS : Verdict.INCOMPLETE;
    }

    /** The violation, or null. */
    public Violation violation() {
        return violation;
    }

    /** The violation's kind, or null. */
    public ViolationKind kind() {
        return violation != null ? violation.kind() : null;
    }

    /** The replayed counterexample's events (empty when passed). */
    public List<TraceEvent> trace() {
        return trace;
    }

    /** The counterexample diagram (empty when passed). */
    public String diagram() {
        return diagram;
    }

    /** The replay token of the counterexample, or null. */
    public String token() {
        return token;
    }

    /** Executions stopped by the step bound. */
    public long stepBoundHits() {
        return stepBoundHits;
    }

    /**
     * The replay token of the first execution stopped at the step bound; null when none stopped
     * there, when the check's step bound was not the default (replay runs with the default, so
     * the schedule would not fit), or when the result was merged from shards' JSON files written
     * before they kept the stop's schedule ({@code firstStepBoundSchedule}).
     */
    public String stepBoundToken() {
        return stepBoundToken;
    }

    CheckResult stepBoundToken(String t) {
        this.stepBoundToken = t;
        return this;
    }

    /** The first step-bound report, or null. */
    public String firstStepBound() {
        return firstStepBound;
    }

    /** The Java exception behind an {@code oops} violation, or null. */
    public Throwable oops() {
        return oops;
    }

    /** The units of a split search and what each explored ({@code --jobs}, {@code --json}), or null. */
    public SplitRun split() {
        return split;
    }

    void split(SplitRun run) {
        this.split = run;
    }

    /** Executions per second. */
    public double executionsPerSecond() {
        return nanos == 0 ? 0 : executions * 1e9 / nanos;
    }

    /**
     * One line: the verdict (PASS, FAIL, BOUND, INCOMPLETE), scenario, counts. Counts come first so
     * that runs can be compared.
     */
    public String summaryLine() {
        StringBuilder sb = new StringBuilder();
        sb.append(verdict()).append(' ').append(scenario);
        sb.append(String.format(Locale.ROOT, "  %d execution%s, %d outcome%s, %s%s", executions, executions == 1 ? "" : "s",
                outcomes.size(), outcomes.size() == 1 ? "" : "s", strategy,
                budgetReached ? " (budget reached, not exhaustive)" : timeBudgetNote != null ? " (" + timeBudgetNote + ")" : ""));
        if (!config.canonical().isEmpty()) {
            sb.append(" [").append(config.canonical()).append(']');
        }
        if (violation != null) {
            sb.append(": ").append(violation.kind().label());
        }
        if (stepBoundHits > 0) {
            sb.append(String.format(Locale.ROOT, " (%d executions stopped at the step bound)", stepBoundHits));
        }
        return sb.toString();
    }
}
