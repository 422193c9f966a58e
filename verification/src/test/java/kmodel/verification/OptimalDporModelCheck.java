package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.verification.catalog.BugCatalog;
import kmodel.verification.catalog.CatalogBug;
import kmodel.verification.world.Scenario;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * The unbounded reduced search, optimal DPOR with wakeup trees ({@code DporStrategy}), against the
 * source-DPOR it replaced ({@code ModelCheck.sourceSets}, itself checked against plain DFS by
 * {@code ReductionProperties} and the bounded comparisons) on the registered scenarios whose
 * unbounded search finishes: with no bug, and under each catalog bug of the scenario, going on after
 * every violation ({@code allViolations}), both reach the same end states and violation kinds; with
 * no bug, optimal DPOR runs no more executions and ends no more of them sleep-set blocked. Under a
 * bug, going on after violations, it may run more (cut executions end sleep-set blocked in both:
 * {@code dio-split-clones} with {@code bio-trim-relies-on-bi-vcnt} 793 executions, 415 blocked,
 * against source-DPOR's 413 and 229; {@code btrfs-dio-raid0-read} with
 * {@code btrfs-dio-pending-after-submit} 6,251 against 5,627), a limit stated in docs/checker.md. The
 * generated-program comparison with plain DFS (and its failing breaks) is {@code OptimalDporProperties}.
 * The fast tier takes the small scenarios; {@code textbook-refcount} and
 * {@code btrfs-dio-raid1-repair} (about 10,000 executions each way) are in the full tier.
 */
@Tag("modelcheck")
class OptimalDporModelCheck {
    /** Scenarios the default check proves complete (at e35f667), the small ones. */
    static final List<String> FAST = List.of("textbook-waitqueue", "dio-split-clones", "tag-waiters",
            "btrfs-dio-raid0-write", "btrfs-dio-raid0-read", "btrfs-dio-raid1-eio");
    static final List<String> FULL = List.of("textbook-refcount", "btrfs-dio-raid1-repair");
    /** Each search's budget: far above what these need, so a cut shows as a failure, not a pass. */
    static final long BUDGET = 200_000;

    private static CheckResult run(Scenario<?> s, Kconfig config, boolean source) {
        return ModelCheck.exhaustive(s).config(config).preemptions(ModelCheck.UNBOUNDED).sourceSets(source)
                .allViolations(true).executions(BUDGET).run();
    }

    private static Stream<DynamicTest> compare(List<String> names) {
        List<DynamicTest> tests = new ArrayList<>();
        for (String name : names) {
            Scenario<?> s = ScenarioRegistry.everything().get(name);
            List<String> configs = new ArrayList<>();
            configs.add(null);
            for (CatalogBug b : BugCatalog.all()) {
                if (b.scenario().equals(name)) {
                    configs.add(b.id());
                }
            }
            for (String bug : configs) {
                tests.add(DynamicTest.dynamicTest(name + (bug == null ? "" : " with " + bug), () -> {
                    Kconfig config = bug == null ? Kconfig.defaults() : KconfigTable.build(List.of(), List.of(bug));
                    CheckResult source = run(s, config, true);
                    CheckResult optimal = run(s, config, false);
                    assertTrue(!source.budgetReached() && !optimal.budgetReached(),
                            () -> source.summaryLine() + "\n" + optimal.summaryLine());
                    assertEquals(source.outcomes(), optimal.outcomes(), optimal::summaryLine);
                    if (bug == null) {
                        assertTrue(optimal.executions() <= source.executions(),
                                () -> optimal.summaryLine() + " vs " + source.summaryLine());
                        assertTrue(optimal.sleepBlocked() <= source.sleepBlocked(),
                                () -> optimal.sleepBlocked() + " blocked vs " + source.sleepBlocked());
                    }
                }));
            }
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> optimalDporReachesWhatSourceDporReachesInNoMoreExecutions() {
        return compare(FAST);
    }

    @Tag("full")
    @TestFactory
    Stream<DynamicTest> optimalDporReachesWhatSourceDporReachesOnTheLargerScenarios() {
        return compare(FULL);
    }
}
