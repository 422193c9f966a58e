package kmodel.verification.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The README's three-checker table (section "Three checkers", between
 * {@code <!-- three-checkers:begin -->} and {@code <!-- three-checkers:end -->}): one row per
 * harness and run (the correct harness, each hosted catalog bug, the finding), one column per
 * checker (kmodel explorer, JPF, Lincheck). A cell starts with its verdict ({@code proved},
 * {@code passed}, {@code found <kind>}, {@code found deadlock}, or {@code -} for not run) and goes
 * on with figures written by hand. Tests assert the verdicts against what each checker reports
 * now; the figures are measurements and are not asserted.
 */
final class CheckerTable {
    static final String BEGIN = "<!-- three-checkers:begin -->";
    static final String END = "<!-- three-checkers:end -->";
    /** The first column (the harness) and the second (the run). */
    static final String HARNESS = "harness";
    static final String RUN = "run";
    /** The run of a harness without a catalog bug. */
    static final String CORRECT = "correct";
    /** The run of the finding harness without a catalog bug. */
    static final String FINDING = "finding";
    static final String EXPLORER = "kmodel explorer";
    static final String JPF = "JPF";
    static final String LINCHECK = "Lincheck";

    private final List<String> columns;
    /** Row key {@code harness|run} -> the row's cells by column name. */
    private final LinkedHashMap<String, Map<String, String>> rows;

    private CheckerTable(List<String> columns, LinkedHashMap<String, Map<String, String>> rows) {
        this.columns = columns;
        this.rows = rows;
    }

    /** The table in the repository's README.md (found from the module or the repository root). */
    static CheckerTable fromReadme() {
        return fromReadme(Paths.get(""));
    }

    /**
     * The table in {@code dir}'s parent's README.md or {@code dir}'s own, the first that has the
     * table's begin marker; IllegalStateException, naming the marker and where it was looked for,
     * when neither has it: a check of the table is never skipped because the table went missing.
     */
    static CheckerTable fromReadme(Path dir) {
        for (Path p : new Path[] {dir.resolve("../README.md"), dir.resolve("README.md")}) {
            if (Files.isRegularFile(p)) {
                try {
                    String text = new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
                    if (text.contains(BEGIN)) {
                        return parse(text);
                    }
                } catch (IOException e) {
                    throw new IllegalStateException("cannot read " + p.toAbsolutePath(), e);
                }
            }
        }
        throw new IllegalStateException("no README.md with " + BEGIN + " in " + dir.toAbsolutePath()
                + " or its parent");
    }

    /**
     * Parses the table between the markers of {@code markdown}: a header row, a separator row, then
     * one row per harness and run. Throws IllegalArgumentException naming what is wrong: missing
     * or repeated markers, a row with another number of cells than the header, a repeated row,
     * columns other than harness, run and the three checkers.
     */
    static CheckerTable parse(String markdown) {
        int b = markdown.indexOf(BEGIN);
        int e = markdown.indexOf(END);
        if (b < 0 || e < 0 || e < b) {
            throw new IllegalArgumentException("three-checkers table: markers missing or out of order");
        }
        if (markdown.indexOf(BEGIN, b + 1) >= 0 || markdown.indexOf(END, e + 1) >= 0) {
            throw new IllegalArgumentException("three-checkers table: a marker appears twice");
        }
        List<List<String>> table = new ArrayList<>();
        for (String line : markdown.substring(b + BEGIN.length(), e).split("\n")) {
            String t = line.trim();
            if (t.startsWith("|")) {
                table.add(cells(t));
            } else if (!t.isEmpty()) {
                throw new IllegalArgumentException("three-checkers table: not a table row: " + t);
            }
        }
        if (table.size() < 2) {
            throw new IllegalArgumentException("three-checkers table: no header");
        }
        List<String> header = table.get(0);
        if (!header.equals(List.of(HARNESS, RUN, EXPLORER, JPF, LINCHECK))) {
            throw new IllegalArgumentException("three-checkers table: columns " + header + ", expected "
                    + List.of(HARNESS, RUN, EXPLORER, JPF, LINCHECK));
        }
        for (String sep : table.get(1)) {
            if (!sep.matches(":?-{3,}:?")) {
                throw new IllegalArgumentException("three-checkers table: second row is not a separator: " + table.get(1));
            }
        }
        LinkedHashMap<String, Map<String, String>> rows = new LinkedHashMap<>();
        for (int i = 2; i < table.size(); i++) {
            List<String> row = table.get(i);
            if (row.size() != header.size()) {
                throw new IllegalArgumentException("three-checkers table: row " + row + " has " + row.size()
                        + " cells, the header " + header.size());
            }
            LinkedHashMap<String, String> byColumn = new LinkedHashMap<>();
            for (int c = 0; c < header.size(); c++) {
                byColumn.put(header.get(c), row.get(c));
            }
            String key = unquote(row.get(0)) + "|" + unquote(row.get(1));
            if (rows.put(key, byColumn) != null) {
                throw new IllegalArgumentException("three-checkers table: row " + key + " appears twice");
            }
        }
        return new CheckerTable(Collections.unmodifiableList(header), rows);
    }

    private static List<String> cells(String row) {
        String inner = row.substring(1, row.endsWith("|") ? row.length() - 1 : row.length());
        List<String> out = new ArrayList<>();
        for (String c : inner.split("\\|", -1)) {
            out.add(c.trim());
        }
        return out;
    }

    private static String unquote(String s) {
        return s.replace("`", "").trim();
    }

    /** The column names, in order. */
    List<String> columns() {
        return columns;
    }

    /** The rows' keys {@code harness|run}, in order. */
    List<String> rowKeys() {
        return new ArrayList<>(rows.keySet());
    }

    /** The cell of {@code column} in the row of {@code harness} and {@code run}; IllegalArgumentException when there is none. */
    String cell(String harness, String run, String column) {
        Map<String, String> row = rows.get(harness + "|" + run);
        if (row == null) {
            throw new IllegalArgumentException("three-checkers table has no row " + harness + " / " + run);
        }
        String cell = row.get(column);
        if (cell == null) {
            throw new IllegalArgumentException("three-checkers table has no column " + column);
        }
        return cell;
    }

    /**
     * The verdict a cell starts with: {@code proved}, {@code passed}, {@code found <kind>} (e.g.
     * {@code found missed-wakeup}, {@code found deadlock}), or {@code -}; the rest of the cell
     * (figures) is not part of it. IllegalArgumentException for a cell that starts otherwise.
     */
    static String verdictOf(String cell) {
        String[] words = unquote(cell).split("[\\s,;:]+");
        if (words.length == 0 || words[0].isEmpty()) {
            throw new IllegalArgumentException("empty three-checkers cell");
        }
        switch (words[0]) {
            case "-":
            case "proved":
            case "passed":
                return words[0];
            case "found":
                if (words.length < 2) {
                    throw new IllegalArgumentException("three-checkers cell '" + cell + "': found what?");
                }
                return "found " + words[1];
            default:
                throw new IllegalArgumentException("three-checkers cell '" + cell
                        + "' does not start with proved, passed, found <kind> or -");
        }
    }

    /** The verdict of a cell ({@link #verdictOf}). */
    String verdict(String harness, String run, String column) {
        return verdictOf(cell(harness, run, column));
    }

    /** The run names of a harness's rows, in the table's order: correct or finding, then its bugs. */
    static List<String> runsOf(Harness h) {
        List<String> runs = new ArrayList<>();
        runs.add(h.isFinding() ? FINDING : CORRECT);
        Collections.addAll(runs, h.hostedBugs());
        return runs;
    }

    /** The bug a run switches in: null for the correct and the finding run. */
    static String bugOf(String run) {
        return run.equals(CORRECT) || run.equals(FINDING) ? null : run;
    }
}
