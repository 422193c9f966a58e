package kmodel.verification.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import kmodel.kernel.Kconfig;
import kmodel.verification.CheckResult;
import kmodel.verification.KconfigTable;
import kmodel.verification.ModelCheck;
import kmodel.verification.Scenario;
import kmodel.verification.ScenarioRegistry;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * A check that cannot fail proves nothing: every catalog bug, switched in, makes its scenario fail
 * with exactly the kind and message the catalog names, under exhaustive search at the default
 * bound (the message too, so that some other check of the same kind, or for {@code bug-on} some
 * other BUG_ON, does not pass for the bug).
 */
@Tag("modelcheck")
class BugCatalogModelCheck {

    @TestFactory
    Stream<DynamicTest> everyCatalogBugIsFoundWithItsKindAndMessage() {
        ScenarioRegistry reg = ScenarioRegistry.standard();
        return BugCatalog.all().stream().map(bug -> DynamicTest.dynamicTest(bug.id(), () -> {
            Scenario<?> s = reg.find(bug.scenario());
            assertNotNull(s, "catalog names unregistered scenario " + bug.scenario());
            Kconfig cfg = KconfigTable.build(List.of(), List.of(bug.id()));
            CheckResult r = ModelCheck.exhaustive(s).config(cfg).run();
            assertEquals(bug.kind(), r.kind(), r.summaryLine() + "\n" + r.diagram());
            assertTrue(r.violation().getMessage().contains(bug.signature()),
                    () -> "expected '" + bug.signature() + "' in: " + r.violation().summary());
        }));
    }

    @TestFactory
    Stream<DynamicTest> everyScenarioPassesOnTheDefaultConfiguration() {
        return ScenarioRegistry.standard().all().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> {
            CheckResult r = ModelCheck.exhaustive(s).run();
            assertTrue(r.passed(), () -> "clean and complete: " + r.summaryLine() + "\n" + r.diagram());
        }));
    }
}
