package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.kernel.ViolationKind;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The io_uring scenarios (large: not in the default check) at the bound where they finish in
 * seconds: the ring's exit and close paths pass, complete at preemption bound 2 (the search
 * covers every execution with at most two preemptions, reduced by DPOR); and the finding
 * {@code finding-uring-nowait-issue-sleeps-on-tag} fails with {@code blocked-in-nowait}, which
 * is also this check's demonstration that the non-blocking section catches a sleep.
 */
@Tag("modelcheck")
class UringModelCheck {
    private static CheckResult bound2(String name) {
        return ModelCheck.exhaustive(ScenarioRegistry.everything().get(name)).preemptions(2).run();
    }

    @Test
    void aTaskExitingWithACallbackArmedLeavesOneCqeAndAFreedRingWithinBound2() {
        CheckResult r = bound2("uring-exit-armed");
        assertTrue(r.passed(), r::summaryLine);
        assertEquals(2, r.outcomes().size(), r::summaryLine);
    }

    @Test
    void closingTheRingWithATaskWorkRetryPendingLeavesOneCqeAndAFreedRingWithinBound2() {
        CheckResult r = bound2("uring-close-taskwork");
        assertTrue(r.passed(), r::summaryLine);
    }

    @Test
    void v510sNonBlockingIssueSleepsForARequestTag() {
        CheckResult r = ModelCheck.exhaustive(ScenarioRegistry.everything().get("finding-uring-nowait-issue-sleeps-on-tag")).run();
        assertEquals(ViolationKind.BLOCKED_IN_NOWAIT, r.kind(), r::summaryLine);
        assertTrue(r.violation().getMessage().contains("waiting on a request tag of sda"), r.violation().summary());
    }
}
