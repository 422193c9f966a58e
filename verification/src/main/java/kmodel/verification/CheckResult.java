package kmodel.verification;

import java.util.List;
import java.util.Locale;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Violation;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.TraceEvent;

/** What a model check found: counts, and for a violation its kind, diagram and replay token. */
public final class CheckResult {
    private final String scenario;
    private final Kconfig config;
    private final String strategy;
    private final long executions;
    private final int distinctOutcomes;
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

    CheckResult(String scenario, Kconfig config, String strategy, long executions, int distinctOutcomes, long nanos,
            boolean complete, Violation violation, List<TraceEvent> trace, String diagram, String token, long stepBoundHits,
            String firstStepBound, Throwable oops, boolean budgetReached) {
        this.budgetReached = budgetReached;
        this.scenario = scenario;
        this.config = config;
        this.strategy = strategy;
        this.executions = executions;
        this.distinctOutcomes = distinctOutcomes;
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
        return distinctOutcomes;
    }

    /** Wall time of the exploration (reported, never asserted). */
    public long nanos() {
        return nanos;
    }

    /** Whether an exhaustive search covered every execution within its bound. */
    public boolean complete() {
        return complete;
    }

    /** True when no violation was found. */
    public boolean passed() {
        return violation == null;
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

    /** The first step-bound report, or null. */
    public String firstStepBound() {
        return firstStepBound;
    }

    /** The Java exception behind an {@code oops} violation, or null. */
    public Throwable oops() {
        return oops;
    }

    /** Executions per second. */
    public double executionsPerSecond() {
        return nanos == 0 ? 0 : executions * 1e9 / nanos;
    }

    /** One line: PASS/FAIL, scenario, counts. Counts come first so that runs can be compared. */
    public String summaryLine() {
        StringBuilder sb = new StringBuilder();
        sb.append(passed() ? "PASS " : "FAIL ").append(scenario);
        sb.append(String.format(Locale.ROOT, "  %d execution%s, %d outcome%s, %s%s", executions, executions == 1 ? "" : "s",
                distinctOutcomes, distinctOutcomes == 1 ? "" : "s", strategy,
                budgetReached ? " (budget reached, not exhaustive)" : ""));
        if (!config.canonical().isEmpty()) {
            sb.append(" [").append(config.canonical()).append(']');
        }
        if (!passed()) {
            sb.append(": ").append(violation.kind().label());
        }
        if (stepBoundHits > 0) {
            sb.append(String.format(Locale.ROOT, " (%d executions stopped at the step bound)", stepBoundHits));
        }
        return sb.toString();
    }
}
