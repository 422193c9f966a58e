package kmodel.verification.harness;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * For the jpf module's tests (only with {@code -Pjpf}; here, in verification's test-jar, so that
 * the default build tests it): the JPF column of the README's three-checker table, and the rows
 * JPF runs. Neither is ever skipped in silence: a README without the table, or a
 * {@code -Dkmodel.jpf.only} that keeps no row, is an error.
 */
public final class JpfColumn {
    private JpfColumn() {
    }

    /**
     * The verdict of the JPF cell of {@code harness}'s row for {@code bugOrNull} (correct, or
     * finding) in the README of the working directory's parent or its own; IllegalStateException
     * when neither README has the table's marker.
     */
    public static String verdict(Harness harness, String bugOrNull) {
        return verdict(Paths.get(""), harness, bugOrNull);
    }

    /** {@link #verdict(Harness, String)} with the README looked for from {@code dir}. */
    static String verdict(Path dir, Harness harness, String bugOrNull) {
        String run = bugOrNull != null ? bugOrNull : harness.isFinding() ? CheckerTable.FINDING : CheckerTable.CORRECT;
        return CheckerTable.fromReadme(dir).verdict(harness.name(), run, CheckerTable.JPF);
    }

    /** A verdict as the table writes it ({@link CheckerTable#verdictOf}), for a cell written from a JPF run. */
    public static String verdictOf(String cell) {
        return CheckerTable.verdictOf(cell);
    }

    /** The label of a JPF row: the harness's name, and {@code [bug=ID]} for a hosted catalog bug. */
    public static String label(Harness h, String bug) {
        return h.name() + (bug == null ? "" : " [bug=" + bug + "]");
    }

    /**
     * The rows JPF runs, each {@code {label, harness, bug or null}}: every harness
     * ({@link Harnesses#all()}) as it is and with each catalog bug it hosts, in that order. A
     * non-empty {@code only} (a regular expression, {@code -Dkmodel.jpf.only}) keeps the rows
     * whose label matches it; one that keeps none is an IllegalArgumentException that lists the
     * labels, never a run of no tests.
     */
    public static List<Object[]> rows(String only) {
        List<Object[]> all = new ArrayList<>();
        for (Harness h : Harnesses.all()) {
            all.add(new Object[] {label(h, null), h, null});
            for (String b : h.hostedBugs()) {
                all.add(new Object[] {label(h, b), h, b});
            }
        }
        if (only == null || only.isEmpty()) {
            return all;
        }
        List<Object[]> out = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        for (Object[] row : all) {
            labels.add((String) row[0]);
            if (((String) row[0]).matches(only)) {
                out.add(row);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("-Dkmodel.jpf.only=" + only + " matches no JPF row; the rows: "
                    + String.join(", ", labels));
        }
        return out;
    }
}
