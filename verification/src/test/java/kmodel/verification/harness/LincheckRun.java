package kmodel.verification.harness;

import java.io.OutputStream;
import java.io.PrintStream;
import kmodel.kernel.Violation;
import org.jetbrains.lincheck.Lincheck;

/**
 * One Lincheck model check of a free-running harness: {@code Lincheck.runConcurrentTest(n, ...)}
 * over {@link Harness#run}, which throws when the run reports a violation. Lincheck controls the
 * harness's threads ({@code synchronized}, {@code LockSupport.park/unpark}) and reports a run that
 * never ends (a missed wake-up: every thread parked or spinning) as "Concurrent test has hung".
 *
 * <p>What Lincheck's pass means: it explored at most {@code n} interleavings (switch positions
 * chosen by its own deterministic exploration, fixed seeds 0 and 2 in
 * {@code ModelCheckingStrategy}); a pass is SAMPLED, {@code n} invocations, not a proof. The
 * exploration is reproducible: the harness is deterministic given the interleaving, and
 * Lincheck's choices depend only on the interleavings it has seen.
 */
final class LincheckRun {
    /** What one check found. */
    enum Verdict {
        /** Every invocation ended cleanly. */
        PASSED,
        /** An invocation reported a violation (the harness's run returned one). */
        VIOLATION,
        /**
         * An invocation never ended: Lincheck's "Concurrent test has hung" with the interleaving
         * that leads to it (every thread blocked, or spinning: a deadlock).
         */
        HUNG,
        /**
         * "Concurrent test has hung" without an interleaving: the invocation overran Lincheck's
         * wall-clock limit (30 s per invocation in Lincheck 3.7, not settable through
         * {@code runConcurrentTest}), which an overloaded machine can cause on the first
         * invocation, when Lincheck instruments the classes. Not a finding: a test that sees it
         * fails and says so, rather than count it as a deadlock.
         */
        TIMEOUT
    }

    final String harness;
    final String bug;
    final int requested;
    final Verdict verdict;
    /** Invocations Lincheck ran (the block's runs, Lincheck's replays of a failure included). */
    final int invocations;
    final long millis;
    /** Lincheck's report, or null when it passed. */
    final String report;
    /** Lincheck's internal crashes before this run (0 or 1): see {@link #check}. */
    final int crashes;

    private LincheckRun(String harness, String bug, int requested, Verdict verdict, int invocations, long millis,
            String report, int crashes) {
        this.harness = harness;
        this.bug = bug;
        this.requested = requested;
        this.verdict = verdict;
        this.invocations = invocations;
        this.millis = millis;
        this.report = report;
        this.crashes = crashes;
    }

    /**
     * Counts the block's runs. Lincheck restores the heap between invocations, so a counter in the
     * test would read 0; calls on {@code System.out} are outside its analysis, so the count lives
     * in a print stream put in place of {@code System.out} for the duration of the check.
     */
    private static final class Counter extends PrintStream {
        int count;

        Counter(OutputStream out) {
            super(out, true);
        }

        @Override
        public void print(char c) {
            if (c == '\u0001') {
                count++;
            } else {
                super.print(c);
            }
        }
    }

    /**
     * Model checks {@code harness} with {@code bugOrNull} switched in, at most {@code invocations}
     * interleavings.
     *
     * <p>Lincheck reports what it finds as an {@link AssertionError}; any other exception out of
     * {@code runConcurrentTest} is Lincheck failing inside itself, not a verdict on the model. CI
     * saw one such crash, in the eighth of its builds on record ({@code IndexOutOfBoundsException:
     * Index 1 out of bounds for length 1} out of {@code runConcurrentTest}, in {@code
     * theExplorationIsReproducible}); here 40 checks of that harness in one JVM (20 with that bug,
     * 20 without) ran without one.
     * Lincheck's tracker has such internal index errors, one of them labelled non-determinism
     * (JetBrains/lincheck #373, #405). So a crash is printed whole (stack trace and all, for the
     * build log) and the check is run once more from the start; a second crash is thrown. The
     * result says how many crashes it went through ({@link #crashes}): a verdict is only ever
     * taken from a run that ended.
     */
    static LincheckRun check(Harness harness, String bugOrNull, int invocations) {
        try {
            return checkOnce(harness, bugOrNull, invocations, 0);
        } catch (RuntimeException crash) {
            System.out.println("lincheck: " + harness.name() + (bugOrNull != null ? " [" + bugOrNull + "]" : "")
                    + ": Lincheck crashed inside itself (not a verdict); its stack trace, then one more run:");
            crash.printStackTrace(System.out);
            return checkOnce(harness, bugOrNull, invocations, 1);
        }
    }

    private static LincheckRun checkOnce(Harness harness, String bugOrNull, int invocations, int crashes) {
        PrintStream out = System.out;
        Counter counter = new Counter(out);
        System.setOut(counter);
        long t0 = System.nanoTime();
        Verdict verdict = Verdict.PASSED;
        String report = null;
        try {
            Lincheck.runConcurrentTest(invocations, () -> {
                System.out.print('\u0001');
                Violation v = harness.run(bugOrNull);
                if (v != null) {
                    throw new IllegalStateException("kmodel violation: " + v.kind().label() + ": " + v.getMessage());
                }
            });
        } catch (AssertionError e) {
            report = String.valueOf(e.getMessage());
            if (!report.contains("Concurrent test has hung")) {
                verdict = Verdict.VIOLATION;
            } else if (report.contains("The following interleaving leads to the error")) {
                verdict = Verdict.HUNG;
            } else {
                verdict = Verdict.TIMEOUT;
            }
        } finally {
            System.setOut(out);
        }
        long millis = (System.nanoTime() - t0) / 1_000_000;
        LincheckRun r = new LincheckRun(harness.name(), bugOrNull, invocations, verdict, counter.count, millis, report,
                crashes);
        out.println("lincheck: " + r);
        if (report != null && Boolean.getBoolean("lincheck.report")) {
            out.println(report);
        }
        return r;
    }

    /** The violation line of the report, e.g. {@code kmodel violation: double-release: ...}; null if none. */
    String violationLine() {
        if (report == null) {
            return null;
        }
        int at = report.indexOf("kmodel violation: ");
        if (at < 0) {
            return null;
        }
        int end = report.indexOf('\n', at);
        return report.substring(at, end < 0 ? report.length() : end);
    }

    @Override
    public String toString() {
        return harness + (bug != null ? " [" + bug + "]" : "") + ": " + verdict + " after " + invocations + " of "
                + requested + " invocations, " + millis + " ms"
                + (verdict == Verdict.VIOLATION ? " (" + violationLine() + ")" : "")
                + (crashes > 0 ? ", after " + crashes + " Lincheck crash" : "");
    }
}
