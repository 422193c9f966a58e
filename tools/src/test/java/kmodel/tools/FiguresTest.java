package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The figures the README and docs/ pin with a marker ({@link Figures}) are what their commands
 * print: the cheap ones here, in every build; the expensive ones in {@link FiguresFullTest}
 * (tag {@code full}).
 */
class FiguresTest {

    /** Runs {@code kmodel args...} in-process and returns its stdout; throws on a usage error or an internal one. */
    static String kmodel(List<String> args) {
        long start = System.nanoTime();
        CliRun r = CliRun.kmodel(args.toArray(new String[0]));
        System.out.printf("figures: kmodel %s: exit %d, %.1f s%n", String.join(" ", args), r.code,
                (System.nanoTime() - start) / 1e9);
        if (r.escaped != null || r.code >= 2) {
            throw new IllegalStateException("exit " + r.code + ": " + r.err.trim());
        }
        return r.out;
    }

    static List<String> problems(boolean full) {
        Path root = Docs.root();
        Map<String, Figures.Definition> defs = Figures.definitions(Docs.read(root.resolve(Figures.FILE)));
        return Figures.problems(defs, Figures.stated(root), full, FiguresTest::kmodel);
    }

    @Test
    void everyFastFigureIsWhatItsCommandPrints() {
        List<String> problems = problems(false);
        assertTrue(problems.isEmpty(), () -> problems.size() + " figures differ:\n" + String.join("\n", problems));
    }

    private static final String DEFS = "# a comment\n"
            + "twq.auto: check --scenario textbook-waitqueue ~ textbook-waitqueue +(\\S+) executions\n"
            + "twq.strength: check --scenario textbook-waitqueue ~ executions?, .*?exhaustive, (\\S+)\n"
            + "big (full): check --scenario page-lock-crowd --preemptions unbounded ~ (\\S+) executions\n";
    private static final String OUT = "PASS textbook-waitqueue  1628 executions, 1 outcome, exhaustive, complete (source-DPOR with sleep sets)\n";

    /** A figure changed in the text, or a command that prints another figure, fails the check, naming both. */
    @Test
    void aChangedFigureFailsTheCheck() {
        Map<String, Figures.Definition> defs = Figures.definitions(DEFS);
        String doc = "The search is <!-- figure: twq.strength -->complete in <!-- figure: twq.auto -->1,628\nexecutions;"
                + " <!-- figure: big -->45,514 for the crowd.\n";
        Function<List<String>, String> run = args -> {
            assertEquals(List.of("check", "--scenario", "textbook-waitqueue"), args);
            return OUT;
        };
        assertEquals(List.of(), Figures.problems(defs, Figures.stated("README.md", doc), false, run));

        assertEquals(List.of("README.md:1: figure twq.auto: the text says 1,612, kmodel check --scenario textbook-waitqueue prints 1628"),
                Figures.problems(defs, Figures.stated("README.md", doc.replace("1,628", "1,612")), false, run));
        assertEquals(List.of("README.md:1: figure twq.strength: the text says bound, kmodel check --scenario textbook-waitqueue prints complete"),
                Figures.problems(defs, Figures.stated("README.md", doc.replace("complete in", "bound 3 in")), false, run));
        Function<List<String>, String> moved = args -> OUT.replace("1628", "1641");
        assertEquals(List.of("README.md:1: figure twq.auto: the text says 1,628, kmodel check --scenario textbook-waitqueue prints 1641"),
                Figures.problems(defs, Figures.stated("README.md", doc), false, moved));
        // The full tier's figure is checked only there.
        assertEquals(List.of("README.md:2: figure big: the text says 45,514, kmodel check --scenario page-lock-crowd"
                + " --preemptions unbounded prints 6502"),
                Figures.problems(defs, Figures.stated("README.md", doc), true, args -> "PASS page-lock-crowd  6502 executions\n"));
    }

    @Test
    void markersAndDefinitionsMustMatch() {
        Map<String, Figures.Definition> defs = Figures.definitions(DEFS);
        Function<List<String>, String> run = args -> OUT;
        assertEquals(List.of("README.md:1: figure twq.nope is not defined in docs/figures.txt",
                "docs/figures.txt:2: figure twq.auto is stated nowhere",
                "docs/figures.txt:3: figure twq.strength is stated nowhere",
                "docs/figures.txt:4: figure big is stated nowhere"),
                Figures.problems(defs, Figures.stated("README.md", "<!-- figure: twq.nope -->12\n"), false, run));
        assertEquals(List.of("README.md:1: figure twq.auto: kmodel check --scenario textbook-waitqueue printed nothing that"
                + " matches textbook-waitqueue +(\\S+) executions"),
                Figures.problems(Figures.definitions(DEFS.replaceAll("(?m)^(twq.strength|big).*\n", "")),
                        Figures.stated("README.md", "<!-- figure: twq.auto -->1,628"), false, args -> "FAIL\n"));
        assertEquals(List.of("README.md:1: figure twq.auto: no figure after the marker"),
                Figures.problems(Figures.definitions(DEFS.replaceAll("(?m)^(twq.strength|big).*\n", "")),
                        Figures.stated("README.md", "<!-- figure: twq.auto --> (see below)"), false, run));
        assertThrows(IllegalArgumentException.class, () -> Figures.definitions("x: check ~ no group\n"));
        assertThrows(IllegalArgumentException.class, () -> Figures.definitions("x check --scenario a\n"));
        assertThrows(IllegalArgumentException.class, () -> Figures.definitions("x: a ~ (b)\nx: a ~ (c)\n"));
        assertEquals(List.of("check", "--scenario", "swarm:pages=1 t0=lock(0)", "--jobs", "1"),
                Figures.words("check --scenario 'swarm:pages=1 t0=lock(0)' --jobs 1"));
    }
}
