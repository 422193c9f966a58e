package kmodel.verification;

import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.explorer.Portfolio;
import kmodel.verification.world.Scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import kmodel.kernel.ViolationKind;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The default check ({@link ModelCheck#portfolio}, {@code ./kmodel check}) on the many-task programs
 * ({@link kmodel.verification.scenarios.ManyTaskScenarios}, 8 to 12 tasks): each bug is found within
 * a stated budget of executions (counted as the interleaved run counts them, the unbounded phase's
 * 20,000 included where it did not finish), and each correct twin passes, its line saying what was
 * proved and what only sampled. Budgets in executions, never in seconds; seeds fixed (PCT's is the
 * check's, 1).
 */
@Tag("modelcheck")
class PortfolioModelCheck {
    private static Scenario<?> scenario(String name) {
        return ScenarioRegistry.everything().get(name);
    }

    /** Bug, kind, the budget it is found within, and what finds it (the phrase the line must hold). */
    private static final Object[][] BUGS = {
        // the unbounded reduced search finds these: the independent tails or groups cost it nothing
        {"many-tails-9", ViolationKind.BUG_ON, 10L, "unbounded (optimal DPOR with wakeup trees)"},
        {"many-wakeup-8", ViolationKind.MISSED_WAKEUP, 5_000L, "unbounded (optimal DPOR with wakeup trees)"},
        {"many-refs-12", ViolationKind.USE_AFTER_FREE, 100L, "unbounded (optimal DPOR with wakeup trees)"},
        // nine workers on one lock: 9! orders of the critical sections; found by PCT (its 7th execution)
        {"many-lockers-9", ViolationKind.BUG_ON, 20_100L, "found by pct depth 3 seed 1"},
    };

    @TestFactory
    Stream<DynamicTest> eachManyTaskBugIsFoundByTheDefaultWithinItsBudget() {
        return Stream.of(BUGS).map(b -> DynamicTest.dynamicTest((String) b[0], () -> {
            CheckResult r = ModelCheck.portfolio(scenario((String) b[0])).run();
            assertEquals(b[1], r.kind(), r::summaryLine);
            assertTrue(r.executions() <= (Long) b[2], r::summaryLine);
            assertTrue(r.strategy().contains((String) b[3]), r::summaryLine);
            assertTrue(r.token() != null && !r.diagram().isEmpty(), r::summaryLine);
        }));
    }

    /** Found by a sampler: the line names the searches and their counts, no bound as proved. */
    @Test
    void aBugFoundBySamplingSaysWhoFoundItAndClaimsNoBound() {
        CheckResult r = ModelCheck.portfolio(scenario("many-lockers-9")).run();
        assertTrue(r.strategy().startsWith("portfolio: unbounded search not finished in 20,000 executions, then round robin: "
                + "bounded DPOR "), r::summaryLine);
        assertFalse(r.complete(), r::summaryLine);
        // the replay token re-runs the minimised counterexample
        ModelCheck.Replay replay = ModelCheck.replay(r.token(), ScenarioRegistry.everything(), false);
        assertEquals(ViolationKind.BUG_ON, replay.violation().kind());
        // the same result on jobs: the interleaving is computed, not raced
        CheckResult two = ModelCheck.portfolio(scenario("many-lockers-9")).jobs(2).run();
        assertEquals(r.summaryLine(), two.summaryLine());
        assertEquals(r.token(), two.token());
    }

    /** A budget too small for the proof: INCOMPLETE, not PASS, and the samplers' share is stated. */
    @Test
    void aBudgetThatCutsTheProofIsIncompleteAndSaysSoEvenWithTheSamplersClean() {
        CheckResult r = ModelCheck.portfolio(scenario("many-wakeup-8-fixed")).executions(40_000).run();
        assertEquals(CheckResult.Verdict.INCOMPLETE, r.verdict(), r::summaryLine);
        assertTrue(r.budgetReached(), r::summaryLine);
        assertEquals(40_000, r.executions(), r::summaryLine);
        assertTrue(r.summaryLine().contains("exhaustive, preemption bound 0 (DPOR); unbounded search not finished in "
                + "20,000 executions; sampled, no violation (no proof): delay bounding 5,000 executions"), r::summaryLine);
    }

    /** Where the unbounded phase finishes or finds the bug, the portfolio's result is {@code --preemptions auto}'s. */
    @Test
    void whereTheUnboundedPhaseDecidesNothingElseRuns() {
        for (String name : new String[] {"textbook-waitqueue", "many-tails-9", "many-refs-12"}) {
            CheckResult auto = ModelCheck.exhaustive(scenario(name)).preemptions(ModelCheck.AUTO).run();
            CheckResult portfolio = ModelCheck.portfolio(scenario(name)).run();
            assertEquals(auto.summaryLine(), portfolio.summaryLine());
            assertEquals(auto.token(), portfolio.token());
        }
    }

    /**
     * What the portfolio adds to the default check of the standard scenarios must not weaken a
     * verdict: its samplers (PCT depth 3 seed 1 and delay bounding to 3, 5,000 executions each)
     * find no violation and stop at no step bound on any of them (380,000 executions: full tier).
     */
    @TestFactory
    @Tag("full")
    Stream<DynamicTest> theSamplersAreCleanOnEveryStandardScenario() {
        return ScenarioRegistry.standard().all().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> {
            CheckResult p = ModelCheck.pct(s).depth(Portfolio.PCT_DEPTH).seed(1).executions(Portfolio.PCT_EXECUTIONS).run();
            CheckResult d = ModelCheck.exhaustive(s).delayBound(Portfolio.DELAY_BOUND)
                    .executions(Portfolio.DELAY_EXECUTIONS).run();
            assertTrue(p.clean(), p::summaryLine);
            assertTrue(d.clean(), d::summaryLine);
        }));
    }

    @Test
    void theTwinWithIndependentTailsIsComplete() {
        CheckResult r = ModelCheck.portfolio(scenario("many-tails-9-fixed")).run();
        assertTrue(r.passed(), r::summaryLine);
        assertEquals("exhaustive, complete (optimal DPOR with wakeup trees)", r.strategy());
    }

    /**
     * The twins whose unbounded search does not finish pass within their preemption bound (the
     * programs lower it, {@link Scenario.Builder#autoBound}: what the default budget affords), after
     * the samplers' 10,000 executions found nothing. 20,000 + 130,922 + 10,000 executions for
     * {@code many-wakeup-8-fixed} (bound 0), 20,000 + 169,344 + 10,000 for {@code many-refs-12-fixed} (bound
     * 1), 20,000 + 362,880 + 10,000 for {@code many-lockers-9-fixed} (bound 0): the full tier.
     */
    @TestFactory
    @Tag("full")
    Stream<DynamicTest> eachTwinPassesWithinItsBound() {
        Object[][] twins = {
            {"many-wakeup-8-fixed", "exhaustive, preemption bound 0 (DPOR); "},
            {"many-refs-12-fixed", "exhaustive, preemption bound 1 (DPOR); "},
            {"many-lockers-9-fixed", "exhaustive, preemption bound 0 (DPOR); "},
        };
        return Stream.of(twins).map(t -> DynamicTest.dynamicTest((String) t[0], () -> {
            CheckResult r = ModelCheck.portfolio(scenario((String) t[0])).jobs(2).run();
            assertTrue(r.passed(), r::summaryLine);
            assertTrue(r.strategy().startsWith((String) t[1] + "unbounded search not finished in 20,000 executions; "
                    + "sampled, no violation (no proof): delay bounding "), r::summaryLine);
        }));
    }
}
