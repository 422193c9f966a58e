package kmodel.jpf;

import static org.junit.Assert.fail;

import gov.nasa.jpf.Error;
import gov.nasa.jpf.JPF;
import gov.nasa.jpf.report.Statistics;
import gov.nasa.jpf.vm.NoUncaughtExceptionsProperty;
import gov.nasa.jpf.vm.NotDeadlockedProperty;
import java.util.List;
import java.util.Locale;

/** What one JPF run reported, read in the host JVM, and the judgement of a proof or a finding. */
final class JpfOutcome {
    /** What the run is about (a harness and its configuration), for the report. */
    final String label;
    /** "deadlock", "exception", "other" or null (no error). */
    final String errorKind;
    /** The error's text: the deadlock message or the exception's class and message. */
    final String errorText;
    final long newStates;
    final long visitedStates;
    final long endStates;
    final int maxDepth;
    /** Search constraints hit (depth limit, memory, ...): non-zero means the search is not complete. */
    final int constraints;
    final String lastConstraint;
    final long seconds10; // tenths of a second
    final JpfWatch watch;

    private JpfOutcome(String label, String errorKind, String errorText, Statistics st, String lastConstraint,
            long nanos, JpfWatch watch) {
        this.label = label;
        this.errorKind = errorKind;
        this.errorText = errorText;
        this.newStates = st == null ? 0 : st.newStates;
        this.visitedStates = st == null ? 0 : st.visitedStates;
        this.endStates = st == null ? 0 : st.endStates;
        this.maxDepth = st == null ? 0 : st.maxDepth;
        this.constraints = st == null ? 0 : st.constraints;
        this.lastConstraint = lastConstraint;
        this.seconds10 = Math.round(nanos / 1e8);
        this.watch = watch;
    }

    static JpfOutcome of(String label, JPF jpf, JpfWatch watch, long nanos) {
        List<Error> errors = jpf.getSearchErrors();
        String kind = null;
        String text = null;
        if (errors != null && !errors.isEmpty()) {
            Error e = errors.get(0);
            if (e.getProperty() instanceof NotDeadlockedProperty) {
                kind = "deadlock";
                text = e.getDescription();
            } else if (e.getProperty() instanceof NoUncaughtExceptionsProperty) {
                kind = "exception";
                NoUncaughtExceptionsProperty p = (NoUncaughtExceptionsProperty) e.getProperty();
                text = p.getUncaughtExceptionInfo() == null ? e.getDetails()
                        : p.getUncaughtExceptionInfo().getExceptionClassname() + ": " + p.getUncaughtExceptionInfo().getDetails();
            } else {
                kind = "other";
                text = e.getDescription() + ": " + e.getDetails();
            }
        }
        Statistics st = jpf.getReporter() == null ? null : jpf.getReporter().getStatistics();
        String constraint = jpf.getSearch() == null ? null : jpf.getSearch().getLastSearchConstraint();
        return new JpfOutcome(label, kind, text, st, constraint, nanos, watch);
    }

    /** Seconds, one decimal. */
    String seconds() {
        return String.format(Locale.ROOT, "%d.%d", seconds10 / 10, seconds10 % 10);
    }

    /** One line for the report: the verdict, states, seconds. */
    String line() {
        String verdict = errorKind == null
                ? (complete() ? "proved (complete)" : "no violation, bounded (" + lastConstraint + ")")
                : "found " + errorKind + ": " + oneLine(errorText);
        return label + ": " + verdict + "; " + String.format(Locale.ROOT, "%,d", newStates) + " new states, "
                + String.format(Locale.ROOT, "%,d", visitedStates) + " visited, " + String.format(Locale.ROOT, "%,d", endStates)
                + " end states, max depth " + maxDepth + ", " + watch.ends + " ends reached; " + seconds() + " s";
    }

    /**
     * The verdict as the README's three-checker table writes it: {@code proved} (no violation, the
     * search complete), {@code passed} (no violation within the budget), {@code found deadlock},
     * {@code found <kind>} (the harness's violation, thrown as {@code kmodel violation <kind>: ...}).
     */
    String verdict() {
        if (errorKind == null) {
            return complete() ? "proved" : "passed";
        }
        if ("deadlock".equals(errorKind)) {
            return "found deadlock";
        }
        String marker = "kmodel violation ";
        int i = errorText == null ? -1 : errorText.indexOf(marker);
        if (i >= 0) {
            String rest = errorText.substring(i + marker.length());
            int colon = rest.indexOf(':');
            return "found " + (colon > 0 ? rest.substring(0, colon) : rest);
        }
        return "found " + errorKind;
    }

    boolean complete() {
        return constraints == 0 && lastConstraint == null;
    }

    void assertSafeClasses() {
        if (!watch.unsafe.isEmpty()) {
            fail(label + ": JPF loaded classes outside the JPF-safe subset: " + watch.unsafe);
        }
    }

    void assertProof() {
        assertSafeClasses();
        if (errorKind != null) {
            fail(label + ": JPF found " + errorKind + ": " + errorText + "\n" + line());
        }
        if (!complete()) {
            fail(label + ": JPF's search is not complete (constraint: " + lastConstraint + "): " + line());
        }
        if (watch.ends == 0) {
            fail(label + ": JPF reports no errors but the test body never reached its end (JpfProbe.end()): "
                    + "a vacuous pass (class path? a thread JPF stopped silently?): " + line());
        }
        if (newStates < 2) {
            fail(label + ": JPF explored " + newStates + " states: nothing was checked: " + line());
        }
    }

    void assertFinding(Expect expected) {
        assertSafeClasses();
        if (errorKind == null) {
            fail(label + ": JPF found no error, expected " + expected + ": " + line());
        }
        boolean ok = ("deadlock".equals(errorKind) && expected.deadlock)
                || ("exception".equals(errorKind) && expected.exceptionText != null && errorText != null
                        && errorText.contains(expected.exceptionText));
        if (!ok) {
            fail(label + ": JPF found " + errorKind + " (" + errorText + "), expected " + expected + ": " + line());
        }
    }

    private static String oneLine(String s) {
        if (s == null) {
            return "";
        }
        String t = s.replace('\n', ' ').trim();
        return t.length() > 200 ? t.substring(0, 200) + "..." : t;
    }
}
