package kmodel.jpf;

import java.util.ArrayList;
import java.util.List;
import kmodel.kernel.ViolationKind;
import kmodel.verification.harness.Harness;
import kmodel.verification.harness.Harnesses;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * (For a subset, {@code -Dkmodel.jpf.only=REGEX} keeps the labels that match.)
 *
 * <p>JPF over every free-running harness ({@link Harnesses#all()}) and configuration: the harness as it
 * is (JPF must prove it: no deadlock, no violation, the search complete, the run's end reached),
 * each catalog bug it hosts, and a finding harness without a bug (JPF must find the violation the
 * explorer reports: a missed wake-up as a deadlock, any other kind as the harness's violation,
 * thrown as an uncaught {@code AssertionError} naming the kind). The JPF runs happen in this (host)
 * JVM; {@link HarnessMain} is what JPF runs.
 */
@RunWith(Parameterized.class)
public class HarnessJpfTest extends JpfTestBase {
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
        JpfOutcome o = runMain(label(harness, bug), JpfSettings.Granularity.PRIMITIVE, HarnessMain.class, harness.name(), bug == null ? "-" : bug);
        ViolationKind kind = harness.expectedKind(bug);
        if (kind == null) {
            o.assertProof();
        } else if (harness.hangs(bug)) {
            o.assertFinding(Expect.deadlockOr(kind.label()));
        } else {
            o.assertFinding(Expect.exception(kind.label()));
        }
    }
}
