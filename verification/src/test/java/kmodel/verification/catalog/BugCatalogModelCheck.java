package kmodel.verification.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import kmodel.kernel.Kconfig;
import kmodel.kernel.KconfigOption;
import kmodel.explorer.CheckResult;
import kmodel.verification.KconfigTable;
import kmodel.explorer.ModelCheck;
import kmodel.verification.world.Scenario;
import kmodel.verification.ScenarioRegistry;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * A check that cannot fail proves nothing: every catalog bug, switched in, makes its scenario fail
 * with exactly the kind and message the catalog names, under exhaustive search at the default
 * bound. And a "found" must come from the bug: every scenario passes (clean and complete) on the
 * default configuration, and on the settings each bug implies, without the bug.
 */
@Tag("modelcheck")
class BugCatalogModelCheck {
    /** {@code -Dkmodel.long=true}: every scenario's pass at bound 2, even where the default run's bound is lower. */
    private static final boolean LONG = Boolean.getBoolean("kmodel.long");

    @TestFactory
    Stream<DynamicTest> everyCatalogBugIsFoundWithItsKindAndMessage() {
        /* large scenarios too (the io_uring ones): a bug is found fast even where a pass is slow */
        ScenarioRegistry reg = ScenarioRegistry.everything();
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

    /**
     * One check per distinct (scenario, effective configuration): every standard scenario on the
     * defaults, and each catalog bug's scenario on the settings the bug implies (e.g.
     * {@code PAGE_WAIT_V57=y} for {@code exclusive-wait-signal-first}) with the bug left out.
     * Requires a pass: clean (no violation, no step-bound stop) and complete (the search finished),
     * at the default bound 2, or at the scenario's own bound of the default run where that is lower
     * ({@link Scenario#autoBound()}: {@code uring-random-reads} and {@code uring-read-again-dev},
     * bound 1; at bound 2 these took 77 s and 15 s of the build's 146 s, load average 4 to 10).
     * With {@code -Dkmodel.long=true} every scenario at bound 2.
     */
    @TestFactory
    Stream<DynamicTest> everyScenarioPassesOnTheDefaultsAndOnEachBugsImpliedSettingsWithoutTheBug() {
        ScenarioRegistry reg = ScenarioRegistry.standard();
        Map<String, Object[]> checks = new LinkedHashMap<>();
        for (Scenario<?> s : reg.all()) {
            add(checks, s, Kconfig.defaults(), "defaults");
        }
        for (CatalogBug bug : BugCatalog.all()) {
            Scenario<?> s = reg.find(bug.scenario());
            if (s == null) {
                /* a large scenario: its pass is checked at a stated bound (UringModelCheck) */
                assertNotNull(ScenarioRegistry.large().find(bug.scenario()), "catalog names unregistered scenario " + bug.scenario());
                continue;
            }
            add(checks, s, bug.impliedSettings(Kconfig.defaults()), "implied by " + bug.id());
        }
        List<DynamicTest> tests = new ArrayList<>();
        for (Object[] c : checks.values()) {
            Scenario<?> s = (Scenario<?>) c[0];
            Kconfig cfg = (Kconfig) c[1];
            String name = s.name() + " [" + s.settings().overlay(cfg).canonical() + "] (" + c[2] + ")";
            tests.add(DynamicTest.dynamicTest(name, () -> {
                int bound = LONG ? ModelCheck.DEFAULT_PREEMPTIONS : Math.min(ModelCheck.DEFAULT_PREEMPTIONS, s.autoBound());
                CheckResult r = ModelCheck.exhaustive(s).config(cfg).preemptions(bound).run();
                assertTrue(r.config().bugs().isEmpty(), r::summaryLine);
                assertTrue(r.passed(), () -> "clean and complete: " + r.summaryLine() + "\n" + r.diagram());
            }));
        }
        return tests.stream();
    }

    private static void add(Map<String, Object[]> checks, Scenario<?> s, Kconfig cfg, String why) {
        String key = s.name() + " " + s.settings().overlay(cfg).canonical();
        Object[] c = checks.get(key);
        if (c == null) {
            checks.put(key, new Object[] {s, cfg, why});
        } else {
            c[2] = c[2] + ", " + why;
        }
    }

    @TestFactory
    Stream<DynamicTest> theImpliedSettingsAreTheBuiltConfigurationWithoutTheBug() {
        return BugCatalog.all().stream().map(bug -> DynamicTest.dynamicTest(bug.id(), () -> {
            Kconfig with = KconfigTable.build(List.of(), List.of(bug.id()));
            Kconfig without = bug.impliedSettings(Kconfig.defaults());
            assertTrue(with.bug(bug.id()));
            assertFalse(without.bug(bug.id()));
            for (Map.Entry<KconfigOption, Long> e : bug.implies().entrySet()) {
                assertEquals(e.getValue().longValue(), without.value(e.getKey()), e.getKey().name());
            }
            assertEquals(with.overrides(), without.overrides(), "the same settings, the bug aside");
        }));
    }
}
