package kmodel.verification.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.verification.KconfigTable;
import kmodel.verification.ScenarioRegistry;
import kmodel.verification.world.Scenario;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link BarrierBugsModelCheck}'s sequentially consistent half at {@code ./kmodel check}'s
 * default strategy ({@code auto}, the portfolio): each barrier bug switched in, its scenario still
 * passes, with the same executions as without it (tens of seconds each, hence the full tier).
 * And the lkmm half {@link BarrierBugsModelCheck} leaves here: the barrier bugs too slow to find
 * in the fast tier, and each scenario passing under lkmm without its bug at the bound that finds
 * the bug (tag-waiters complete, 27,204 executions; page-lock-killable 25,295 at bound 1;
 * uring-read-nonowait-dev 73,552 at bound 2).
 */
@Tag("full")
class BarrierBugsFullModelCheck {
    @TestFactory
    Stream<DynamicTest> noBarrierBugIsFoundUnderSequentialConsistencyAtTheDefaultStrategy() {
        return BugCatalog.barrierBugs().stream().map(bug -> DynamicTest.dynamicTest(bug.id(), () -> {
            Scenario<?> s = ScenarioRegistry.everything().find(bug.scenario());
            CheckResult r = ModelCheck.portfolio(s).config(KconfigTable.build(List.of(), List.of(bug.id()))).run();
            assertTrue(r.passed(), () -> r.summaryLine() + "\n" + r.diagram());
            CheckResult defaults = ModelCheck.portfolio(s).run();
            assertEquals(defaults.executions(), r.executions(), r.summaryLine());
        }));
    }

    @TestFactory
    Stream<DynamicTest> theSlowBarrierBugsAreFoundUnderLkmm() {
        return BugCatalog.barrierBugs().stream().filter(b -> !BarrierBugsModelCheck.FOUND_FAST.contains(b.id()))
                .map(bug -> DynamicTest.dynamicTest(bug.id(), () -> BarrierBugsModelCheck.assertFoundUnderLkmm(bug)));
    }

    @TestFactory
    Stream<DynamicTest> everyBarrierBugScenarioPassesUnderLkmmWithoutTheBug() {
        return BugCatalog.barrierBugs().stream().map(bug -> DynamicTest.dynamicTest(bug.id(), () -> {
            CheckResult r = BarrierBugsModelCheck.lkmm(bug, false);
            assertTrue(r.passed(), () -> r.summaryLine() + "\n" + r.diagram());
        }));
    }
}
