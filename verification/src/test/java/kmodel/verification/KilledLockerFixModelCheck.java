package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import kmodel.mm.MmOptions;
import kmodel.verification.catalog.BugCatalog;
import kmodel.verification.world.Scenario;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The finding {@code finding-killed-locker-strands-waiter} and its candidate fix
 * {@code PAGE_LOCK_WOKEN_KILLED_TRYLOCK} (docs/findings/killed-locker-strands-waiter.md): the
 * finding fails on the defaults and in the larger killed-locker worlds; with the fix on at the
 * kernel's default unfairness (5) the finding's world, every page-lock scenario and the larger
 * worlds pass, within the bound each test names; the fix brings back no catalog bug (each is still
 * found with it on); and the v5.7 protocol loses the wake-up too, in a five-task world (the
 * report of 20200624161142.GA12184@redhat.com), which the README once said it did not.
 * Strength: exhaustive with DPOR within the preemption bound named, or sampled where it says
 * {@code random}.
 */
@Tag("modelcheck")
class KilledLockerFixModelCheck {

    /** The fix at the kernel's default unfairness budget, laid over each scenario's own settings. */
    private static Kconfig fixed() {
        return KconfigTable.build(List.of("PAGE_LOCK_WOKEN_KILLED_TRYLOCK=y", "PAGE_LOCK_UNFAIRNESS=5"), List.of());
    }

    private static Kconfig set(String... sets) {
        return KconfigTable.build(List.of(sets), List.of());
    }

    private static CheckResult bounded(String scenario, Kconfig cfg, int preemptions) {
        Scenario<?> s = ScenarioRegistry.everything().get(scenario);
        return ModelCheck.exhaustive(s).preemptions(preemptions).config(cfg).run();
    }

    private static void assertStrands(CheckResult r, String sleeper) {
        assertEquals(ViolationKind.MISSED_WAKEUP, r.kind(), r::summaryLine);
        assertTrue(r.violation().getMessage().startsWith(sleeper + " sleeps in TASK_UNINTERRUPTIBLE waiting on " + sleeper
                + ".wait_page"), r.violation()::getMessage);
    }

    @Test
    void theFindingStrandsTheOtherLockerOnTheDefaults() {
        CheckResult r = bounded("finding-killed-locker-strands-waiter", Kconfig.defaults(), 2);
        assertStrands(r, "locker");
        assertTrue(r.diagram().contains("wake_page_function(killable.wait_page)"), r::diagram);
        assertTrue(r.diagram().contains("lock_page_killable = -EINTR"), r::diagram);
    }

    /**
     * With the fix, the killed locker either leaves without having been picked (-EINTR) or takes
     * the lock it was woken for (0), and nobody is stranded: complete to preemption bound 2.
     */
    @Test
    void withTheFixTheFindingsWorldPassesAtTheDefaultUnfairness() {
        CheckResult r = bounded("finding-killed-locker-strands-waiter", fixed(), 2);
        assertTrue(r.passed(), r::summaryLine);
        assertEquals(Set.of("-EINTR", "0"), new TreeSet<>(r.outcomes()), r::summaryLine);
    }

    /** The fix is off by default: it is in no kernel. */
    @Test
    void theFixIsOffByDefault() {
        assertEquals(0L, Kconfig.defaults().value(MmOptions.PAGE_LOCK_WOKEN_KILLED_TRYLOCK));
        assertNotNull(KconfigTable.find("PAGE_LOCK_WOKEN_KILLED_TRYLOCK"));
    }

    /** Every page-lock scenario, the fix on, unfairness 5: complete to the bound named. */
    @TestFactory
    Stream<DynamicTest> everyPageLockScenarioPassesWithTheFixAtTheDefaultUnfairness() {
        Object[][] checks = {
            {"page-lock-stealer", 2},
            {"page-lock-killable-writeback", 2},
            {"async-page-lock", 2},
            {"page-wait-collisions", 2},
            {"writeback-free-reuse", 2},
            {"page-lock-crowd", ModelCheck.UNBOUNDED},
        };
        return Stream.of(checks).map(c -> DynamicTest.dynamicTest(c[0] + " bound " + c[1], () -> {
            CheckResult r = bounded((String) c[0], fixed(), (Integer) c[1]);
            assertTrue(r.passed(), r::summaryLine);
            assertEquals(5L, r.config().value(MmOptions.PAGE_LOCK_UNFAIRNESS), r::summaryLine);
        }));
    }

    /** The fix brings back no catalog bug: each is still found, with its kind, with the fix on. */
    @TestFactory
    Stream<DynamicTest> everyCatalogBugIsStillFoundWithTheFixOn() {
        ScenarioRegistry reg = ScenarioRegistry.everything();
        return BugCatalog.all().stream().map(bug -> DynamicTest.dynamicTest(bug.id(), () -> {
            Kconfig cfg = KconfigTable.build(List.of("PAGE_LOCK_WOKEN_KILLED_TRYLOCK=y"), List.of(bug.id()));
            CheckResult r = ModelCheck.exhaustive(reg.get(bug.scenario())).config(cfg).run();
            assertEquals(bug.kind(), r.kind(), r::summaryLine);
            assertTrue(r.violation().getMessage().contains(bug.signature()), r.violation()::getMessage);
        }));
    }

    /**
     * The larger worlds: with a second plain locker, or with a lock stealer, the default v5.10
     * loses the wake-up within one preemption; with fair hand-off (their own setting,
     * unfairness 0) and with the fix they pass, complete to preemption bound 1.
     */
    @Test
    void inTheLargerWorldsTheDefaultStrandsALockerAndFairHandOffAndTheFixDoNot() {
        assertStrands(bounded("page-lock-killable-three", set("PAGE_LOCK_UNFAIRNESS=5"), 1), "locker1");
        assertStrands(bounded("page-lock-killable-stealer", set("PAGE_LOCK_UNFAIRNESS=5"), 1), "locker");
        for (String s : new String[] {"page-lock-killable-three", "page-lock-killable-stealer"}) {
            CheckResult fair = bounded(s, Kconfig.defaults(), 1);
            assertTrue(fair.passed(), fair::summaryLine);
            assertEquals(0L, fair.config().value(MmOptions.PAGE_LOCK_UNFAIRNESS), fair::summaryLine);
            CheckResult fix = bounded(s, fixed(), 1);
            assertTrue(fix.passed(), fix::summaryLine);
        }
    }

    /**
     * The v5.7 protocol loses the wake-up as well, in a five-task world (found by seeded random
     * search, a sampled result): the killable waiter sets TASK_KILLABLE, sees the lock free and
     * skips io_schedule(), loses test_and_set_bit_lock() to the first locker, whose unlock then
     * wakes it (it is still queued and "sleeping") as the walk's one exclusive wake-up; it returns
     * -EINTR and the second locker sleeps. Oleg Nesterov's report against v5.7,
     * 20200624161142.GA12184@redhat.com, answered by 2a9127fcf229 in v5.8.
     */
    @Test
    void theV57ProtocolStrandsALockerInTheFiveTaskWorld() {
        Scenario<?> s = ScenarioRegistry.everything().get("page-lock-killable-three");
        CheckResult r = ModelCheck.random(s).seed(1).executions(200_000).config(set("PAGE_WAIT_V57=y")).run();
        assertEquals(ViolationKind.MISSED_WAKEUP, r.kind(), r::summaryLine);
        assertTrue(r.violation().getMessage().contains(" sleeps in TASK_UNINTERRUPTIBLE waiting on locker"),
                r.violation()::getMessage);
        assertTrue(r.diagram().contains("lock_page_killable = -EINTR"), r::diagram);
    }
}
