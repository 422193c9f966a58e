package kmodel.verification.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The explorer column of the README's three-checker table: each harness run (the same scenario
 * and configuration the free-running harness runs) checked by the kmodel explorer, and the
 * verdict compared with the cell's. The search: unbounded source-DPOR with a budget of 20,000
 * executions ({@code proved} when it finishes); where it does not, bounded DPOR at preemption
 * bound 2 ({@code passed} within that bound). A violation is {@code found <kind>}. Figures are
 * printed for the README (measured, never asserted).
 */
@Tag("modelcheck")
class ThreeCheckersModelCheck {
    static final long UNBOUNDED_BUDGET = 20_000;
    static final int BOUND = 2;

    static List<Arguments> rows() {
        List<Arguments> rows = new ArrayList<>();
        for (Harness h : Harnesses.all()) {
            for (String run : CheckerTable.runsOf(h)) {
                rows.add(Arguments.of(h.name(), run));
            }
        }
        return rows;
    }

    /** The explorer's verdict for {@code harness} and {@code run}, with its figures printed. */
    static String explore(Harness h, String run) {
        String bug = CheckerTable.bugOf(run);
        CheckResult r = ModelCheck.exhaustive(h.scenario()).config(h.config(bug)).preemptions(ModelCheck.UNBOUNDED)
                .executions(UNBOUNDED_BUDGET).run();
        String strength = "complete";
        long executions = r.executions();
        long nanos = r.nanos();
        if (r.violation() == null && !r.complete()) {
            r = ModelCheck.exhaustive(h.scenario()).config(h.config(bug)).preemptions(BOUND).run();
            strength = "bound " + BOUND;
            executions += r.executions();
            nanos += r.nanos();
        }
        String verdict;
        if (r.violation() != null) {
            verdict = "found " + r.kind().label();
            strength = strength.equals("complete") ? "unbounded search" : strength;
        } else if (r.passed()) {
            verdict = strength.equals("complete") ? "proved" : "passed";
        } else {
            verdict = r.verdict().toString().toLowerCase(java.util.Locale.ROOT);
        }
        System.out.printf("explorer: %s [%s]: %s, %,d executions, %.1f s, %s%n", h.name(), run, verdict, executions,
                nanos / 1e9, strength);
        return verdict;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("rows")
    void theExplorerColumnSaysWhatTheExplorerFinds(String harness, String run) {
        Harness h = Harnesses.named(harness);
        String found = explore(h, run);
        assertEquals(CheckerTable.fromReadme().verdict(harness, run, CheckerTable.EXPLORER), found);
    }
}
