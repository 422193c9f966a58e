package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.verification.catalog.BugCatalog;
import kmodel.verification.scenarios.TextbookScenarios;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A pass is clean and complete: a search cut by its execution budget is INCOMPLETE, a violation is
 * FAIL (and ends the search), and only a finished, clean search is PASS. (A run stopped at the
 * step bound is BOUND: StepBoundModelCheck.)
 *
 * <p>The budgets below rest on one count: textbook-waitqueue has exactly 10 executions at
 * preemption bound 0, derived by hand in TextbookModelCheck.
 */
@Tag("modelcheck")
class VerdictModelCheck {
    private static final long EXECUTIONS_AT_BOUND_0 = 10;

    private static ModelCheck boundZero() {
        return ModelCheck.exhaustive(TextbookScenarios.waitqueue()).preemptions(0);
    }

    @Test
    void aSearchCutByTheExecutionBudgetIsIncompleteNotAPass() {
        CheckResult r = boundZero().executions(EXECUTIONS_AT_BOUND_0 - 1).run();
        assertEquals(EXECUTIONS_AT_BOUND_0 - 1, r.executions());
        assertTrue(r.clean(), r::summaryLine);
        assertFalse(r.complete(), r::summaryLine);
        assertTrue(r.budgetReached(), r::summaryLine);
        assertFalse(r.passed(), r::summaryLine);
        assertEquals(CheckResult.Verdict.INCOMPLETE, r.verdict());
        assertTrue(r.summaryLine().startsWith("INCOMPLETE textbook-waitqueue  9 executions"), r::summaryLine);
        assertTrue(r.summaryLine().endsWith("(budget reached, not exhaustive)"), r::summaryLine);
    }

    @Test
    void aBudgetThatFitsTheWholeSearchLeavesItCompleteAndAPass() {
        CheckResult r = boundZero().executions(EXECUTIONS_AT_BOUND_0).run();
        assertEquals(EXECUTIONS_AT_BOUND_0, r.executions());
        assertFalse(r.budgetReached(), r::summaryLine);
        assertTrue(r.passed(), () -> "clean and complete: " + r.summaryLine());
        assertEquals(CheckResult.Verdict.PASS, r.verdict());
        assertTrue(r.summaryLine().startsWith("PASS textbook-waitqueue  10 executions"), r::summaryLine);
    }

    @Test
    void aViolationIsAFailThatEndsTheSearch() {
        CheckResult r = ModelCheck.exhaustive(TextbookScenarios.refcount())
                .config(Kconfig.defaults().withBug(BugCatalog.TEXTBOOK_DOUBLE_PUT)).run();
        assertEquals(CheckResult.Verdict.FAIL, r.verdict());
        assertFalse(r.clean(), r::summaryLine);
        assertFalse(r.complete(), "stopped at the first violation: " + r.summaryLine());
        assertFalse(r.passed(), r::summaryLine);
    }

    @Test
    void aSampledCheckThatRanEveryExecutionItWasAskedForIsComplete() {
        CheckResult r = ModelCheck.random(TextbookScenarios.waitqueue()).seed(5).executions(40).run();
        assertEquals(40, r.executions());
        assertFalse(r.budgetReached(), r::summaryLine);
        assertTrue(r.passed(), () -> "clean and complete: " + r.summaryLine());
        assertTrue(r.summaryLine().startsWith("PASS textbook-waitqueue  40 executions"), r::summaryLine);
    }
}
