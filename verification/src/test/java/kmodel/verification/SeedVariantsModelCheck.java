package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The model with each seed patch reverted (the Kconfig switches) still passes the scenarios that
 * exercise it; and the model's own finding fails where it should.
 */
@Tag("modelcheck")
class SeedVariantsModelCheck {
    private static final ScenarioRegistry REG = ScenarioRegistry.everything();

    private static CheckResult check(String scenario, String... sets) {
        Kconfig cfg = KconfigTable.build(List.of(sets), List.of());
        return ModelCheck.exhaustive(REG.get(scenario)).config(cfg).run();
    }

    @Test
    void withoutTheAsyncSeriesTheUringReaderFallsBackToABlockingReadAndPasses() {
        for (String s : List.of("read-same-page-waitq", "waitq-spanning-read", "waitq-spanning-read-nora")) {
            CheckResult r = check(s, "ASYNC_BUFFERED_READS=n");
            assertTrue(r.passed(), "clean and complete: " + r.summaryLine() + "\n" + r.diagram());
        }
    }

    /**
     * Without patch 02 the IOCB_NOWAIT read starts no read-ahead and passes. Without patch 01
     * alone (the merged form) its read-ahead sleeps for a tag: blocked-in-nowait, shown in
     * NonBlockingReadModelCheck.
     */
    @Test
    void nowaitReadaheadPassesWithReadaheadPatch02Reverted() {
        CheckResult r = check("nowait-readahead", "READAHEAD_NOWAIT=n");
        assertTrue(r.passed(), "clean and complete: " + r.summaryLine() + "\n" + r.diagram());
    }

    /**
     * {@code page-lock-killable} with {@code PAGE_WAIT_V57=y} is not repeated here: it is the
     * setting {@code exclusive-wait-signal-first} implies, and BugCatalogModelCheck passes that
     * scenario on it at the same bound (the same search).
     */
    @Test
    void theV57PageWaitProtocolPassesThePageLockScenarios() {
        for (String s : List.of("page-wait-collisions", "writeback-free-reuse", "async-page-lock", "read-same-page")) {
            CheckResult r = check(s, "PAGE_WAIT_V57=y");
            assertTrue(r.passed(), "clean and complete: " + r.summaryLine() + "\n" + r.diagram());
        }
    }

    @Test
    void withoutSeed001TheDirectIoScenariosPassWithBiosetClonesAndPageByPageSplits() {
        for (String s : List.of("btrfs-dio-raid0-write", "btrfs-dio-raid0-read", "btrfs-dio-raid1-repair",
                "btrfs-dio-raid1-eio")) {
            CheckResult r = check(s, "BTRFS_DIO_CLONE=0");
            assertTrue(r.passed(), "clean and complete: " + r.summaryLine() + "\n" + r.diagram());
        }
    }

    @Test
    void theKilledLockerFindingIsAMissedWakeupOnV510Defaults() {
        CheckResult r = check("finding-killed-locker-strands-waiter");
        assertEquals(ViolationKind.MISSED_WAKEUP, r.kind(), r.summaryLine());
        assertTrue(r.diagram().contains("wake_page_function(killable"), r.diagram());
    }

    @Test
    void theKilledLockerFindingDisappearsWithFairHandoffOrTheV57Protocol() {
        for (String set : List.of("PAGE_LOCK_UNFAIRNESS=0", "PAGE_WAIT_V57=y")) {
            CheckResult r = check("finding-killed-locker-strands-waiter", set);
            assertTrue(r.passed(), "clean and complete: " + r.summaryLine() + "\n" + r.diagram());
        }
    }
}
