package kmodel.verification.harness;

import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * The JPF column of the README's three-checker table, for the jpf module's tests (in this package
 * to reach {@link CheckerTable}, which verification's test-jar carries).
 */
public final class JpfColumn {
    private JpfColumn() {
    }

    /** Whether the README (of the repository root, the jpf module's parent) has the table yet. */
    public static boolean present() {
        for (String p : new String[] {"../README.md", "README.md"}) {
            try {
                if (Files.isRegularFile(Paths.get(p))
                        && new String(Files.readAllBytes(Paths.get(p)), java.nio.charset.StandardCharsets.UTF_8)
                                .contains(CheckerTable.BEGIN)) {
                    return true;
                }
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        }
        return false;
    }

    /** The verdict of the JPF cell of {@code harness}'s row for {@code bugOrNull} (correct, or finding). */
    public static String verdict(Harness harness, String bugOrNull) {
        String run = bugOrNull != null ? bugOrNull : harness.isFinding() ? CheckerTable.FINDING : CheckerTable.CORRECT;
        return CheckerTable.fromReadme().verdict(harness.name(), run, CheckerTable.JPF);
    }

    /** A verdict as the table writes it ({@link CheckerTable#verdictOf}), for a cell written from a JPF run. */
    public static String verdictOf(String cell) {
        return CheckerTable.verdictOf(cell);
    }
}
