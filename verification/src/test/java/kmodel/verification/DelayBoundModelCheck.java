package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import kmodel.verification.catalog.BugCatalog;
import kmodel.verification.scenarios.TextbookScenarios;
import kmodel.verification.world.Scenario;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Delay bounding against preemption bounding on many tasks. With eight tasks that mostly do not
 * interact (page-lock-crowd), a preemption bound of 0 still runs every order in which the tasks
 * finish (8! = 40,320 executions), while a delay bound of 0 is the one round-robin schedule, and
 * the reduced search does not reorder tasks that do not interact at all. And the delay bound is a
 * real bound: a lost wake-up that needs one switch is missed at 0 and found at 1.
 */
@Tag("modelcheck")
class DelayBoundModelCheck {
    @Test
    void withManyTasksDelayBoundZeroIsOneScheduleWherePreemptionBoundZeroIsEveryFinishingOrder() {
        Scenario<?> crowd = ScenarioRegistry.everything().find("page-lock-crowd");
        CheckResult delay = ModelCheck.exhaustive(crowd).delayBound(0).run();
        assertTrue(delay.passed(), delay::summaryLine);
        assertEquals(1, delay.executions(), delay::summaryLine);
        assertTrue(delay.strategy().endsWith("delay bound 0"), delay::summaryLine);
        CheckResult preemption = ModelCheck.exhaustive(crowd).preemptions(0).reduction(false).executions(5_000).run();
        assertTrue(preemption.budgetReached(), preemption::summaryLine);
    }

    @Test
    void aLostWakeupThatNeedsOneSwitchIsMissedAtDelayBoundZeroAndFoundAtOne() {
        Kconfig bug = Kconfig.defaults().withBug(BugCatalog.TEXTBOOK_CHECK_THEN_SLEEP);
        CheckResult zero = ModelCheck.exhaustive(TextbookScenarios.waitqueue()).config(bug).delayBound(0).run();
        assertNull(zero.violation(), zero::summaryLine);
        assertEquals(1, zero.executions(), zero::summaryLine);
        CheckResult one = ModelCheck.exhaustive(TextbookScenarios.waitqueue()).config(bug).delayBound(1).run();
        assertEquals(ViolationKind.MISSED_WAKEUP, one.kind(), one::summaryLine);
    }
}
