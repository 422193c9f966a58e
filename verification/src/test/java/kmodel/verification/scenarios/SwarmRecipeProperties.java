package kmodel.verification.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

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
 * Swarm recipes survive their text form, and any other text is a one-line error.
 *
 * <p>Each oracle is shown failing in an {@code @Example} on a deliberately broken variant: a
 * printer that drops the irq task, and a parser that lets a Java exception escape.
 */
class SwarmRecipeProperties {

    /** The round-trip oracle: null when {@code print} and {@link SwarmRecipe#parse} agree on {@code r}, else why not. */
    static String roundTripFailure(SwarmRecipe r, Function<SwarmRecipe, String> print) {
        String text = print.apply(r);
        SwarmRecipe back;
        try {
            back = SwarmRecipe.parse(text);
        } catch (IllegalArgumentException e) {
            return "'" + text + "' does not parse: " + e.getMessage();
        }
        if (!back.equals(r)) {
            return "'" + text + "' parses to a different recipe: " + back;
        }
        return back.toString().equals(text) ? null : "'" + text + "' prints back as '" + back + "'";
    }

    /**
     * The error oracle: null when {@code parser} either accepts {@code text} (and the recipe then
     * round-trips) or refuses it with an IllegalArgumentException of one line starting
     * {@code swarm recipe: }; else what went wrong.
     */
    static String errorFailure(String text, Function<String, SwarmRecipe> parser) {
        try {
            SwarmRecipe r = parser.apply(text);
            return roundTripFailure(r, SwarmRecipe::toString);
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

    @Property(tries = 500, seed = "20261201")
    void everyGeneratedRecipeReadsBackFromItsText(@ForAll long seed) {
        SwarmRecipe r = SwarmGenerator.generate(seed);
        Statistics.label("tasks").collect(r.tasks().size());
        Statistics.label("kill").collect(r.hasKill());
        assertNull(roundTripFailure(r, SwarmRecipe::toString));
        assertEquals(r, SwarmGenerator.generate(seed), "the generator depends on its seed only");
    }

    /**
     * Generated recipes re-headed over the full ranges of the text form (more pages, any table,
     * walk and read-ahead size): still well-formed, since the tasks name only lower pages.
     */
    @Provide
    Arbitrary<SwarmRecipe> anyRecipe() {
        return Combinators.combine(Arbitraries.longs(), Arbitraries.integers().between(0, SwarmRecipe.MAX_PAGES),
                Arbitraries.integers().between(1, SwarmRecipe.MAX_TABLE),
                Arbitraries.integers().between(1, SwarmRecipe.MAX_WALK),
                Arbitraries.integers().between(0, SwarmRecipe.MAX_RA))
                .as((seed, pages, table, walk, ra) -> {
                    SwarmRecipe g = SwarmGenerator.generate(seed);
                    return new SwarmRecipe(Math.max(g.pages(), pages), table, walk, ra, g.cached(), g.writeback(),
                            g.failing(), g.tasks(), g.irq());
                });
    }

    @Property(tries = 500, seed = "20261203")
    void everyRecipeReadsBackFromItsText(@ForAll("anyRecipe") SwarmRecipe r) {
        Statistics.label("pages").collect(r.pages());
        assertNull(roundTripFailure(r, SwarmRecipe::toString));
    }

    @Provide
    Arbitrary<String> recipeLikeText() {
        Arbitrary<String> valid = Arbitraries.longs().map(s -> SwarmGenerator.generate(s).toString());
        Arbitrary<Integer> at = Arbitraries.integers().between(0, 400);
        Arbitrary<String> noise = Arbitraries.strings().withChars("=(),t- 0123456789xyz\n\u00e9").ofMaxLength(6);
        Arbitrary<String> mutated = Combinators.combine(valid, at, noise, Arbitraries.integers().between(0, 3))
                .as((text, pos, insert, how) -> {
                    int p = Math.min(pos, text.length());
                    switch (how) {
                        case 0:
                            return text.substring(0, p); // truncation
                        case 1:
                            return text.substring(0, p) + insert + text.substring(p); // insertion
                        case 2:
                            return text.substring(0, p) + text.substring(Math.min(text.length(), p + 1 + insert.length()));
                        default:
                            return text.substring(0, p) + insert + text.substring(Math.min(text.length(), p + insert.length()));
                    }
                });
        Arbitrary<String> junk = Arbitraries.strings().ofMaxLength(60);
        Arbitrary<String> huge = Arbitraries.integers().between(1, 5).map(n ->
                "pages=99999999999 table=" + "9".repeat(n * 4) + " walk=1 ra=0 cached=- wb=- fail=- t0=lock(0)");
        return Arbitraries.frequencyOf(
                Tuple.of(6, mutated), Tuple.of(2, junk), Tuple.of(1, huge));
    }

    @Property(tries = 1000, seed = "20261202")
    void anyOtherTextIsAOneLineErrorNeverAnException(@ForAll("recipeLikeText") String text) {
        String failure = errorFailure(text, SwarmRecipe::parse);
        Statistics.label("accepted").collect(failure == null && accepts(text));
        assertNull(failure, () -> "for '" + text + "': " + failure);
    }

    private static boolean accepts(String text) {
        try {
            SwarmRecipe.parse(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    @Example
    void theRoundTripOracleCatchesAPrinterThatDropsTheIrqTask() {
        SwarmRecipe r = SwarmRecipe.parse("pages=1 table=1 walk=1 ra=0 cached=0 wb=0 fail=- t0=waitwb(0) irq=endwb(0)");
        Function<SwarmRecipe, String> broken = x -> x.toString().replaceAll(" irq=\\S+", "");
        assertNull(roundTripFailure(r, SwarmRecipe::toString));
        assertNotNull(roundTripFailure(r, broken));
    }

    @Example
    void theErrorOracleCatchesAParserThatLetsAJavaExceptionEscape() {
        /* Skips to "pages=" without checking that it is there: substring(-1) throws. */
        Function<String, SwarmRecipe> broken = text -> SwarmRecipe.parse(text.substring(text.indexOf("pages=")));
        String bad = "junk";
        assertNull(errorFailure(bad, SwarmRecipe::parse));
        assertNotNull(errorFailure(bad, broken));
        assertNotNull(errorFailure("pages=1", text -> {
            throw new IllegalArgumentException("two\nlines");
        }), "a multi-line message is caught too");
    }
}
