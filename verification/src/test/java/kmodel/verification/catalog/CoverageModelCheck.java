package kmodel.verification.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import kmodel.kernel.ViolationKind;
import kmodel.mm.FilemapBugs;
import kmodel.explorer.CheckResult;
import kmodel.verification.KconfigTable;
import kmodel.explorer.ModelCheck;
import kmodel.verification.world.Scenario;
import kmodel.verification.ScenarioRegistry;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * A check that cannot fail proves nothing: every registered scenario is failed by at least one
 * catalog bug. The catalog names one scenario per bug (BugCatalogModelCheck runs those); the
 * scenarios no catalog entry names are paired here with a bug that also breaks them.
 */
@Tag("modelcheck")
class CoverageModelCheck {
    /** Scenario -> a catalog bug that makes it fail, and the kind it fails with. */
    private static final Map<String, Object[]> EXTRA = new TreeMap<>(Map.ofEntries(
            Map.entry("uring-read-again-dev", new Object[] {kmodel.iouring.IoUringBugs.URING_NO_REQ_REF, ViolationKind.USE_AFTER_FREE}),
            Map.entry("uring-random-reads", new Object[] {kmodel.iouring.IoUringBugs.URING_NO_REQ_REF, ViolationKind.USE_AFTER_FREE}),
            Map.entry("uring-read-nonowait-dev", new Object[] {FilemapBugs.HANDOFF_FORGETS_DONE, ViolationKind.MISSED_WAKEUP}),
            Map.entry("waitq-spanning-read", new Object[] {FilemapBugs.ASYNC_WAIT_CHECK_BEFORE_ADD, ViolationKind.MISSED_WAKEUP}),
            Map.entry("waitq-spanning-read-nora", new Object[] {FilemapBugs.ASYNC_WAIT_CHECK_BEFORE_ADD, ViolationKind.MISSED_WAKEUP}),
            Map.entry("nowait-readahead", new Object[] {FilemapBugs.ADD_TO_PAGE_CACHE_EEXIST_REF_LEAK, ViolationKind.REF_LEAK}),
            Map.entry("read-error", new Object[] {FilemapBugs.HANDOFF_FORGETS_DONE, ViolationKind.MISSED_WAKEUP}),
            Map.entry("page-lock-stealer", new Object[] {FilemapBugs.WAKE_PAGE_MATCH_NOT_SET, ViolationKind.MISSED_WAKEUP}),
            Map.entry("page-lock-killable-writeback", new Object[] {FilemapBugs.HANDOFF_FORGETS_DONE, ViolationKind.LOCK_LEAK}),
            Map.entry("page-lock-killable-unfair-fixed", new Object[] {FilemapBugs.WAKE_PAGE_MATCH_NOT_SET, ViolationKind.MISSED_WAKEUP}),
            Map.entry("btrfs-raid1-both-bad", new Object[] {kmodel.fs.btrfs.BtrfsBugs.PAGEPOOL_LEAK, ViolationKind.REF_LEAK}),
            Map.entry("btrfs-pagepool-nomem", new Object[] {FilemapBugs.ADD_TO_PAGE_CACHE_EEXIST_REF_LEAK, ViolationKind.REF_LEAK}),
            Map.entry("write-read-writeback", new Object[] {FilemapBugs.END_PAGE_WRITEBACK_NO_WAKE, ViolationKind.MISSED_WAKEUP}),
            Map.entry("btrfs-dio-raid0-write", new Object[] {kmodel.fs.btrfs.BtrfsBugs.DIO_PENDING_AFTER_SUBMIT, ViolationKind.USE_AFTER_FREE})));

    /**
     * Scenarios no catalog bug reaches, each with where its check is shown to fail instead.
     * {@code dio-split-clones} (block layer alone: trimmed fast clones of one bio) lost its bug when
     * issue 8 replaced the {@code bio_trim()} stand-in {@code bio-trim-loses-bvec-done} with btrfs'
     * own {@code btrfs-clone-first-bvec}; its byte check is the one BioProperties shows failing
     * with that faulty trim ({@code theWindowCheckCatchesALossyTrim}). A decision for the lead:
     * keep it so, or retire the scenario in favour of the btrfs direct-I/O ones.
     */
    private static final Map<String, String> NO_CATALOG_BUG = Map.of(
            "dio-split-clones", "kmodel.block.BioProperties#theWindowCheckCatchesALossyTrim");

    @Test
    void everyScenarioIsFailedBySomeCatalogBug() {
        for (Scenario<?> s : ScenarioRegistry.standard().all()) {
            boolean named = false;
            for (CatalogBug b : BugCatalog.all()) {
                named |= b.scenario().equals(s.name());
            }
            assertTrue(named || EXTRA.containsKey(s.name()) || NO_CATALOG_BUG.containsKey(s.name()),
                    s.name() + " has no catalog bug that fails it");
        }
    }

    @TestFactory
    Stream<DynamicTest> theExtraPairsFailWithTheirKind() {
        ScenarioRegistry reg = ScenarioRegistry.standard();
        return EXTRA.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            String bug = (String) e.getValue()[0];
            CheckResult r = ModelCheck.exhaustive(reg.get(e.getKey())).config(KconfigTable.build(List.of(), List.of(bug))).run();
            assertEquals(e.getValue()[1], r.kind(), r.summaryLine());
        }));
    }
}
