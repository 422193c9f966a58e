package kmodel.explorer;

import com.google.common.base.Ticker;
import java.util.function.Consumer;
import kmodel.explorer.search.ExplorationStrategy;

/**
 * The clock of a running check: its time budget and its progress reports. Asked before every
 * execution, it reads the ticker only every {@code interval} executions, and adapts the interval
 * so that it reads the ticker about every {@value #TARGET_MILLIS} ms (at most every
 * {@value #MAX_INTERVAL} executions): at 100,000 executions/s that is one read per thousand or
 * so executions, which the explorer does not feel. A time budget is therefore overshot by a few
 * tens of milliseconds at most (plus the execution under way).
 *
 * <p>Everything it decides follows from the ticker's readings, so a fake ticker (the tests')
 * makes it deterministic.
 */
final class Pacer {
    private static final long TARGET_MILLIS = 10;
    private static final long TARGET = TARGET_MILLIS * 1_000_000L;
    private static final long MAX_INTERVAL = 4096;

    private final Ticker ticker;
    /** Nanoseconds the check may take; negative: no time budget. */
    private final long budget;
    private final Consumer<Progress> listener;
    private final long period;
    private final String scenario;
    private final long start;
    private long interval = 1;
    /** Executions until the next ticker read; the first read comes before the first execution. */
    private long countdown = 1;
    private long lastRead;
    private long lastReport;

    Pacer(Ticker ticker, long budgetNanos, Consumer<Progress> listener, long periodNanos, String scenario) {
        this.ticker = ticker;
        this.budget = budgetNanos;
        this.listener = listener;
        this.period = periodNanos;
        this.scenario = scenario;
        this.start = ticker.read();
        this.lastRead = start;
        this.lastReport = start;
    }

    /** Whether a ticker is read at all: a time budget or a progress listener. */
    boolean active() {
        return budget >= 0 || listener != null;
    }

    /**
     * Called before each execution with the executions run so far; true when the time budget is
     * spent and the search must stop. Reports progress when a period has passed since the last
     * report. {@code sampled} is the number of executions asked for (random, PCT), or -1.
     */
    boolean timeUp(ExplorationStrategy s, long executions, long sampled) {
        if (--countdown > 0) {
            return false;
        }
        long now = ticker.read();
        long since = now - lastRead;
        if (since < TARGET / 2 && interval < MAX_INTERVAL) {
            interval *= 2;
        } else if (since > 2 * TARGET && interval > 1) {
            interval /= 2;
        }
        countdown = interval;
        lastRead = now;
        if (budget >= 0 && now - start >= budget) {
            return true;
        }
        if (listener != null && now - lastReport >= period) {
            lastReport = now;
            listener.accept(new Progress(scenario, s.describe(), executions, now - start, explored(s, executions, sampled)));
        }
        return false;
    }

    /** Nanoseconds since the check started. */
    long elapsed() {
        return ticker.read() - start;
    }

    static double explored(ExplorationStrategy s, long executions, long sampled) {
        return sampled > 0 ? Math.min(1.0, (double) executions / sampled) : s.explored();
    }
}
