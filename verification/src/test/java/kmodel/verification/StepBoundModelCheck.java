package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.kernel.atomic.AtomicT;
import kmodel.kernel.sched.Sched;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** An execution that spins forever is stopped at the step bound and reported as such, not as a violation. */
@Tag("modelcheck")
class StepBoundModelCheck {

    static final class World {
        final AtomicT flag = new AtomicT("flag", 0);
    }

    @Test
    void aSpinThatNeverEndsHitsTheStepBoundWithTheSpinnerNamed() {
        Scenario<World> spin = Scenario.<World>named("spin", "a task polls a flag nobody sets")
                .setup(World::new)
                .task("poller", w -> {
                    while (w.flag.read() == 0) {
                        Sched.schedule();
                    }
                })
                .build();
        CheckResult r = ModelCheck.exhaustive(spin).preemptions(0).steps(500).run();
        assertTrue(r.passed());
        assertEquals(1, r.stepBoundHits());
        assertTrue(r.firstStepBound().startsWith("poller"), r.firstStepBound());
        assertTrue(r.summaryLine().contains("step bound"), r.summaryLine());
    }
}
