package kmodel.jpf;

import static org.junit.Assert.assertEquals;

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
 * JVM; {@link HarnessMain} is what JPF runs, at {@link JpfSettings.Granularity#PRIMITIVE} (JPF
 * switches tasks at the explorer's scheduling points and nowhere else: {@link PointSyncPolicy}).
 *
 * <ul>
 *   <li>A correct harness: JPF must find no violation and no deadlock, reach the run's end, and
 *       finish its search within {@link #BUDGET} new states: a complete proof.</li>
 *   <li>A hosted bug, or a finding harness as it is: JPF must report, within {@link #BUDGET} new
 *       states, a violation: a deadlock (tasks parked for ever: a missed wake-up) or the run's
 *       violation, thrown as an uncaught {@code AssertionError} naming its kind. Its kind may
 *       differ from the explorer's (another symptom of the bug, met first in JPF's order); the
 *       verdict names it.</li>
 * </ul>
 *
 * The budget is a guard against a run that would not end, not a bound of the result: every
 * harness is measured to need far fewer states (docs/three-checkers.md, "Java PathFinder"), and a proof stopped
 * by it fails. ({@code -Dkmodel.jpf.only=REGEX} keeps the labels that match, for a subset; one
 * that matches none fails: {@link JpfColumn#rows}.) Every row's verdict is compared with the
 * README's three-checker table, JPF column; a README without the table fails.
 */
@RunWith(Parameterized.class)
public class HarnessJpfTest extends JpfTestBase {
    /**
     * New states any run may take (the largest, the finding's world with its fix,
     * {@link FindingFixJpfTest}, needs 79,632; {@code page-lock-killable-v57} 61,900): beyond it a
     * proof fails as incomplete and a bug as not found.
     */
    static final int BUDGET = 500_000;

    private final Harness harness;
    private final String bug;

    public HarnessJpfTest(String label, Harness harness, String bug) {
        this.harness = harness;
        this.bug = bug;
    }

    @Parameters(name = "{0}")
    public static List<Object[]> configurations() {
        return JpfColumn.rows(System.getProperty("kmodel.jpf.only", ""));
    }

    static String label(Harness h, String bug) {
        return JpfColumn.label(h, bug);
    }

    @Test
    public void jpf() {
        ViolationKind kind = harness.expectedKind(bug);
        JpfOutcome o = runMain(label(harness, bug), JpfSettings.Granularity.PRIMITIVE, BUDGET,
                HarnessMain.class, harness.name(), bug == null ? "-" : bug);
        if (kind == null) {
            o.assertProof();
        } else {
            // Any violation of the run counts: JPF's search order is not the explorer's, and the
            // first violation it meets may be another symptom of the same bug (a page left locked
            // where the explorer first meets the waiter left asleep); the verdict names it.
            o.assertFinding(Expect.deadlockOr("kmodel violation "));
        }
        String table = JpfColumn.verdict(harness, bug);
        assertEquals("the README's three-checker table, JPF column, " + o.label + ": the table says '" + table
                + "', JPF " + o.verdict(), table, o.verdict());
    }
}
