package kmodel.verification.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import kmodel.mm.MmOptions;
import kmodel.verification.world.Scenario;
import kmodel.verification.catalog.BugCatalog;
import kmodel.verification.catalog.CatalogBug;
import org.junit.jupiter.api.Test;

/**
 * The harness list: names, subsystems, and the catalog data each harness carries as plain data
 * (so that JPF need not load the catalog) equal to the catalog's.
 */
class HarnessesTest {

    @Test
    void theHarnessesAreTheOnesTheJpfSideUses() {
        List<String> names = new ArrayList<>();
        for (Harness h : Harnesses.all()) {
            names.add(h.name());
        }
        assertEquals(List.of("textbook-waitqueue", "textbook-refcount", "page-lock-killable", "page-lock-stealer",
                "async-page-lock", "page-lock-killable-v57", "page-lock-killable-v510-unfair"), names);
        Set<String> subsystems = new HashSet<>();
        for (Harness h : Harnesses.all()) {
            subsystems.add(h.subsystem());
            assertEquals(h.name(), Harnesses.named(h.name()).name());
            assertNotNull(h.scenario(), h.name());
        }
        assertEquals(Set.of("textbook", "page lock v5.10", "async page wait", "page wait v5.7"), subsystems);
        assertThrows(IllegalArgumentException.class, () -> Harnesses.named("no-such-harness"));
    }

    @Test
    void eachHostedBugCarriesTheCatalogsScenarioKindAndSettings() {
        for (Harness h : Harnesses.all()) {
            for (String id : h.hostedBugs()) {
                CatalogBug b = BugCatalog.find(id);
                assertNotNull(b, id);
                assertEquals(b.scenario(), h.scenarioName(), id);
                assertEquals(b.kind(), h.expectedKind(id), id);
                assertEquals(b.impliedSettings(h.config(null)).withBug(id), h.config(id), id);
                assertEquals(b.kind() == ViolationKind.MISSED_WAKEUP, h.hangs(id), id);
            }
            assertThrows(IllegalArgumentException.class, () -> h.config("no-such-bug"));
        }
    }

    @Test
    void everyCatalogBugOfAHarnessScenarioIsHostedByAHarnessOfThatScenario() {
        Set<String> scenarios = new HashSet<>();
        Set<String> hosted = new HashSet<>();
        for (Harness h : Harnesses.all()) {
            scenarios.add(h.scenarioName());
            hosted.addAll(List.of(h.hostedBugs()));
        }
        int n = 0;
        for (CatalogBug b : BugCatalog.all()) {
            if (scenarios.contains(b.scenario())) {
                assertTrue(hosted.contains(b.id()), b.id());
                n++;
            }
        }
        assertEquals(8, n);
        assertEquals(8, hosted.size());
    }

    @Test
    void everySubsystemHostsABugAndOnlyTheFindingFailsClean() {
        Set<String> withBugs = new HashSet<>();
        for (Harness h : Harnesses.all()) {
            if (h.hostedBugs().length > 0) {
                withBugs.add(h.subsystem());
            }
            assertEquals(h.name().equals("page-lock-killable-v510-unfair"), h.isFinding(), h.name());
            assertEquals(h.isFinding() ? ViolationKind.MISSED_WAKEUP : null, h.expectedKind(null), h.name());
        }
        assertEquals(Set.of("textbook", "page lock v5.10", "async page wait", "page wait v5.7"), withBugs);
    }

    @Test
    void theV57AndTheFindingHarnessesRunPageLockKillableUnderTheirOwnSettings() {
        Scenario<?> killable = Harnesses.named("page-lock-killable").scenario();
        Kconfig plain = killable.settings().overlay(Harnesses.named("page-lock-killable").config(null));
        Kconfig v57 = killable.settings().overlay(Harnesses.named("page-lock-killable-v57").config(null));
        Kconfig unfair = killable.settings().overlay(Harnesses.named("page-lock-killable-v510-unfair").config(null));
        assertEquals(0, plain.value(MmOptions.PAGE_LOCK_UNFAIRNESS));
        assertFalse(plain.enabled(MmOptions.PAGE_WAIT_V57));
        assertTrue(v57.enabled(MmOptions.PAGE_WAIT_V57));
        assertEquals(MmOptions.PAGE_LOCK_UNFAIRNESS.defaultValue(), unfair.value(MmOptions.PAGE_LOCK_UNFAIRNESS));
        assertEquals(5, unfair.value(MmOptions.PAGE_LOCK_UNFAIRNESS));
        assertFalse(unfair.enabled(MmOptions.PAGE_WAIT_V57));
        assertNull(Harnesses.named("page-lock-killable").expectedKind(null));
    }
}
