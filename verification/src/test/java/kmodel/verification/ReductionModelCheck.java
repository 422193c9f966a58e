package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.verification.catalog.BugCatalog;
import kmodel.verification.world.Scenario;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * Partial-order reduction on the registered scenarios it finishes: the search is complete, it
 * reaches every end state plain DFS reaches at preemption bound 3, in fewer executions, and it
 * finds each catalog bug of those scenarios with the catalog's kind, with a replay token that
 * re-runs the counterexample.
 */
@Tag("modelcheck")
class ReductionModelCheck {
    /** The scenarios the reduced search finishes within the default budget today (see the README). */
    static final Set<String> COMPLETE = Set.of("textbook-waitqueue", "textbook-refcount", "dio-split-clones");

    @TestFactory
    Stream<DynamicTest> theReducedSearchIsCompleteAndCoversPlainDfsAtBound3() {
        return COMPLETE.stream().sorted().map(name -> DynamicTest.dynamicTest(name, () -> {
            Scenario<?> s = ScenarioRegistry.standard().find(name);
            CheckResult reduced = ModelCheck.exhaustive(s).preemptions(ModelCheck.UNBOUNDED).run();
            CheckResult plain = ModelCheck.exhaustive(s).preemptions(3).reduction(false).run();
            assertTrue(reduced.passed() && reduced.complete() && reduced.stepBoundHits() == 0, reduced::summaryLine);
            assertTrue(reduced.strategy().contains("complete"), reduced::summaryLine);
            assertTrue(plain.passed() && plain.complete(), plain::summaryLine);
            assertTrue(reduced.outcomes().containsAll(plain.outcomes()),
                    () -> reduced.outcomes() + " misses some of " + plain.outcomes());
            assertTrue(reduced.executions() < plain.executions(), () -> reduced.summaryLine() + " vs " + plain.summaryLine());
        }));
    }

    @TestFactory
    Stream<DynamicTest> theReducedSearchFindsTheCatalogBugsOfThoseScenarios() {
        return BugCatalog.all().stream().filter(b -> COMPLETE.contains(b.scenario())).map(bug ->
                DynamicTest.dynamicTest(bug.id(), () -> {
                    Scenario<?> s = ScenarioRegistry.standard().find(bug.scenario());
                    Kconfig cfg = KconfigTable.build(List.of(), List.of(bug.id()));
                    CheckResult r = ModelCheck.exhaustive(s).preemptions(ModelCheck.UNBOUNDED).config(cfg).run();
                    assertFalse(r.passed(), r::summaryLine);
                    assertEquals(bug.kind(), r.kind(), () -> r.summaryLine() + "\n" + r.diagram());
                    ModelCheck.Replay replay = ModelCheck.replay(r.token(), ScenarioRegistry.standard(), false);
                    assertEquals(r.violation().summary(), replay.violation().summary());
                    assertEquals(r.diagram(), replay.diagram());
                }));
    }

    /** An unbounded search cut by its budget is not complete, and says so. */
    @TestFactory
    Stream<DynamicTest> aSearchCutByItsBudgetIsNotComplete() {
        return Stream.of(DynamicTest.dynamicTest("page-lock-killable", () -> {
            CheckResult r = ModelCheck.exhaustive(ScenarioRegistry.standard().find("page-lock-killable"))
                    .preemptions(ModelCheck.UNBOUNDED).executions(500).run();
            assertFalse(r.complete(), r::summaryLine);
            assertTrue(r.strategy().contains("unbounded") && !r.strategy().contains("complete"), r::summaryLine);
        }));
    }
}
