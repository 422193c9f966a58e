package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Combinators;
import org.junit.jupiter.api.Test;

/**
 * {@code kmodel reproduce}: a small run prints the comparison table and exits by the directions
 * it found; bad command lines (a scale, a CPU count, a report path, unknown options, generated
 * junk) are one line on stderr and exit 2, before anything is simulated.
 */
class ReproduceCliTest {
    @Test
    void smallScaleTableAndExitByDirection() {
        CliRun r = CliRun.kmodel("reproduce", "--scale", "small");
        assertTrue(r.out.contains("SIMULATED"), r.toString());
        assertTrue(r.out.contains("000   READ bw (4 jobs)"), r.toString());
        assertTrue(r.out.contains("002   real (preadv -> series)"), r.toString());
        boolean against = r.out.contains("AGAINST");
        assertEquals(against ? Kmodel.EXIT_VIOLATION : 0, r.code, r.toString());
        CliRun again = CliRun.kmodel("reproduce", "--scale", "small");
        assertEquals(r.out, again.out, "the simulation is deterministic");
    }

    @Test
    void aReportPathThatIsAFileIsOneLine() throws IOException {
        Path f = Files.createTempFile("kmodel-report", ".md");
        try {
            CliRun r = CliRun.kmodel("reproduce", "--scale", "small", "--report", f.toString());
            assertEquals(Kmodel.EXIT_USAGE, r.code, r.toString());
            assertTrue(r.err.contains("exists and is not a directory"), r.toString());
            CliOracle.assertSound(r);
        } finally {
            Files.delete(f);
        }
    }

    @Property(tries = 120, seed = "71001")
    void badCommandLinesAreOneLine(@ForAll("badArgs") List<String> args) {
        List<String> argv = new ArrayList<>();
        argv.add("reproduce");
        argv.addAll(args);
        CliRun r = CliRun.kmodel(argv.toArray(new String[0]));
        assertEquals(Kmodel.EXIT_USAGE, r.code, r.toString());
        CliOracle.assertSound(r);
    }

    @Provide
    Arbitrary<List<String>> badArgs() {
        Arbitrary<String> junk = Arbitraries.strings().ofMinLength(0).ofMaxLength(12);
        Arbitrary<List<String>> badScale = junk.filter(s -> !s.equals("standard") && !s.equals("small"))
                .map(s -> List.of("--scale", s));
        Arbitrary<List<String>> badCpus = Arbitraries.oneOf(Arbitraries.integers().lessOrEqual(0).map(String::valueOf),
                Arbitraries.integers().greaterOrEqual(65).map(String::valueOf), junk.filter(s -> !s.matches("[0-9]+")))
                .map(s -> List.of("--cpus", s));
        Arbitrary<List<String>> unknown = junk.filter(s -> s.startsWith("-") && !s.startsWith("--")
                || s.startsWith("--") && !List.of("--scale", "--cpus", "--report", "--sensitivity", "--help", "--version",
                        "-h", "-V").contains(s) || !s.startsWith("-") && !s.isEmpty())
                .map(s -> List.of(s));
        Arbitrary<List<String>> missing = Arbitraries.of("--scale", "--cpus", "--report").map(s -> List.of(s));
        Arbitrary<List<String>> emptyReport = Arbitraries.just(List.of("--report", ""));
        return Combinators.combine(Arbitraries.oneOf(badScale, badCpus, unknown, missing, emptyReport),
                Arbitraries.of(List.<String>of(), List.of("--scale", "small"))).as((bad, good) -> {
                    List<String> l = new ArrayList<>(good);
                    l.addAll(bad);
                    return l;
                });
    }
}
