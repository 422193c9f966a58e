package kmodel.verification.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import kmodel.block.BlockBugs;
import kmodel.fs.btrfs.BtrfsBugs;
import kmodel.iouring.IoUringBugs;
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
 * A check that cannot fail proves nothing: every registered scenario, the standard ones and the
 * large ones, is failed by at least one catalog bug, with no exemption. The catalog names one
 * scenario per bug (BugCatalogModelCheck runs those, large ones included); every other scenario
 * is paired here with a catalog bug that also breaks it, and the pair is run. The findings and
 * the demonstrations are the other registries: they fail, or stop at the step bound, on the
 * defaults on purpose, so their checks are seen failing without a bug
 * ({@link #everyRegistryIsStandardLargeFindingsOrDemos} keeps that list whole).
 */
@Tag("modelcheck")
class CoverageModelCheck {
    /** Standard scenario no catalog entry names -> a catalog bug that makes it fail, and the kind it fails with. */
    static final Map<String, Object[]> STANDARD = new TreeMap<>(Map.ofEntries(
            Map.entry("uring-read-again-dev", pair(IoUringBugs.URING_NO_REQ_REF, ViolationKind.USE_AFTER_FREE)),
            Map.entry("uring-random-reads", pair(IoUringBugs.URING_NO_REQ_REF, ViolationKind.USE_AFTER_FREE)),
            // In v5.10's form (REQ_RAHEAD alone, the default) no catalog bug fails it under sc within bound 2
            // (uring-no-req-ref, sbq-wait-not-counted, wake-page-match-not-set, handoff-forgets-done: 28,332
            // executions each, PASS); the barrier bug cq-ev-posted-no-mb does under lkmm. Under seed 002's
            // patch 01 (REQ_RAHEAD_NOWAIT=y), which it was paired in, handoff-forgets-done does at bound 0.
            Map.entry("uring-read-nonowait-dev", pair(FilemapBugs.HANDOFF_FORGETS_DONE, ViolationKind.MISSED_WAKEUP,
                    "REQ_RAHEAD_NOWAIT=y")),
            Map.entry("waitq-spanning-read", pair(FilemapBugs.ASYNC_WAIT_CHECK_BEFORE_ADD, ViolationKind.MISSED_WAKEUP)),
            // named by end-writeback-no-page-ref until a struct page was never freed (that bug's effect is on writeback-reuse-rewrite now)
            Map.entry("writeback-free-reuse", pair(FilemapBugs.END_PAGE_WRITEBACK_NO_WAKE, ViolationKind.MISSED_WAKEUP)),
            Map.entry("waitq-spanning-read-nora", pair(FilemapBugs.ASYNC_WAIT_CHECK_BEFORE_ADD, ViolationKind.MISSED_WAKEUP)),
            Map.entry("read-error", pair(FilemapBugs.HANDOFF_FORGETS_DONE, ViolationKind.MISSED_WAKEUP)),
            Map.entry("page-lock-stealer", pair(FilemapBugs.WAKE_PAGE_MATCH_NOT_SET, ViolationKind.MISSED_WAKEUP)),
            Map.entry("page-lock-killable-writeback", pair(FilemapBugs.HANDOFF_FORGETS_DONE, ViolationKind.LOCK_LEAK)),
            Map.entry("page-lock-killable-unfair-fixed", pair(FilemapBugs.WAKE_PAGE_MATCH_NOT_SET, ViolationKind.MISSED_WAKEUP)),
            Map.entry("btrfs-raid1-both-bad", pair(BtrfsBugs.PAGEPOOL_LEAK, ViolationKind.REF_LEAK)),
            Map.entry("btrfs-pagepool-nomem", pair(FilemapBugs.ADD_TO_PAGE_CACHE_EEXIST_REF_LEAK, ViolationKind.REF_LEAK)),
            Map.entry("write-read-writeback", pair(FilemapBugs.END_PAGE_WRITEBACK_NO_WAKE, ViolationKind.MISSED_WAKEUP)),
            Map.entry("btrfs-dio-raid0-write", pair(BtrfsBugs.DIO_PENDING_AFTER_SUBMIT, ViolationKind.USE_AFTER_FREE)),
            Map.entry("preadv2-nowait", pair(FilemapBugs.NOWAIT_WAITS_FOR_PAGE, ViolationKind.BLOCKED_IN_NOWAIT)),
            Map.entry("write-two-writers", pair(FilemapBugs.END_PAGE_WRITEBACK_NO_WAKE, ViolationKind.MISSED_WAKEUP)),
            Map.entry("read-eof-partial", pair(FilemapBugs.ADD_TO_PAGE_CACHE_EEXIST_REF_LEAK, ViolationKind.REF_LEAK))));

    /** Large scenario no catalog entry names -> a catalog bug that makes it fail, and the kind it fails with. */
    static final Map<String, Object[]> LARGE = new TreeMap<>(Map.ofEntries(
            Map.entry("page-lock-crowd", pair(FilemapBugs.HANDOFF_FORGETS_DONE, ViolationKind.MISSED_WAKEUP)),
            Map.entry("page-lock-killable-stealer", pair(FilemapBugs.EXCLUSIVE_WAIT_SIGNAL_FIRST, ViolationKind.MISSED_WAKEUP)),
            Map.entry("page-lock-killable-three", pair(FilemapBugs.EXCLUSIVE_WAIT_SIGNAL_FIRST, ViolationKind.MISSED_WAKEUP)),
            Map.entry("page-lock-two-killable", pair(FilemapBugs.EXCLUSIVE_WAIT_SIGNAL_FIRST, ViolationKind.MISSED_WAKEUP)),
            Map.entry("nowait-again-reread", pair(FilemapBugs.HANDOFF_FORGETS_DONE, ViolationKind.MISSED_WAKEUP)),
            Map.entry("nowait-again-reread-nowait", pair(FilemapBugs.NOWAIT_WAITS_FOR_PAGE, ViolationKind.BLOCKED_IN_NOWAIT)),
            Map.entry("read-error-reread-nowait", pair(FilemapBugs.NOWAIT_WAITS_FOR_PAGE, ViolationKind.BLOCKED_IN_NOWAIT)),
            Map.entry("btrfs-2-readers", pair(BtrfsBugs.PAGEPOOL_LEAK, ViolationKind.REF_LEAK)),
            Map.entry("btrfs-3-readers", pair(BtrfsBugs.PAGEPOOL_LEAK, ViolationKind.REF_LEAK)),
            Map.entry("btrfs-4-readers", pair(BtrfsBugs.PAGEPOOL_LEAK, ViolationKind.REF_LEAK)),
            Map.entry("btrfs-bio-alloc-fail-2-readers", pair(BtrfsBugs.READPAGE_ERROR_KEEPS_LOCK, ViolationKind.MISSED_WAKEUP)),
            Map.entry("fault-read-eio", pair(FilemapBugs.HANDOFF_FORGETS_DONE, ViolationKind.MISSED_WAKEUP)),
            Map.entry("fault-write-nomem", pair(FilemapBugs.ADD_TO_PAGE_CACHE_EEXIST_REF_LEAK, ViolationKind.REF_LEAK)),
            Map.entry("fault-uring-read-eio", pair(IoUringBugs.URING_NO_REQ_REF, ViolationKind.USE_AFTER_FREE)),
            Map.entry("btrfs-compressed-shared", pair(BtrfsBugs.PAGEPOOL_LEAK, ViolationKind.REF_LEAK)),
            Map.entry("btrfs-compressed-shared-batches", pair(BtrfsBugs.PAGEPOOL_LEAK, ViolationKind.REF_LEAK)),
            Map.entry("btrfs-punch-compressed-shared-2-readers", pair(BtrfsBugs.PREV_EM_ORIG_START, ViolationKind.DATA_CORRUPTION)),
            Map.entry("btrfs-dio-raid0", pair(BlockBugs.BIO_TRIM_RELIES_ON_BI_VCNT, ViolationKind.DATA_CORRUPTION)),
            Map.entry("fsync-redirty-wait", pair(FilemapBugs.WAIT_ON_PAGE_WRITEBACK_ONCE, ViolationKind.DATA_CORRUPTION)),
            Map.entry("fsync-redirty-2", pair(FilemapBugs.WAIT_ON_PAGE_WRITEBACK_ONCE, ViolationKind.DATA_CORRUPTION)),
            Map.entry("write-redirty-fsync", pair(FilemapBugs.END_PAGE_WRITEBACK_NO_WAKE, ViolationKind.MISSED_WAKEUP)),
            Map.entry("write-read-writeback-uncached", pair(FilemapBugs.ADD_TO_PAGE_CACHE_EEXIST_REF_LEAK, ViolationKind.REF_LEAK)),
            Map.entry("truncate-writeback-2", pair(FilemapBugs.END_PAGE_WRITEBACK_NO_WAKE, ViolationKind.MISSED_WAKEUP)),
            Map.entry("tag-waiters-batch", pair(BlockBugs.SBQ_WAIT_NOT_COUNTED, ViolationKind.MISSED_WAKEUP)),
            Map.entry("uring-read-same-page", pair(IoUringBugs.URING_NO_REQ_REF, ViolationKind.USE_AFTER_FREE)),
            Map.entry("uring-seed-claim", pair(IoUringBugs.URING_NO_REQ_REF, ViolationKind.USE_AFTER_FREE)),
            Map.entry("uring-read-inflight", pair(IoUringBugs.URING_NO_REQ_REF, ViolationKind.USE_AFTER_FREE)),
            Map.entry("read-stream", pair(BlockBugs.SBQ_WAIT_NOT_COUNTED, ViolationKind.MISSED_WAKEUP)),
            Map.entry("uring-cq-overflow", pair(IoUringBugs.URING_NO_REQ_REF, ViolationKind.USE_AFTER_FREE)),
            Map.entry("write-flush", pair(FilemapBugs.END_PAGE_WRITEBACK_NO_WAKE, ViolationKind.MISSED_WAKEUP)),
            Map.entry("truncate-partial", pair(FilemapBugs.END_PAGE_WRITEBACK_NO_WAKE, ViolationKind.MISSED_WAKEUP)),
            Map.entry("btrfs-dio-write-cached", pair(BtrfsBugs.DIO_PENDING_AFTER_SUBMIT, ViolationKind.USE_AFTER_FREE)),
            Map.entry("bdev-read-eod", pair(FilemapBugs.ADD_TO_PAGE_CACHE_EEXIST_REF_LEAK, ViolationKind.REF_LEAK)),
            Map.entry("write-partial-page", pair(FilemapBugs.END_PAGE_WRITEBACK_NO_WAKE, ViolationKind.MISSED_WAKEUP)),
            Map.entry("read-retry-truncate", pair(FilemapBugs.HANDOFF_FORGETS_DONE, ViolationKind.MISSED_WAKEUP)),
            Map.entry("read-empty-append", pair(FilemapBugs.ADD_TO_PAGE_CACHE_EEXIST_REF_LEAK, ViolationKind.REF_LEAK)),
            Map.entry("btrfs-inline-read", pair(FilemapBugs.ADD_TO_PAGE_CACHE_EEXIST_REF_LEAK, ViolationKind.REF_LEAK)),
            Map.entry("btrfs-hole-extent", pair(FilemapBugs.ADD_TO_PAGE_CACHE_EEXIST_REF_LEAK, ViolationKind.REF_LEAK)),
            Map.entry("btrfs-raid1-ioerr", pair(BtrfsBugs.ENDIO_SKIP_OFFSET, ViolationKind.BUG_ON)),
            Map.entry("truncate-locked-page", pair(FilemapBugs.HANDOFF_FORGETS_DONE, ViolationKind.MISSED_WAKEUP)),
            Map.entry("uring-cq-overflow-busy", pair(IoUringBugs.URING_NO_REQ_REF, ViolationKind.USE_AFTER_FREE))));

    private static Object[] pair(String bug, ViolationKind kind, String... sets) {
        return new Object[] {bug, kind, List.of(sets)};
    }

    /** The scenarios some catalog entry names. */
    static TreeSet<String> namedByTheCatalog() {
        TreeSet<String> named = new TreeSet<>();
        for (CatalogBug b : BugCatalog.all()) {
            named.add(b.scenario());
        }
        return named;
    }

    /**
     * The scenarios of {@code registry} that neither the catalog names nor {@code pairs} holds,
     * and the keys of {@code pairs} that are not scenarios of {@code registry} or that the catalog
     * names already: each a line; none means the pairing is exactly the registry's rest.
     */
    static List<String> coverageGaps(ScenarioRegistry registry, Map<String, Object[]> pairs) {
        TreeSet<String> named = namedByTheCatalog();
        List<String> gaps = new ArrayList<>();
        TreeSet<String> names = new TreeSet<>();
        for (Scenario<?> s : registry.all()) {
            names.add(s.name());
            if (!named.contains(s.name()) && !pairs.containsKey(s.name())) {
                gaps.add(s.name() + ": no catalog bug fails it (name one in the catalog or pair one here)");
            }
        }
        for (Map.Entry<String, Object[]> e : pairs.entrySet()) {
            if (!names.contains(e.getKey())) {
                gaps.add(e.getKey() + ": paired here but not a scenario of this registry");
            } else if (named.contains(e.getKey())) {
                gaps.add(e.getKey() + ": paired here although the catalog names it");
            }
            if (BugCatalog.find((String) e.getValue()[0]) == null) {
                gaps.add(e.getKey() + ": paired with " + e.getValue()[0] + ", which is not a catalog bug");
            }
        }
        return gaps;
    }

    @Test
    void everyStandardScenarioIsFailedBySomeCatalogBug() {
        assertEquals(List.of(), coverageGaps(ScenarioRegistry.standard(), STANDARD));
    }

    @Test
    void everyLargeScenarioIsFailedBySomeCatalogBug() {
        assertEquals(List.of(), coverageGaps(ScenarioRegistry.large(), LARGE));
    }

    /** The coverage check can fail: a scenario nobody pairs, a pair that is stale. */
    @Test
    void theCoverageCheckNamesAnUncoveredScenarioAndAStalePair() {
        Map<String, Object[]> missingOne = new TreeMap<>(STANDARD);
        missingOne.remove("read-error");
        assertEquals(List.of("read-error: no catalog bug fails it (name one in the catalog or pair one here)"),
                coverageGaps(ScenarioRegistry.standard(), missingOne));
        Map<String, Object[]> stale = new TreeMap<>(STANDARD);
        stale.put("no-such-scenario", pair(BtrfsBugs.PAGEPOOL_LEAK, ViolationKind.REF_LEAK));
        stale.put("read-same-page", pair(BtrfsBugs.PAGEPOOL_LEAK, ViolationKind.REF_LEAK));
        assertEquals(List.of("no-such-scenario: paired here but not a scenario of this registry",
                "read-same-page: paired here although the catalog names it"),
                coverageGaps(ScenarioRegistry.standard(), stale));
    }

    /**
     * Every registered scenario is standard, large, a finding or a demonstration: a scenario
     * registered anywhere else would escape the coverage check. Findings fail on the defaults and
     * demonstrations stop at the step bound, on purpose (their tests say so).
     */
    @Test
    void everyRegistryIsStandardLargeFindingsOrDemos() {
        int parts = ScenarioRegistry.standard().all().size() + ScenarioRegistry.large().all().size()
                + ScenarioRegistry.findings().all().size() + ScenarioRegistry.demos().all().size()
                + ScenarioRegistry.manyTasks().all().size();
        assertEquals(parts, ScenarioRegistry.everything().all().size());
        // the many-task programs are pairs: each correct twin's failing partner is registered beside it
        // (PortfolioModelCheck shows each partner failing and each twin passing)
        java.util.Set<String> many = new java.util.TreeSet<>();
        for (Scenario<?> s : ScenarioRegistry.manyTasks().all()) {
            many.add(s.name());
        }
        for (String n : many) {
            assertTrue(n.endsWith("-fixed") ? many.contains(n.substring(0, n.length() - "-fixed".length()))
                    : many.contains(n + "-fixed"), n);
        }
        for (Scenario<?> s : ScenarioRegistry.findings().all()) {
            assertTrue(s.name().startsWith("finding-"), s.name());
        }
        for (Scenario<?> s : ScenarioRegistry.large().all()) {
            assertFalse(s.name().startsWith("finding-"), s.name());
        }
    }

    @TestFactory
    Stream<DynamicTest> theStandardPairsFailWithTheirKind() {
        return run(STANDARD);
    }

    @TestFactory
    Stream<DynamicTest> theLargePairsFailWithTheirKind() {
        return run(LARGE);
    }

    /** Each pair, exhaustive at the default bound (iterated from 0): the bug fails the scenario with the kind named. */
    private static Stream<DynamicTest> run(Map<String, Object[]> pairs) {
        ScenarioRegistry reg = ScenarioRegistry.everything();
        return pairs.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey() + " [bug=" + e.getValue()[0] + "]", () -> {
            CatalogBug bug = BugCatalog.find((String) e.getValue()[0]);
            assertNotNull(bug, (String) e.getValue()[0]);
            @SuppressWarnings("unchecked")
            List<String> sets = (List<String>) e.getValue()[2];
            CheckResult r = ModelCheck.exhaustive(reg.get(e.getKey())).config(KconfigTable.build(sets, List.of(bug.id()))).run();
            assertEquals(e.getValue()[1], r.kind(), r.summaryLine());
        }));
    }
}
