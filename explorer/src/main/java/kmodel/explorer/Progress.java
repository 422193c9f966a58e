package kmodel.explorer;

import java.util.Locale;

/**
 * A snapshot of a running check, handed to the listener set with
 * {@link ModelCheck#progress(java.util.function.Consumer, long)} a few times a second: for a
 * progress line on a terminal. Nothing in it is deterministic except the scenario and strategy.
 */
public final class Progress {
    private final String scenario;
    private final String strategy;
    private final long executions;
    private final long elapsedNanos;
    private final double explored;

    Progress(String scenario, String strategy, long executions, long elapsedNanos, double explored) {
        this.scenario = scenario;
        this.strategy = strategy;
        this.executions = executions;
        this.elapsedNanos = elapsedNanos;
        this.explored = explored;
    }

    /** The scenario being checked. */
    public String scenario() {
        return scenario;
    }

    /** The search under way, e.g. "exhaustive, preemption bound 3" (the bound now being explored). */
    public String strategy() {
        return strategy;
    }

    /** Executions run so far (all bounds of an iterative search together). */
    public long executions() {
        return executions;
    }

    /** Time since the check started, by the check's ticker. */
    public long elapsedNanos() {
        return elapsedNanos;
    }

    /**
     * Estimated share of the search under way already done (of the current preemption bound for
     * an iterative search; executions over the number asked for, for PCT and random), 0 to 1, or
     * NaN when it cannot be estimated.
     */
    public double explored() {
        return explored;
    }

    /** Executions per second so far. */
    public double rate() {
        return elapsedNanos <= 0 ? 0 : executions * 1e9 / elapsedNanos;
    }

    /**
     * The progress line without its line control: {@code scenario  executions  rate  elapsed
     * [strategy, share]}, e.g. {@code read-error  1,234,567 executions  45,678/s  0:27  bound 3  ~41%}.
     */
    public String line() {
        long s = elapsedNanos / 1_000_000_000L;
        String elapsed = s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
        // Short, to fit a terminal line: "bound 3", "unbounded, dpor" (a search under way is not
        // complete yet), "pct, depth 3, seed 1, 10000 executions".
        String where = strategy.replace("exhaustive, ", "").replace("preemption bound", "bound")
                .replace("complete", "unbounded");
        boolean dpor = where.contains("DPOR");
        where = where.replaceAll(" \\(.*\\)", "") + (dpor ? ", dpor" : "");
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%s  %,d executions  %,.0f/s  %s  %s",
                scenario, executions, rate(), elapsed, where));
        if (!Double.isNaN(explored)) {
            sb.append(String.format(Locale.ROOT, "  ~%.0f%%", Math.floor(100 * explored)));
        }
        return sb.toString();
    }
}
