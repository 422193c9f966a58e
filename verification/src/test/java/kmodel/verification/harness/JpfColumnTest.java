package kmodel.verification.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the jpf module's HarnessJpfTest relies on, tested without JPF: a {@code -Dkmodel.jpf.only}
 * that keeps no row is an error, not a pass with no tests; and the README's JPF column is always
 * read, a README without the table an error, not a skipped check.
 */
class JpfColumnTest {
    @Test
    void withoutAFilterEveryHarnessAndEveryHostedBugIsARow() {
        List<Object[]> rows = JpfColumn.rows("");
        int expected = 0;
        for (Harness h : Harnesses.all()) {
            expected += 1 + h.hostedBugs().length;
        }
        assertEquals(expected, rows.size());
        assertEquals(rows.size(), JpfColumn.rows(null).size());
    }

    @Test
    void aFilterKeepsTheMatchingLabels() {
        Harness first = Harnesses.all()[0];
        List<Object[]> rows = JpfColumn.rows(java.util.regex.Pattern.quote(first.name()));
        assertEquals(1, rows.size());
        assertEquals(first.name(), rows.get(0)[0]);
        assertTrue(JpfColumn.rows(".*\\[bug=.*").size() > 1);
    }

    @Test
    void aFilterThatMatchesNoRowIsAnError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JpfColumn.rows("no-such-harness"));
        assertTrue(e.getMessage().startsWith("-Dkmodel.jpf.only=no-such-harness matches no JPF row; the rows: "),
                e.getMessage());
        assertTrue(e.getMessage().contains(Harnesses.all()[0].name()), e.getMessage());
    }

    @Test
    void theReadmesJpfColumnIsRead() {
        Harness first = Harnesses.all()[0];
        String v = JpfColumn.verdict(first, null);
        assertTrue(v.equals("-") || v.equals("proved") || v.startsWith("found "), v);
    }

    @Test
    void aReadmeWithoutTheTableIsAnErrorNotASkippedCheck(@TempDir Path dir) throws IOException {
        Path module = Files.createDirectory(dir.resolve("jpf"));
        Files.write(dir.resolve("README.md"), "# kmodel\n\nno table here\n".getBytes(StandardCharsets.UTF_8));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> JpfColumn.verdict(module, Harnesses.all()[0], null));
        assertTrue(e.getMessage().startsWith("no README.md with " + CheckerTable.BEGIN), e.getMessage());
    }
}
