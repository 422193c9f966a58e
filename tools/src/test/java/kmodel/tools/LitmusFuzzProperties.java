package kmodel.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import kmodel.tools.litmus.Litmus;
import kmodel.tools.litmus.LitmusException;
import kmodel.tools.litmus.LitmusParser;
import kmodel.tools.litmus.LitmusRunner;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * Fuzzes the litmus reader and {@code kmodel litmus}: the suite's files mutated (characters
 * inserted, deleted, flipped; lines dropped or duplicated; tokens swapped for others of the
 * format), and hostile text. The parser either returns a test or throws {@link LitmusException};
 * a parsed test runs to an outcome, a {@link LitmusException} or the state budget; never anything
 * else. The command ends the way {@link CliOracle} says.
 */
class LitmusFuzzProperties {
    static final List<String> SUITE = suite();


    private static List<String> suite() {
        try (Stream<Path> s = Files.list(LitmusCliTest.suite("MP.litmus").getParent())) {
            List<String> out = new ArrayList<>();
            for (Path p : (Iterable<Path>) s.sorted()::iterator) {
                out.add(Files.readString(p, StandardCharsets.UTF_8));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final List<String> TOKENS = List.of("READ_ONCE(*a)", "WRITE_ONCE(*b, 1)", "smp_mb()", "spin_lock(l)",
            "spin_unlock(l)", "xchg(a, 1)", "cmpxchg(n, 0, 1)", "atomic_inc(n)", "r0", "r1", "*q", "&a", "(*", "*)",
            "{", "}", "(", ")", ";", "/\\", "\\/", "~", "exists", "forall", "P0", "P9", "int", "if (r0)", "else",
            "0:r0=1", "a=2", "99999999999999999999", "-", "//", "/*", "\n", "");

    @Provide
    Arbitrary<String> litmusTexts() {
        Arbitrary<String> base = Arbitraries.of(SUITE);
        Arbitrary<String> tokenSwap = Combinators.combine(base, Arbitraries.integers().between(0, 1 << 16),
                Arbitraries.integers().between(0, 40), Arbitraries.of(TOKENS)).as((s, at, len, tok) -> {
                    int i = at % Math.max(1, s.length());
                    int j = Math.min(s.length(), i + len);
                    return s.substring(0, i) + tok + s.substring(j);
                });
        Arbitrary<String> lines = Combinators.combine(base, Arbitraries.integers().between(0, 200), Arbitraries.of(0, 1))
                .as((s, k, dup) -> {
                    List<String> ls = new ArrayList<>(List.of(s.split("\n", -1)));
                    int i = k % ls.size();
                    if (dup == 0) {
                        ls.remove(i);
                    } else {
                        ls.add(i, ls.get(i));
                    }
                    return String.join("\n", ls);
                });
        return Arbitraries.frequencyOf(
                Tuple.of(4, CliSurfaces.mutated(base)),
                Tuple.of(4, tokenSwap),
                Tuple.of(3, lines),
                Tuple.of(1, base),
                Tuple.of(2, CliSurfaces.hostile()),
                Tuple.of(1, Arbitraries.strings().ofMaxLength(300)));
    }

    @Property(tries = 400, seed = "72001")
    void theParserAndRunnerFailOnlyAsDocumented(@ForAll("litmusTexts") String text) {
        Litmus t;
        try {
            t = LitmusParser.parse(text);
        } catch (LitmusException e) {
            Statistics.label("parse").collect(e.unsupported ? "unsupported" : "syntax");
            if (e.getMessage() == null || e.getMessage().contains("\n")) {
                throw new AssertionError("not one line: " + e.getMessage());
            }
            return;
        }
        Statistics.label("parse").collect("ok");
        try {
            LitmusRunner.run(t, 20_000);
        } catch (LitmusException | LitmusRunner.Budget e) {
            // documented ends
        }
    }

    @Property(tries = 120, seed = "72002")
    void theCommandEndsCleanlyOnAnyFile(@ForAll("litmusTexts") String text) {
        Path f;
        try {
            f = Files.createTempFile("kmodel-litmus-fuzz", ".litmus");
            Files.writeString(f, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        CliRun r = CliRun.kmodel("litmus", "--max-states", "2000", f.toString());
        try {
            Files.deleteIfExists(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Statistics.label("exit").collect(r.code);
        CliOracle.assertSound(r);
    }

    @Property(tries = 80, seed = "72003")
    void theCommandEndsCleanlyOnAnyArguments(@ForAll("argv") List<String> args) {
        List<String> argv = new ArrayList<>();
        argv.add("litmus");
        argv.addAll(args);
        CliRun r = CliRun.kmodel(argv.toArray(new String[0]));
        Statistics.label("exit").collect(r.code);
        CliOracle.assertSound(r);
    }

    @Provide
    Arbitrary<List<String>> argv() {
        Arbitrary<String> one = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.of(LitmusCliTest.suite("SB.litmus").toString(),
                        LitmusCliTest.suite("CoWW.litmus").toString(), "/dev/null", "/dev/zero", "/", "--no-witness",
                        "--max-states", "--help", "-V")),
                Tuple.of(2, CliSurfaces.numbers()),
                Tuple.of(2, CliSurfaces.hostile()));
        return one.list().ofMaxSize(4);
    }
}
