package kmodel.jpf;

import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;
import kmodel.kernel.ViolationKind;
import kmodel.verification.harness.Harness;
import kmodel.verification.harness.Harnesses;
import kmodel.verification.harness.JpfColumn;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * JPF over every free-running harness ({@link Harnesses#all()}) and configuration: the harness as it
 * is, each catalog bug it hosts, and a finding harness as it is. The JPF runs happen in this (host)
 * JVM; {@link HarnessMain} is what JPF runs, at {@link JpfSettings.Granularity#PRIMITIVE}.
 *
 * <ul>
 *   <li>A correct harness: JPF must find no violation and no deadlock and reach the run's end; the
 *       search must be complete if the harness is in {@link #COMPLETE}, else it is bounded by
 *       {@link #PROOF_BUDGET} new states and the verdict says "no violation within N states".</li>
 *   <li>A hosted bug, or a finding harness as it is: JPF must report, within
 *       {@link #FINDING_BUDGET} new states, a violation: a deadlock (tasks parked for ever: a missed
 *       wake-up) or the run's violation, thrown as an uncaught {@code AssertionError} naming its
 *       kind. Its kind may differ from the explorer's (another symptom of the bug, met first in
 *       JPF's order); the verdict names it.</li>
 * </ul>
 *
 * The budgets count new states (JPF's {@code budget.max_state}): JPF's depth-first order is fixed, so
 * a bounded run is the same run on every machine. ({@code -Dkmodel.jpf.only=REGEX} keeps the labels
 * that match, for a subset.)
 */
@RunWith(Parameterized.class)
public class HarnessJpfTest extends JpfTestBase {
    /** The harnesses JPF proves completely (measured: see README, "Java PathFinder"). */
    static final List<String> COMPLETE = List.of("textbook-waitqueue");
    /** New states a proof of a harness in {@link #COMPLETE} may take before it fails as incomplete. */
    static final int COMPLETE_BUDGET = 200_000;
    /** New states of the bounded proof of every other harness. */
    static final int PROOF_BUDGET = 20_000;
    /** New states JPF may explore before it must have found a hosted bug or a finding. */
    static final int FINDING_BUDGET = 60_000;
    /**
     * The runs whose violation JPF's depth-first search does not reach within
     * {@link #FINDING_BUDGET} states (measured; the explorer finds them with preemption bounding):
     * for these the test accepts "not found within the budget" as long as JPF reports nothing
     * else, and the verdict says so.
     */
    static final List<String> BEYOND_BUDGET = List.of(
            "page-lock-killable-v57 [bug=exclusive-wait-signal-first]",
            "page-lock-killable-v510-unfair");

    private final Harness harness;
    private final String bug;

    public HarnessJpfTest(String label, Harness harness, String bug) {
        this.harness = harness;
        this.bug = bug;
    }

    @Parameters(name = "{0}")
    public static List<Object[]> configurations() {
        String only = System.getProperty("kmodel.jpf.only", "");
        List<Object[]> out = new ArrayList<>();
        for (Harness h : Harnesses.all()) {
            List<String> configs = new ArrayList<>();
            configs.add(null);
            for (String b : h.hostedBugs()) {
                configs.add(b);
            }
            for (String b : configs) {
                String label = label(h, b);
                if (only.isEmpty() || label.matches(only)) {
                    out.add(new Object[] {label, h, b});
                }
            }
        }
        return out;
    }

    static String label(Harness h, String bug) {
        return h.name() + (bug == null ? "" : " [bug=" + bug + "]");
    }

    @Test
    public void jpf() {
        ViolationKind kind = harness.expectedKind(bug);
        boolean complete = kind == null && COMPLETE.contains(harness.name());
        int budget = kind != null ? FINDING_BUDGET : complete ? COMPLETE_BUDGET : PROOF_BUDGET;
        JpfOutcome o = runMain(label(harness, bug), JpfSettings.Granularity.PRIMITIVE, budget,
                HarnessMain.class, harness.name(), bug == null ? "-" : bug);
        if (kind == null) {
            if (complete) {
                o.assertProof();
            } else {
                o.assertBoundedProof(budget);
            }
        } else if (o.errorKind == null && BEYOND_BUDGET.contains(label(harness, bug))) {
            o.assertBoundedProof(budget);
        } else {
            // Any violation of the run counts: JPF's search order is not the explorer's, and the
            // first violation it meets may be another symptom of the same bug (a page left locked
            // where the explorer first meets the waiter left asleep); the verdict names it.
            o.assertFinding(Expect.deadlockOr("kmodel violation "));
        }
        if (JpfColumn.present()) {
            String table = JpfColumn.verdict(harness, bug);
            assertEquals("the README's three-checker table, JPF column, " + o.label + ": the table says '" + table
                    + "', JPF " + o.verdict(), table, o.verdict());
        }
    }
}
