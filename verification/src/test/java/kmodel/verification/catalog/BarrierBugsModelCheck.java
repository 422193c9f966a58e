package kmodel.verification.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import kmodel.block.BlockBugs;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.iouring.IoUringBugs;
import kmodel.kernel.Kconfig;
import kmodel.kernel.MemoryModel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.TraceEvent;
import kmodel.mm.FilemapBugs;
import kmodel.verification.KconfigTable;
import kmodel.verification.ScenarioRegistry;
import kmodel.verification.world.Scenario;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The catalog's barrier bugs ({@link BugCatalog#barrierBugs()}): real historical missing-barrier
 * bugs, each switched back in at its barrier site. Under sequential consistency, the default
 * memory model, a barrier is a no-op, so switching one out must change nothing: none of them is
 * found, and the scenario each names passes as it does on the defaults. That is what this class
 * asserts; it is the half of issue 20's acceptance 4 that can be checked before
 * {@code --memory-model lkmm} exists.
 *
 * <p>The other half: under {@code --memory-model lkmm} each barrier bug is found on its scenario
 * with its kind and signature, within the bound of {@link #LKMM_BOUND}
 * ({@link #everyBarrierBugIsFoundUnderLkmm}); the one whose search takes more than a few seconds
 * ({@code cq-ev-posted-no-mb}, preemption bound 2) is in {@code BarrierBugsFullModelCheck}, as are
 * the scenarios passing under lkmm without the bug, but for {@code read-same-page}'s, which is
 * cheap and here.
 *
 * <p>A switch that is never read would make "not found" vacuous, so each barrier site is also
 * shown reached with its barrier switched off: together with a catalog bug that the sequentially
 * consistent search finds through the same code, the counterexample's diagram shows the site's
 * trace event, which the model emits only when the barrier is left out.
 */
@Tag("modelcheck")
class BarrierBugsModelCheck {
    /**
     * Barrier bug -> the preemption bound of its sequentially consistent check
     * ({@link ModelCheck#UNBOUNDED}: every interleaving, complete): the scenario's whole search where it is small, else a bound whose search takes
     * a few seconds at most. {@code BarrierBugsFullModelCheck} runs each at {@code ./kmodel check}'s
     * default.
     */
    static final Map<String, Integer> SC_BOUND = Map.of(
            BlockBugs.SBQ_CLEAR_NO_MB_AFTER_ATOMIC, ModelCheck.UNBOUNDED,
            FilemapBugs.PAGE_UPTODATE_NO_BARRIERS, 1,
            IoUringBugs.CQ_EV_POSTED_NO_MB, 1,
            FilemapBugs.PAGE_WAIT_LIST_DEL_NOT_CAREFUL, 1);

    /**
     * Barrier bug -> the preemption bound at which the lkmm search finds it ({@link
     * ModelCheck#UNBOUNDED}: complete). Measured: sbq 431 executions (complete), page-uptodate 84,
     * cq-ev-posted 11,529 (bound 2; 585 executions at bound 1 pass), page-wait-list-del 854.
     */
    static final Map<String, Integer> LKMM_BOUND = Map.of(
            BlockBugs.SBQ_CLEAR_NO_MB_AFTER_ATOMIC, ModelCheck.UNBOUNDED,
            FilemapBugs.PAGE_UPTODATE_NO_BARRIERS, 1,
            IoUringBugs.CQ_EV_POSTED_NO_MB, 2,
            FilemapBugs.PAGE_WAIT_LIST_DEL_NOT_CAREFUL, 1);

    /** The barrier bugs cheap enough to find here (the rest: {@code BarrierBugsFullModelCheck}). */
    static final List<String> FOUND_FAST = List.of(BlockBugs.SBQ_CLEAR_NO_MB_AFTER_ATOMIC,
            FilemapBugs.PAGE_UPTODATE_NO_BARRIERS, FilemapBugs.PAGE_WAIT_LIST_DEL_NOT_CAREFUL);

    /** The lkmm check of {@code bug}'s scenario at its {@link #LKMM_BOUND}, the bug switched in or not. */
    static CheckResult lkmm(CatalogBug bug, boolean switchedIn) {
        Scenario<?> s = ScenarioRegistry.everything().find(bug.scenario());
        Kconfig cfg = switchedIn ? KconfigTable.build(List.of(), List.of(bug.id()))
                : bug.impliedSettings(Kconfig.defaults());
        return ModelCheck.exhaustive(s).config(cfg.withMemoryModel(MemoryModel.LKMM)).preemptions(LKMM_BOUND.get(bug.id())).run();
    }

    /** {@code bug}, switched in, is found under lkmm with its kind and signature. */
    static void assertFoundUnderLkmm(CatalogBug bug) {
        CheckResult r = lkmm(bug, true);
        assertEquals(bug.kind(), r.kind(), () -> r.summaryLine() + "\n" + r.diagram());
        assertTrue(r.violation().getMessage().contains(bug.signature()),
                () -> bug.id() + ": '" + bug.signature() + "' not in: " + r.violation().getMessage());
        assertEquals(MemoryModel.LKMM, r.config().memoryModel());
    }

    @TestFactory
    Stream<DynamicTest> everyBarrierBugIsFoundUnderLkmm() {
        return BugCatalog.barrierBugs().stream().filter(b -> FOUND_FAST.contains(b.id()))
                .map(bug -> DynamicTest.dynamicTest(bug.id(), () -> assertFoundUnderLkmm(bug)));
    }

    @Test
    void readSamePagePassesUnderLkmmWithoutItsBarrierBug() {
        CheckResult r = lkmm(BugCatalog.find(FilemapBugs.PAGE_UPTODATE_NO_BARRIERS), false);
        assertTrue(r.passed(), () -> r.summaryLine() + "\n" + r.diagram());
    }

    @Test
    void everyBarrierBugIsDeclaredApartFromTheCatalogTheScSearchFinds() {
        assertTrue(BugCatalog.barrierBugs().size() >= 4, "at least four barrier bugs (issue 20)");
        assertEquals(SC_BOUND.keySet(), BugCatalog.barrierBugs().stream().map(CatalogBug::id)
                .collect(java.util.stream.Collectors.toSet()), "every barrier bug has its bound here");
        assertEquals(SC_BOUND.keySet(), LKMM_BOUND.keySet(), "every barrier bug has its lkmm bound");
        for (CatalogBug b : BugCatalog.barrierBugs()) {
            assertEquals(CatalogBug.LKMM, b.memoryModel(), b.id());
            assertSame(b.id(), BugCatalog.find(b.id()).id(), b.id());
            assertFalse(BugCatalog.all().stream().anyMatch(a -> a.id().equals(b.id())), b.id() + " is not in all()");
            assertNotNull(ScenarioRegistry.everything().find(b.scenario()), b.id() + ": " + b.scenario());
            assertTrue(KconfigTable.build(List.of(), List.of(b.id())).bug(b.id()), "--bug " + b.id() + " is accepted");
            assertEquals(b.impliedSettings(Kconfig.defaults()).overrides(),
                    KconfigTable.build(List.of(), List.of(b.id())).overrides(), b.id() + ": the same settings, the bug aside");
        }
        for (CatalogBug a : BugCatalog.all()) {
            assertEquals(CatalogBug.SC, a.memoryModel(), a.id());
        }
    }

    @TestFactory
    Stream<DynamicTest> noBarrierBugIsFoundUnderSequentialConsistency() {
        return BugCatalog.barrierBugs().stream().map(bug -> DynamicTest.dynamicTest(bug.id(), () -> {
            Scenario<?> s = ScenarioRegistry.everything().find(bug.scenario());
            Kconfig cfg = KconfigTable.build(List.of(), List.of(bug.id()));
            int bound = SC_BOUND.get(bug.id());
            CheckResult r = ModelCheck.exhaustive(s).config(cfg).preemptions(bound).run();
            assertTrue(r.config().bug(bug.id()), r::summaryLine);
            assertTrue(r.passed(), () -> "a barrier left out is a no-op under sc: " + r.summaryLine() + "\n" + r.diagram());
            CheckResult defaults = ModelCheck.exhaustive(s).config(bug.impliedSettings(Kconfig.defaults()))
                    .preemptions(bound).run();
            assertEquals(defaults.executions(), r.executions(), "the same search as without the bug");
        }));
    }

    /**
     * Each barrier site is reached with its barrier left out: paired with a catalog bug the
     * sequentially consistent search finds through the same code, the counterexample shows the
     * trace event the site emits only when the barrier bug is switched in; without it, not
     * (the counterexample replayed with tracing).
     */
    @TestFactory
    Stream<DynamicTest> everyBarrierBugSiteIsReachedWithItsBarrierLeftOut() {
        Object[][] pairs = {
            {BlockBugs.SBQ_CLEAR_NO_MB_AFTER_ATOMIC, "tag-waiters", BlockBugs.SBQ_WAIT_NOT_COUNTED,
                ViolationKind.MISSED_WAKEUP, "no smp_mb__after_atomic() (bug)"},
            {FilemapBugs.PAGE_UPTODATE_NO_BARRIERS, "read-same-page", FilemapBugs.ADD_TO_PAGE_CACHE_EEXIST_REF_LEAK,
                ViolationKind.REF_LEAK, "no smp_wmb() (bug)"},
            {IoUringBugs.CQ_EV_POSTED_NO_MB, "uring-exit-armed", IoUringBugs.URING_NO_REQ_REF,
                ViolationKind.DOUBLE_RELEASE, "no smp_mb() before waitqueue_active() (bug)"},
            {FilemapBugs.PAGE_WAIT_LIST_DEL_NOT_CAREFUL, "page-lock-killable", FilemapBugs.HANDOFF_FORGETS_DONE,
                ViolationKind.MISSED_WAKEUP, "smp_mb(); list_del_init() (bug)"},
        };
        return Stream.of(pairs).map(p -> DynamicTest.dynamicTest((String) p[0], () -> {
            Scenario<?> s = ScenarioRegistry.everything().find((String) p[1]);
            CheckResult with = ModelCheck.exhaustive(s)
                    .config(KconfigTable.build(List.of(), List.of((String) p[2], (String) p[0]))).run();
            assertEquals(p[3], with.kind(), with::summaryLine);
            assertTrue(events(with).contains((String) p[4]),
                    () -> "the site of " + p[0] + " is in the counterexample:\n" + with.diagram());
            CheckResult without = ModelCheck.exhaustive(s).config(KconfigTable.build(List.of(), List.of((String) p[2]))).run();
            assertEquals(p[3], without.kind(), without::summaryLine);
            assertFalse(events(without).contains((String) p[4]), without::diagram);
        }));
    }

    /** The model events of the counterexample's schedule, replayed with tracing, one a line. */
    private static String events(CheckResult r) {
        StringBuilder sb = new StringBuilder();
        for (TraceEvent e : ModelCheck.replay(r.token(), ScenarioRegistry.everything(), false).trace()) {
            sb.append(e.text()).append('\n');
        }
        return sb.toString();
    }
}
