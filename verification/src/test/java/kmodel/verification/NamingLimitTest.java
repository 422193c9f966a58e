package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.kernel.Kernel;
import kmodel.kernel.atomic.Shared;
import kmodel.kernel.sched.ExplorationLimitException;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.verification.world.Scenario;
import org.junit.jupiter.api.Test;

/**
 * The reducing search names objects that do not extend {@code Footprinted} by identity, up to an
 * internal limit (issue 25): reaching it is reported as the limit itself, with what to change,
 * not as a violation nor as a replay token that "does not fit its scenario" (the replay does not
 * observe steps, so it never met the limit); and values whose equality names their role (a fresh
 * {@code String} per execution) are named by equality and need no room under the limit.
 */
class NamingLimitTest {
    /** Two tasks, each reporting {@code objects} accesses: fresh objects, or fresh strings of 8 values. */
    private static Scenario<Shared<Integer>> naming(int objects, boolean strings) {
        return Scenario.<Shared<Integer>>named(strings ? "fresh-strings" : "fresh-objects",
                "steps that report fresh objects")
                .setup(() -> new Shared<>("x", 0))
                .tasks((x, sc) -> {
                    for (int t = 0; t < 2; t++) {
                        sc.task("t" + t, () -> {
                            for (int i = 0; i < objects; i++) {
                                Kernel.access(strings ? new StringBuilder("page").append(i % 8).toString() : new Object());
                            }
                            x.writeOnce(1);
                        });
                    }
                })
                .build();
    }

    @Test
    void theLimitIsReportedAsItselfWithWhatToChange() {
        ExplorationLimitException e = assertThrows(ExplorationLimitException.class,
                () -> ModelCheck.exhaustive(naming(3000, false)).preemptions(ModelCheck.UNBOUNDED).run());
        String m = e.getMessage();
        assertTrue(m.startsWith("internal limit reached:"), m);
        assertTrue(m.contains("4097th") && m.contains("java.lang.Object") && m.contains("task t1"), m);
        assertTrue(m.contains("extend kmodel.kernel.sched.Footprinted") && m.contains("--reduction none")
                && m.contains("-Dkmodel.maxUnnamed=N"), m);
        assertTrue(!m.contains("replay") && !m.contains("does not fit"), m);
    }

    /** The limit's check itself: under it, the same program passes (the test above fails for the limit, not the program). */
    @Test
    void underTheLimitTheProgramPasses() {
        CheckResult r = ModelCheck.exhaustive(naming(500, false)).preemptions(ModelCheck.UNBOUNDED).run();
        assertTrue(r.passed() && r.complete(), r::summaryLine);
    }

    /** The case: a fresh String per access, 6,000 of them, named by value: no limit. */
    @Test
    void freshStringsAreNamedByTheirValue() {
        CheckResult r = ModelCheck.exhaustive(naming(3000, true)).preemptions(ModelCheck.UNBOUNDED).run();
        assertTrue(r.passed() && r.complete(), r::summaryLine);
    }
}
