package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.atomic.AtomicT;
import kmodel.kernel.sched.Sched;
import kmodel.verification.catalog.BugCatalog;
import kmodel.verification.scenarios.TextbookScenarios;
import kmodel.verification.world.Scenario;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The explorer pinned by its own tests: exhaustive search at preemption bound b explores exactly
 * the executions with at most b preemptions, the iterated search re-runs every lower bound, and a
 * bug that needs one preemption is missed at bound 0 and found at bound 1.
 */
@Tag("modelcheck")
class ExplorationBoundsModelCheck {

    /** Two tasks, each passing three scheduling points; the log records the interleaving. */
    static final class TwoTasks {
        final AtomicT x = new AtomicT("x", 0);
        final StringBuilder log = new StringBuilder();

        /** Four blocks, a letter each, separated by three scheduling points (atomic_read). */
        void run() {
            String me = Sched.current().name();
            log.append(me);
            for (int i = 0; i < 3; i++) {
                x.read();
                log.append(me);
            }
        }
    }

    static Scenario<TwoTasks> twoTasksOfThreePoints() {
        return Scenario.<TwoTasks>named("two-tasks-three-points", "two tasks of three scheduling points each")
                .setup(TwoTasks::new)
                .task("a", TwoTasks::run)
                .task("b", TwoTasks::run)
                .outcome(w -> w.log.toString())
                .build();
    }

    private static CheckResult atBound(Scenario<?> s, int bound) {
        return ModelCheck.exhaustive(s).preemptions(bound).iterative(false).reduction(false).run();
    }

    /**
     * How many executions DFS explores at bound b, derived by hand.
     *
     * <p>Each task is four blocks (a letter of the log each) with a scheduling point between
     * consecutive blocks, so an execution is an interleaving of {@code aaaa} and {@code bbbb}, and
     * every interleaving is one execution (the outcome is the word itself, so the executions are
     * also the distinct outcomes). Which switches cost a preemption: the first pick is free (no
     * task is running); switching away at a point, where the running task could go on, costs
     * one; the switch when a task exits is free, and then only the other task is left, which runs
     * to its end without a choice. So a word of R runs (maximal blocks of one letter) costs
     * R - 2 preemptions: every switch but the last.
     *
     * <p>Words of n = 4 a's and 4 b's with R runs: the letters' runs alternate, so R = 2m splits
     * each letter into m runs, 2 * C(n-1, m-1)^2 words (2 for the first letter, C(n-1, m-1)
     * compositions of n into m parts per letter), and R = 2m+1 gives the first letter m+1 runs and
     * the other m, 2 * C(n-1, m) * C(n-1, m-1) words. With exactly p preemptions (R = p + 2):
     * <pre>
     *   p = 0  R = 2  2 * C(3,0)^2          =  2   (aaaabbbb, bbbbaaaa)
     *   p = 1  R = 3  2 * C(3,1) * C(3,0)   =  6   (a^i b^4 a^(4-i), i = 1..3, and the same from b)
     *   p = 2  R = 4  2 * C(3,1)^2          = 18
     *   p = 3  R = 5  2 * C(3,2) * C(3,1)   = 18
     *   p = 4  R = 6  2 * C(3,2)^2          = 18
     *   p = 5  R = 7  2 * C(3,3) * C(3,2)   =  6
     *   p = 6  R = 8  2 * C(3,3)^2          =  2   (abababab, babababa)
     * </pre>
     * Bound b explores every word with p <= b: 2, 8, 26, 44, 62, 68, 70, and from b = 6 on all
     * C(8,4) = 70 interleavings.
     */
    private static final long[] EXECUTIONS_AT_BOUND = {2, 8, 26, 44, 62, 68, 70, 70};

    @Test
    void executionsAtEachBoundAreTheInterleavingsWithThatManyPreemptionsCountedByHand() {
        Scenario<TwoTasks> s = twoTasksOfThreePoints();
        long previous = 0;
        for (int b = 0; b < EXECUTIONS_AT_BOUND.length; b++) {
            CheckResult r = atBound(s, b);
            assertTrue(r.passed(), "clean and complete: " + r.summaryLine());
            assertEquals(EXECUTIONS_AT_BOUND[b], r.executions(), "bound " + b);
            assertEquals(EXECUTIONS_AT_BOUND[b], r.distinctOutcomes(),
                    "bound " + b + ": each execution is a new interleaving");
            if (b <= 6) {
                assertTrue(r.executions() > previous, "bound " + b + " explores strictly more than bound " + (b - 1));
            }
            previous = r.executions();
        }
    }

    @Test
    void theIteratedSearchRunsEveryBoundFromZero() {
        // Bounds 0, 1 and 2 in turn: 2 + 8 + 26 executions (each bound re-runs the ones below it).
        CheckResult r = ModelCheck.exhaustive(twoTasksOfThreePoints()).preemptions(2).reduction(false).run();
        assertTrue(r.passed(), "clean and complete: " + r.summaryLine());
        assertEquals(2 + 8 + 26, r.executions());
        assertEquals(26, r.distinctOutcomes());
    }

    @Test
    void checkThenSleepIsMissedAtBoundZeroAndFoundAtBoundOne() {
        Kconfig bug = Kconfig.defaults().withBug(BugCatalog.TEXTBOOK_CHECK_THEN_SLEEP);
        Scenario<?> s = TextbookScenarios.waitqueue();
        // The lost wake-up needs the waker to run between a waiter's test and its sleep: a
        // preemption. Without one every schedule is clean (10 of them, as in TextbookModelCheck).
        CheckResult zero = ModelCheck.exhaustive(s).config(bug).preemptions(0).reduction(false).run();
        assertTrue(zero.passed(), "clean and complete: " + zero.summaryLine());
        assertEquals(10, zero.executions());
        CheckResult one = ModelCheck.exhaustive(s).config(bug).preemptions(1).reduction(false).run();
        assertEquals(ViolationKind.MISSED_WAKEUP, one.kind(), one::summaryLine);
        assertTrue(one.violation().getMessage().contains("sleeps in TASK_UNINTERRUPTIBLE waiting on q (cond)"),
                one.violation()::summary);
        assertTrue(one.strategy().endsWith("preemption bound 1"), one::strategy);
        assertFalse(one.passed());
    }
}
