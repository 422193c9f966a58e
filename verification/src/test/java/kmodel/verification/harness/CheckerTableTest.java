package kmodel.verification.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The README's three-checker table parses, and has exactly one row per harness and run. */
class CheckerTableTest {
    private static final String SAMPLE = "text\n" + CheckerTable.BEGIN + "\n"
            + "| harness | run | kmodel explorer | JPF | Lincheck |\n"
            + "|---|---|---|---|---|\n"
            + "| `textbook-waitqueue` | correct | proved, 1,612 executions, 0.2 s, complete | - | passed, 50 invocations, 9 s, sampled 50 |\n"
            + "| `textbook-waitqueue` | `textbook-check-then-sleep` | found missed-wakeup, 11 executions | - | found deadlock after 34 invocations |\n"
            + CheckerTable.END + "\nmore text\n";

    @Test
    void aTableParsesIntoVerdictsAndFigures() {
        CheckerTable t = CheckerTable.parse(SAMPLE);
        assertEquals(List.of("textbook-waitqueue|correct", "textbook-waitqueue|textbook-check-then-sleep"), t.rowKeys());
        assertEquals("proved", t.verdict("textbook-waitqueue", "correct", CheckerTable.EXPLORER));
        assertEquals("-", t.verdict("textbook-waitqueue", "correct", CheckerTable.JPF));
        assertEquals("passed", t.verdict("textbook-waitqueue", "correct", CheckerTable.LINCHECK));
        assertEquals("found missed-wakeup",
                t.verdict("textbook-waitqueue", "textbook-check-then-sleep", CheckerTable.EXPLORER));
        assertEquals("found deadlock", t.verdict("textbook-waitqueue", "textbook-check-then-sleep", CheckerTable.LINCHECK));
    }

    @Test
    void malformedTablesAreRefusedWithWhatIsWrong() {
        assertThrows(IllegalArgumentException.class, () -> CheckerTable.parse("no markers"));
        assertThrows(IllegalArgumentException.class, () -> CheckerTable.parse(SAMPLE + SAMPLE));
        assertThrows(IllegalArgumentException.class,
                () -> CheckerTable.parse(SAMPLE.replace("| `textbook-waitqueue` | correct |", "| `textbook-waitqueue` |")));
        assertThrows(IllegalArgumentException.class, () -> CheckerTable.parse(SAMPLE.replace("| JPF |", "| SPIN |")));
        assertThrows(IllegalArgumentException.class, () -> CheckerTable.parse(SAMPLE.replace("textbook-check-then-sleep", "correct")));
        assertThrows(IllegalArgumentException.class, () -> CheckerTable.parse(SAMPLE.replace("|---|---|", "| x | y |")));
        CheckerTable t = CheckerTable.parse(SAMPLE);
        assertThrows(IllegalArgumentException.class, () -> t.cell("textbook-refcount", "correct", CheckerTable.JPF));
        assertThrows(IllegalArgumentException.class, () -> CheckerTable.verdictOf("maybe, 3 runs"));
        assertThrows(IllegalArgumentException.class, () -> CheckerTable.verdictOf("found"));
    }

    @Test
    void theReadmeHasOneRowPerHarnessAndRunAndAVerdictInEveryCell() {
        CheckerTable t = CheckerTable.fromReadme();
        List<String> expected = new ArrayList<>();
        for (Harness h : Harnesses.all()) {
            for (String run : CheckerTable.runsOf(h)) {
                expected.add(h.name() + "|" + run);
                for (String column : List.of(CheckerTable.EXPLORER, CheckerTable.JPF, CheckerTable.LINCHECK)) {
                    String v = t.verdict(h.name(), run, column);
                    assertTrue(v.equals("-") || v.equals("proved") || v.equals("passed") || v.startsWith("found "),
                            h.name() + " " + run + " " + column + ": " + v);
                }
            }
        }
        assertEquals(expected, t.rowKeys());
    }
}
