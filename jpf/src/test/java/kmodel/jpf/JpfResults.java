package kmodel.jpf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The figures of every JPF run of this JVM, one line each, printed to stdout and written to
 * {@code jpf/target/jpf-results.txt} (system property {@code kmodel.jpf.results}), which this JVM
 * starts afresh. Host JVM only.
 */
final class JpfResults {
    private static final List<JpfOutcome> OUTCOMES = new ArrayList<>();
    private static boolean started;

    private JpfResults() {
    }

    static synchronized void record(JpfOutcome o) {
        OUTCOMES.add(o);
        String line = o.verdict() + " | " + o.line();
        System.out.println("[jpf] " + line);
        String file = System.getProperty("kmodel.jpf.results");
        if (file == null || file.isBlank()) {
            return;
        }
        Path p = Paths.get(file);
        try {
            if (!started) {
                started = true;
                Files.deleteIfExists(p);
            }
            Files.write(p, List.of(line), StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static synchronized List<JpfOutcome> all() {
        return new ArrayList<>(OUTCOMES);
    }
}
