package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.ViolationKind;
import kmodel.mm.FilemapBugs;
import kmodel.verification.scenarios.PageLockScenarios;
import kmodel.verification.world.Scenario;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The larger page-lock worlds: a lock stealer, a killable locker with a signal at any point and
 * writeback ending while it waits, and a crowd of eight lockers. Each passes, and each is failed
 * by a catalog bug (the stealer and the writeback world are also paired in
 * {@code CoverageModelCheck}); the crowd shows what partial-order reduction removes.
 */
@Tag("modelcheck")
class LargerWorldsModelCheck {

    private static CheckResult withBug(Scenario<?> s, String bug, int preemptions) {
        return ModelCheck.exhaustive(s).preemptions(preemptions)
                .config(KconfigTable.build(List.of(), List.of(bug))).run();
    }

    @Test
    void theStealerMayWinNeitherOneOrBothOfItsAttemptsAndNoWaiterIsStranded() {
        CheckResult r = ModelCheck.exhaustive(ScenarioRegistry.standard().get("page-lock-stealer")).preemptions(2).run();
        assertTrue(r.passed(), r::summaryLine);
        assertEquals(Set.of("steals=0", "steals=1", "steals=2"), new TreeSet<>(r.outcomes()));
    }

    /**
     * A stolen wake-up makes {@code wake_page_function()} stop the walk with the waiter still
     * queued, and without {@code page_match} the walk then clears PG_waiters under it.
     */
    @Test
    void theStealerWorldFindsTheWalkThatClearsWaitersUnderAQueuedLocker() {
        CheckResult r = withBug(ScenarioRegistry.standard().get("page-lock-stealer"), FilemapBugs.WAKE_PAGE_MATCH_NOT_SET, 2);
        assertEquals(ViolationKind.MISSED_WAKEUP, r.kind(), r::summaryLine);
        assertTrue(r.violation().getMessage().startsWith("locker sleeps in TASK_UNINTERRUPTIBLE waiting on locker.wait_page"),
                r.violation()::getMessage);
    }

    @Test
    void aKilledLockerAndAWritebackWaiterBothComeThroughWithinOnePreemption() {
        CheckResult r = ModelCheck.exhaustive(ScenarioRegistry.standard().get("page-lock-killable-writeback"))
                .preemptions(1).run();
        assertTrue(r.passed(), r::summaryLine);
        assertEquals(Set.of("-EINTR", "0"), new TreeSet<>(r.outcomes()));
    }

    /**
     * Six lockers that interact with nobody add not one execution to the reduced search: the
     * crowd costs exactly what its contending pair costs alone.
     */
    @Test
    void theCrowdIsCompleteUnderPartialOrderReductionForThePriceOfItsContendingPair() {
        CheckResult r = ModelCheck.exhaustive(ScenarioRegistry.large().get("page-lock-crowd"))
                .preemptions(ModelCheck.UNBOUNDED).run();
        assertTrue(r.passed(), r::summaryLine);
        assertTrue(r.summaryLine().contains("complete"), r::summaryLine);
        CheckResult pair = ModelCheck.exhaustive(PageLockScenarios.crowdOf(2, "page-lock-pair", "the contending pair"))
                .preemptions(ModelCheck.UNBOUNDED).run();
        assertTrue(pair.passed(), pair::summaryLine);
        assertEquals(pair.executions(), r.executions(), () -> pair.summaryLine() + " vs " + r.summaryLine());
    }

    /** Plain DFS at bound 0 runs every task to its end: it explores every order of the eight, 8!. */
    @Test
    void plainDfsAtBoundZeroExploresEveryOrderInWhichTheCrowdFinishes() {
        CheckResult r = ModelCheck.exhaustive(ScenarioRegistry.large().get("page-lock-crowd"))
                .preemptions(0).reduction(false).run();
        assertTrue(r.passed(), r::summaryLine);
        assertEquals(8L * 7 * 6 * 5 * 4 * 3 * 2, r.executions(), r::summaryLine);
    }

    @Test
    void theCrowdFindsTheHandOffThatForgetsDone() {
        CheckResult r = withBug(ScenarioRegistry.large().get("page-lock-crowd"), FilemapBugs.HANDOFF_FORGETS_DONE,
                ModelCheck.UNBOUNDED);
        assertEquals(ViolationKind.MISSED_WAKEUP, r.kind(), r::summaryLine);
        assertTrue(r.violation().getMessage().startsWith("locker1 sleeps in TASK_UNINTERRUPTIBLE waiting on locker1.wait_page"),
                r.violation()::getMessage);
    }
}
