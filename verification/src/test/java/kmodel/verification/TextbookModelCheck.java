package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import kmodel.verification.catalog.BugCatalog;
import kmodel.verification.scenarios.TextbookScenarios;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("modelcheck")
class TextbookModelCheck {

    @Test
    void prepareToWaitNeverMissesTheWakeupExhaustively() {
        CheckResult r = ModelCheck.exhaustive(TextbookScenarios.waitqueue()).preemptions(2).reduction(false).run();
        assertTrue(r.passed(), () -> "clean and complete: " + r.summaryLine() + "\n" + r.diagram());
        assertEquals(java.util.Set.of("waiter1,waiter2"), r.outcomes(), "both waiters get past the wait");
        /*
         * Bound 0, by hand: without preemptions a task runs until it sleeps or exits, and only
         * the first pick and the picks after a sleep or an exit with two or more runnable tasks
         * are choices.
         *   waker first: it finds no sleeper and exits; then waiter1 or waiter2 runs and exits
         *     without sleeping, then the other: 2 executions.
         *   waiter1 first: it sleeps; then
         *     the waker: it wakes waiter1 and exits; waiter1 or waiter2 next: 2 executions;
         *     waiter2: it sleeps too; the waker wakes both and exits; either waiter next: 2.
         *   waiter2 first: the same, 4.
         * 2 + 4 + 4 = 10. Each higher bound adds schedules, and the iterated search runs them all.
         * (Plain DFS: these are counts of interleavings, which the reduction does not keep.)
         */
        CheckResult b0 = ModelCheck.exhaustive(TextbookScenarios.waitqueue()).preemptions(0).iterative(false).reduction(false).run();
        CheckResult b1 = ModelCheck.exhaustive(TextbookScenarios.waitqueue()).preemptions(1).iterative(false).reduction(false).run();
        CheckResult b2 = ModelCheck.exhaustive(TextbookScenarios.waitqueue()).preemptions(2).iterative(false).reduction(false).run();
        assertEquals(10, b0.executions());
        assertTrue(b0.executions() < b1.executions() && b1.executions() < b2.executions(),
                b0.executions() + ", " + b1.executions() + ", " + b2.executions());
        assertEquals(b0.executions() + b1.executions() + b2.executions(), r.executions(), "bounds 0, 1 and 2 in turn");
    }

    @Test
    void checkThenSleepIsFoundAsAMissedWakeup() {
        CheckResult r = ModelCheck.exhaustive(TextbookScenarios.waitqueue())
                .config(Kconfig.defaults().withBug(BugCatalog.TEXTBOOK_CHECK_THEN_SLEEP)).run();
        assertEquals(ViolationKind.MISSED_WAKEUP, r.kind(), r::summaryLine);
        assertTrue(r.diagram().contains("waiter"), r.diagram());
        assertNotNull(r.token());
    }

    @Test
    void refcountScenarioPassesExhaustively() {
        CheckResult r = ModelCheck.exhaustive(TextbookScenarios.refcount()).preemptions(3).run();
        assertTrue(r.passed(), () -> "clean and complete: " + r.summaryLine() + "\n" + r.diagram());
    }

    @Test
    void doublePutIsADoubleRelease() {
        CheckResult r = ModelCheck.exhaustive(TextbookScenarios.refcount())
                .config(Kconfig.defaults().withBug(BugCatalog.TEXTBOOK_DOUBLE_PUT)).run();
        assertEquals(ViolationKind.DOUBLE_RELEASE, r.kind(), r::summaryLine);
    }

    @Test
    void forgottenPutIsARefLeak() {
        CheckResult r = ModelCheck.exhaustive(TextbookScenarios.refcount())
                .config(Kconfig.defaults().withBug(BugCatalog.TEXTBOOK_FORGOTTEN_PUT)).run();
        assertEquals(ViolationKind.REF_LEAK, r.kind(), r::summaryLine);
    }

    @Test
    void sleepingWithTheLookupLockHeldIsALockLeak() {
        CheckResult r = ModelCheck.exhaustive(TextbookScenarios.refcount())
                .config(Kconfig.defaults().withBug(BugCatalog.TEXTBOOK_SLEEP_HOLDING_SPINLOCK)).run();
        assertEquals(ViolationKind.LOCK_LEAK, r.kind(), r::summaryLine);
    }

    @Test
    void randomAndPctFindTheLostWakeupToo() {
        Kconfig bug = Kconfig.defaults().withBug(BugCatalog.TEXTBOOK_CHECK_THEN_SLEEP);
        CheckResult random = ModelCheck.random(TextbookScenarios.waitqueue()).seed(3).executions(5000).config(bug).run();
        assertEquals(ViolationKind.MISSED_WAKEUP, random.kind());
        CheckResult pct = ModelCheck.pct(TextbookScenarios.waitqueue()).seed(3).depth(2).executions(5000).config(bug).run();
        assertEquals(ViolationKind.MISSED_WAKEUP, pct.kind());
    }

    @Test
    void exhaustiveCountsAreTheSameEveryRun() {
        CheckResult a = ModelCheck.exhaustive(TextbookScenarios.waitqueue()).run();
        CheckResult b = ModelCheck.exhaustive(TextbookScenarios.waitqueue()).run();
        assertEquals(a.executions(), b.executions());
        assertEquals(a.distinctOutcomes(), b.distinctOutcomes());
        assertFalse(a.summaryLine().isEmpty());
    }

    @Test
    void replayTokenReproducesTheIdenticalDiagram() {
        CheckResult r = ModelCheck.exhaustive(TextbookScenarios.waitqueue())
                .config(Kconfig.defaults().withBug(BugCatalog.TEXTBOOK_CHECK_THEN_SLEEP)).run();
        ScenarioRegistry reg = ScenarioRegistry.standard();
        ModelCheck.Replay replay = ModelCheck.replay(r.token(), reg, false);
        assertEquals(r.diagram(), replay.diagram());
        assertEquals(ViolationKind.MISSED_WAKEUP, replay.violation().kind());
        ModelCheck.Replay again = ModelCheck.replay(r.token(), reg, false);
        assertEquals(replay.diagram(), again.diagram());
        List<String> lines = List.of(replay.diagram().split("\n"));
        assertTrue(lines.get(0).contains("waiter1"), replay.diagram());
    }
}
