package kmodel.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.kernel.atomic.AtomicT;
import kmodel.kernel.sched.Sched;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An execution that spins forever is stopped at the step bound and reported as such: not as a
 * violation, and not as a pass either (the run was never checked to its end).
 */
@Tag("modelcheck")
class StepBoundModelCheck {

    static final class World {
        final AtomicT flag = new AtomicT("flag", 0);
    }

    static TestTarget<World> spinner() {
        return TestTarget.<World>named("spin", "a task polls a flag nobody sets")
                .setup(World::new)
                .task("poller", w -> {
                    while (w.flag.read() == 0) {
                        Sched.schedule();
                    }
                })
                .build();
    }

    @Test
    void aSpinThatNeverEndsHitsTheStepBoundWithTheSpinnerNamed() {
        TestTarget<World> spin = spinner();
        CheckResult r = ModelCheck.exhaustive(spin).preemptions(0).steps(500).run();
        assertNull(r.violation(), r::summaryLine);
        assertEquals(1, r.stepBoundHits());
        assertTrue(r.firstStepBound().startsWith("poller"), r.firstStepBound());
        assertTrue(r.summaryLine().contains("step bound"), r.summaryLine());
    }

    @Test
    void aRunStoppedAtTheStepBoundIsBoundNotAPassEvenWhenTheSearchFinished() {
        CheckResult r = ModelCheck.exhaustive(spinner()).preemptions(0).steps(500).run();
        assertTrue(r.complete(), "the search itself finished: " + r.summaryLine());
        assertFalse(r.clean(), r::summaryLine);
        assertFalse(r.passed(), r::summaryLine);
        assertEquals(CheckResult.Verdict.BOUND, r.verdict());
        assertTrue(r.summaryLine().startsWith("BOUND spin  1 execution, 0 outcomes"), r::summaryLine);
    }
}
