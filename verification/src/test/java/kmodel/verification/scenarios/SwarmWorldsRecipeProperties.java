package kmodel.verification.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * The recipes of every swarm ({@link SwarmWorlds}: page, uring, write, btrfs) survive their text
 * form, the generators depend on their seed only and yield only well-formed recipes, and any other
 * text is a one-line {@code swarm recipe:} error, never a Java exception. The oracles are shown
 * failing on deliberately broken variants in the {@code @Example}s.
 */
class SwarmWorldsRecipeProperties {

    /** The round-trip oracle over text: null when {@code parse(print(parse(text)))} is {@code text}. */
    static String roundTripFailure(String text, Function<String, String> canonical) {
        String back;
        try {
            back = canonical.apply(text);
        } catch (IllegalArgumentException e) {
            return "'" + text + "' does not parse: " + e.getMessage();
        }
        return back.equals(text) ? null : "'" + text + "' prints back as '" + back + "'";
    }

    /** The error oracle (as {@link SwarmRecipeProperties#errorFailure}) for any swarm's parser. */
    static String errorFailure(String text, Function<String, String> canonical) {
        try {
            String c = canonical.apply(text);
            return roundTripFailure(c, canonical);
        } catch (IllegalArgumentException e) {
            String m = e.getMessage();
            if (m == null || !m.startsWith("swarm recipe: ") || m.indexOf('\n') >= 0 || m.indexOf('\r') >= 0) {
                return "not a one-line 'swarm recipe:' error: " + m;
            }
            return null;
        } catch (RuntimeException e) {
            return "escaped: " + e;
        }
    }

    @Provide
    Arbitrary<String> world() {
        return Arbitraries.of(SwarmWorlds.names());
    }

    @Property(tries = 600, seed = "20261202")
    void everyGeneratedRecipeOfEverySwarmReadsBackFromItsText(@ForAll("world") String world, @ForAll long seed) {
        String text = SwarmWorlds.generate(world, seed);
        Statistics.label("world").collect(world);
        assertEquals(world, SwarmWorlds.worldOf(text));
        assertNull(roundTripFailure(text, SwarmWorlds::canonical));
        assertEquals(text, SwarmWorlds.generate(world, seed), "the generator depends on its seed only");
    }

    @Provide
    Arbitrary<String> recipeLikeText() {
        Arbitrary<String> valid = Combinators.combine(world(), Arbitraries.longs()).as(SwarmWorlds::generate);
        Arbitrary<Integer> at = Arbitraries.integers().between(0, 300);
        Arbitrary<String> noise = Arbitraries.strings().withChars("=(),t- 0123456789rcshxyz\n\u00e9").ofMaxLength(6);
        Arbitrary<String> words = Arbitraries.of("uring ", "write ", "btrfs ", "page ", "uring", "exit", "close,",
                "layout=", "file=btrfs", "read(9)", "reap(0)", "trunc(", "unpin", "ccc", "s", " proto=57", "proto=5 ", "proto=");
        Arbitrary<String> mutated = Combinators.combine(valid, at, Arbitraries.oneOf(noise, words),
                Arbitraries.integers().between(0, 3))
                .as((text, pos, insert, how) -> {
                    int p = Math.min(pos, text.length());
                    switch (how) {
                        case 0:
                            return text.substring(0, p);
                        case 1:
                            return text.substring(0, p) + insert + text.substring(p);
                        case 2:
                            return text.substring(0, p) + text.substring(Math.min(text.length(), p + 1 + insert.length()));
                        default:
                            return text.substring(0, p) + insert + text.substring(Math.min(text.length(), p + insert.length()));
                    }
                });
        Arbitrary<String> junk = Arbitraries.strings().ofMaxLength(60).map(s -> "uring " + s);
        Arbitrary<String> huge = Arbitraries.integers().between(1, 5).map(n ->
                "write pages=" + "9".repeat(n * 4) + " ra=0 clean=- dirty=- wb=- pin=- t0=fsync");
        return Arbitraries.frequencyOf(Tuple.of(8, mutated), Tuple.of(2, junk), Tuple.of(1, huge));
    }

    @Property(tries = 1500, seed = "20261204")
    void anyOtherTextOfAnySwarmIsAOneLineErrorNeverAnException(@ForAll("recipeLikeText") String text) {
        String failure = errorFailure(text, SwarmWorlds::canonical);
        Statistics.label("accepted").collect(failure == null && accepts(text));
        assertNull(failure, () -> "for '" + text + "': " + failure);
    }

    /**
     * Every well-formed recipe, generated or mutated, runs: its first execution (no preemption)
     * ends without the model throwing ({@code oops}) and without any violation, since the
     * configuration is the clean one. A recipe the generators never draw (a mutation) exercises the
     * world builders and the well-formedness rules together: a rule too weak shows up here.
     */
    @Property(tries = 200, seed = "20261205")
    void everyWellFormedRecipeRunsCleanOnce(@ForAll("recipeLikeText") String text) {
        String canon;
        try {
            canon = SwarmWorlds.canonical(text);
        } catch (IllegalArgumentException notARecipe) {
            return;
        }
        Statistics.label("world").collect(SwarmWorlds.worldOf(canon));
        kmodel.explorer.CheckResult r = kmodel.explorer.ModelCheck.exhaustive(SwarmWorlds.scenario(canon)).preemptions(0)
                .executions(1).run();
        assertNull(r.violation(), () -> canon + ": " + r.violation().summary());
    }

    /** Generated recipes of every swarm run clean once too (the mutations above rarely keep a uring or write recipe well-formed). */
    @Property(tries = 80, seed = "20261206")
    void everyGeneratedRecipeRunsCleanOnce(@ForAll("world") String world, @ForAll long seed) {
        String text = SwarmWorlds.generate(world, seed);
        assertNull(firstRunViolation(text, kmodel.kernel.Kconfig.defaults()), text);
    }

    /** The run-once oracle: the violation summary of {@code text}'s first execution under {@code config}, or null. */
    static String firstRunViolation(String text, kmodel.kernel.Kconfig config) {
        kmodel.explorer.CheckResult r = kmodel.explorer.ModelCheck.exhaustive(SwarmWorlds.scenario(text)).preemptions(0)
                .executions(1).config(config).run();
        return r.violation() == null ? null : r.violation().summary();
    }

    @Example
    void theRunOnceOracleCatchesACatalogBug() {
        String text = "write pages=1 ra=0 clean=- dirty=0 wb=- pin=- t0=fsync t1=trunc(0)";
        assertNull(firstRunViolation(text, kmodel.kernel.Kconfig.defaults()));
        assertNotNull(firstRunViolation(text, kmodel.verification.KconfigTable.build(java.util.List.of(),
                java.util.List.of("end-page-writeback-no-wake"))));
    }

    private static boolean accepts(String text) {
        try {
            SwarmWorlds.canonical(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    @Example
    void theOraclesCatchABrokenPrinterAndAnEscapingParser() {
        String text = "uring file=btrfs dev=nowait pages=1 tags=1 ra=0 cached=- path=510 plug=0 series=1 t0=read(0),exit";
        assertNull(roundTripFailure(text, SwarmWorlds::canonical));
        Function<String, String> dropsExit = t -> SwarmWorlds.canonical(t).replace(",exit", "");
        assertNotNull(roundTripFailure(text, dropsExit), "a printer that drops an operation is caught");
        Function<String, String> escapes = t -> SwarmWorlds.canonical(t.substring(t.indexOf("pages=")));
        assertNull(errorFailure("uring junk", SwarmWorlds::canonical));
        assertNotNull(errorFailure("uring junk", escapes), "a parser that lets a Java exception escape is caught");
    }

    @Example
    void wellFormednessIsCheckedWithOneLine() {
        String[] bad = {
            "uring file=btrfs dev=again pages=1 tags=1 ra=0 cached=- path=510 plug=0 series=1 t0=read(0),exit",
            "uring file=bdev dev=nowait pages=1 tags=1 ra=0 cached=- path=510 plug=0 series=1 t0=read(0)",
            "uring file=bdev dev=nowait pages=1 tags=1 ra=0 cached=- path=510 plug=0 series=1 t0=read(0),reap(2),exit",
            "uring file=bdev dev=nowait pages=1 tags=1 ra=0 cached=- path=510 plug=0 series=1 t0=span(0),exit",
            "uring file=bdev dev=nowait pages=1 tags=1 ra=0 cached=- path=510 plug=0 series=1 t0=close,exit",
            "uring file=bdev dev=nowait pages=1 tags=1 ra=0 cached=- path=510 plug=0 series=1 t0=exit",
            "write pages=1 ra=0 clean=- dirty=- wb=- pin=- t0=write(0) t1=write(0)",
            "write pages=2 ra=0 clean=0 dirty=- wb=- pin=- t0=read(0) t1=trunc(1)",
            "write pages=1 ra=0 clean=0 dirty=- wb=- pin=0 t0=fsync",
            "btrfs prof=single layout=c ra=0 bad1=- bad2=- rp=3 allocfail=0 maps=0 t0=read(0)",
            "btrfs prof=single layout=ccs ra=0 bad1=- bad2=- rp=2 allocfail=0 maps=0 t0=read(0)",
            "btrfs prof=single layout=rr ra=0 bad1=0 bad2=- rp=3 allocfail=0 maps=0 t0=read(0)",
            "btrfs prof=single layout=rr ra=0 bad1=- bad2=- rp=3 allocfail=0 maps=0 t0=read(0) t1=punch(0)",
        };
        for (String b : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SwarmWorlds.canonical(b), b);
            assertTrue(e.getMessage().startsWith("swarm recipe: ") && e.getMessage().indexOf('\n') < 0, e.getMessage());
        }
    }
}
