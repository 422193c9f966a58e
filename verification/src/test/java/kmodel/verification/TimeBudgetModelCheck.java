package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.base.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.explorer.Progress;
import kmodel.verification.scenarios.TextbookScenarios;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link ModelCheck#timeBudget(Duration)} and {@link ModelCheck#progress}: tested with a fake
 * ticker that advances a fixed amount per read, so that every cut and every report follows from
 * the number of reads, never from the wall clock.
 */
@Tag("modelcheck")
class TimeBudgetModelCheck {

    /** A ticker that moves {@code step} nanoseconds forward each time it is read. */
    static final class SteppingTicker extends Ticker {
        private final long step;
        private long now;
        int reads;

        SteppingTicker(long step) {
            this.step = step;
        }

        @Override
        public long read() {
            reads++;
            return now += step;
        }
    }

    private static final long MS = 1_000_000L;

    /**
     * 936 executions over bounds 0, 1 and 2 (3,194 with plain DFS; 2026-12-02: fewer since a race
     * adds only the tasks leading to its step, so the time budgets below are 8 ms, not 10).
     */
    private static ModelCheck bound2() {
        return ModelCheck.exhaustive(TextbookScenarios.waitqueue()).preemptions(2);
    }

    @Test
    void aSearchCutByTheTimeBudgetIsIncompleteAndSaysWhatItCovered() {
        CheckResult full = bound2().run();
        assertTrue(full.passed(), full::summaryLine);

        CheckResult cut = bound2().ticker(new SteppingTicker(MS)).timeBudget(Duration.ofMillis(8)).run();
        assertEquals(CheckResult.Verdict.INCOMPLETE, cut.verdict(), cut::summaryLine);
        assertTrue(cut.timeBudgetReached());
        assertFalse(cut.complete());
        assertFalse(cut.budgetReached(), "the execution budget was not reached");
        assertTrue(cut.executions() > 0 && cut.executions() < full.executions(),
                cut.executions() + " of " + full.executions());
        assertTrue(cut.summaryLine().contains("(time budget reached, not exhaustive; complete to preemption bound "),
                cut::summaryLine);
        assertTrue(cut.timeBudgetNote().matches(".*complete to preemption bound \\d, bound \\d about \\d+% explored"),
                cut::timeBudgetNote);
        assertTrue(full.outcomes().containsAll(cut.outcomes()), "a prefix of the same search");

        CheckResult again = bound2().ticker(new SteppingTicker(MS)).timeBudget(Duration.ofMillis(8)).run();
        assertEquals(cut.summaryLine(), again.summaryLine(), "the same ticker readings cut at the same execution");
    }

    @Test
    void aZeroBudgetRunsNoExecution() {
        CheckResult r = bound2().ticker(new SteppingTicker(MS)).timeBudget(Duration.ZERO).run();
        assertEquals(CheckResult.Verdict.INCOMPLETE, r.verdict(), r::summaryLine);
        assertEquals(0, r.executions());
        assertEquals("time budget reached, not exhaustive", r.timeBudgetNote());
    }

    @Test
    void aBudgetThatIsNotReachedChangesNothing() {
        CheckResult plain = bound2().run();
        SteppingTicker ticker = new SteppingTicker(MS);
        CheckResult budgeted = bound2().ticker(ticker).timeBudget(Duration.ofDays(1)).run();
        assertTrue(budgeted.passed(), budgeted::summaryLine);
        assertNull(budgeted.timeBudgetNote());
        assertEquals(plain.summaryLine(), budgeted.summaryLine());
        assertEquals(plain.outcomes(), budgeted.outcomes());
        assertTrue(ticker.reads < plain.executions() / 10,
                "the ticker is read every few executions, not every one: " + ticker.reads + " reads");
    }

    @Test
    void anUnboundedSearchCutByTimeIsUnboundedNotComplete() {
        CheckResult r = ModelCheck.exhaustive(TextbookScenarios.waitqueue()).preemptions(ModelCheck.UNBOUNDED)
                .ticker(new SteppingTicker(MS)).timeBudget(Duration.ofMillis(6)).run();
        assertEquals(CheckResult.Verdict.INCOMPLETE, r.verdict(), r::summaryLine);
        assertFalse(r.strategy().contains("complete"), r::strategy);
        assertTrue(r.timeBudgetNote().matches("time budget reached, not exhaustive; about \\d+% explored"),
                r::timeBudgetNote);
    }

    @Test
    void aSampledSearchCutByTimeSaysHowManyOfItsExecutionsRan() {
        CheckResult r = ModelCheck.random(TextbookScenarios.waitqueue()).executions(5_000)
                .ticker(new SteppingTicker(MS)).timeBudget(Duration.ofMillis(8)).run();
        assertEquals(CheckResult.Verdict.INCOMPLETE, r.verdict(), r::summaryLine);
        assertTrue(r.timeBudgetNote().startsWith("time budget reached after " + String.format("%,d", r.executions())
                + " of 5,000 executions"), r::timeBudgetNote);
    }

    @Test
    void progressReportsCountUpAndEstimateAShareOfTheSearch() {
        List<Progress> reports = new ArrayList<>();
        CheckResult r = bound2().iterative(false).ticker(new SteppingTicker(10 * MS)).progress(reports::add, 0).run();
        assertTrue(r.passed(), r::summaryLine);
        assertTrue(reports.size() >= 5, reports.size() + " reports");
        for (int i = 1; i < reports.size(); i++) {
            Progress a = reports.get(i - 1);
            Progress b = reports.get(i);
            assertTrue(b.executions() > a.executions(), "executions grow");
            assertTrue(b.elapsedNanos() > a.elapsedNanos(), "time grows");
            assertTrue(b.explored() >= 0 && b.explored() <= 1, a.explored() + " then " + b.explored());
        }
        Progress last = reports.get(reports.size() - 1);
        assertTrue(last.executions() < r.executions());
        assertEquals("textbook-waitqueue", last.scenario());
        assertTrue(last.line().matches("textbook-waitqueue  [\\d,]+ executions  [\\d,]+/s  \\d:\\d\\d  bound 2, dpor  ~\\d+%"),
                last::line);
    }

    @Test
    void progressReportsComeOncePerPeriod() {
        List<Progress> everyRead = new ArrayList<>();
        bound2().ticker(new SteppingTicker(10 * MS)).progress(everyRead::add, 0).run();
        List<Progress> everyFourth = new ArrayList<>();
        bound2().ticker(new SteppingTicker(10 * MS)).progress(everyFourth::add, 40 * MS).run();
        assertEquals(everyRead.size() / 4, everyFourth.size(), 1, everyRead.size() + " vs " + everyFourth.size());
    }
}
