package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import kmodel.tools.CliSurfaces.Surface;
import kmodel.explorer.trace.ReplayToken;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomGenerator;
import net.jqwik.api.statistics.Statistics;
import picocli.CommandLine;

/**
 * Fuzzes every input surface of the command line in-process: every option and positional
 * parameter of every command as picocli's model lists them ({@link CliModel}: a new option is
 * fuzzed the day it exists), whole argument vectors of the model's commands and options
 * (unknown ones too), and, deeper, replay tokens (random text, one edit of a valid token, sealed
 * tokens whose contents lie, sealed noise), swarm recipes ({@code --scenario swarm:RECIPE}) and
 * argument files.
 * Every run must end the way {@link CliOracle} says: a clean run, or exit 2 with exactly one line
 * {@code kmodel: ...}; never exit 3, a stack trace, a {@link Throwable} escaping, or memory
 * allocated because an input claimed it was needed.
 *
 * <p>The {@code @Example}s beside the properties run the same generators and oracle over
 * deliberately broken decoders ({@link BrokenDecoders}) and show the oracle failing.
 */
class CliFuzzProperties {
    private static final List<String> VALID_TOKENS = CliSurfaces.validTokens();

    static final Surface<String> REPLAY_TEXT = new Surface<>("replay TOKEN (text)",
            CliSurfaces.tokenTexts(VALID_TOKENS), t -> new String[] {"replay", t});
    static final Surface<String> REPLAY_FORGED = new Surface<>("replay TOKEN (sealed lies)",
            CliSurfaces.forgedTokens(), t -> new String[] {"replay", t});
    static final Surface<String> REPLAY_NOISE = new Surface<>("replay TOKEN (sealed noise)",
            CliSurfaces.sealedNoise(), t -> new String[] {"replay", "--verbose", t});
    static final Surface<String> SWARM_RECIPE = new Surface<>("--scenario swarm:RECIPE",
            CliSurfaces.valuesAround(CliSurfaces.swarmRecipes()),
            v -> new String[] {"check", "--executions", "5", "--scenario", "swarm:" + v});

    /** One case of one input of picocli's model ({@link CliModel}): the input and the argument words. */
    static final class ModelCase {
        final CliModel.Input input;
        final List<String> words;

        ModelCase(CliModel.Input input, List<String> words) {
            this.input = input;
            this.words = words;
        }

        @Override
        public String toString() {
            return CliModel.argv(input, words).toString();
        }
    }

    /**
     * Every option and positional parameter of every command, from picocli's model (no list of
     * them here): an input drawn at random, then a value its type and label call for, in its
     * command's run budget. ({@code CliModelFuzzTest} gives each input its own cases too.)
     */
    static final Surface<ModelCase> MODEL = new Surface<>("every input of the command model",
            Arbitraries.of(CliModel.inputs(CliModel.commandLine())).flatMap(in -> (in.isFlag()
                    ? Arbitraries.of(CliModel.cases(in, 6, 60617)) : CliModel.values(in).map(v -> CliModel.give(in, v, false)))
                    .filter(w -> !CliModel.tooCostly(in, w)).map(w -> new ModelCase(in, w))),
            c -> CliModel.argv(c.input, c.words).toArray(new String[0]));
    static final Surface<List<String>> ARGV = CliSurfaces.args("argument vectors", CliSurfaces.argumentVectors(VALID_TOKENS),
            CliSurfaces::smallChecks);
    static final Surface<String> ARGUMENT_FILE = CliSurfaces.file("@FILE", CliSurfaces.hostile(),
            path -> List.of("bugs", "@" + path));

    /**
     * Runs {@code input} on {@code surface} and applies the oracle; labels the exit code and
     * whether the run got past the input checks (a clean run, or a token that decoded but does
     * not fit its scenario's schedule), for {@link #covered}.
     */
    private static <T> void sound(Surface<T> surface, T input) {
        CliRun r = surface.run(input);
        Statistics.label("refused").collect(r.code == Kmodel.EXIT_USAGE);
        Statistics.label("past the input checks").collect(r.code != Kmodel.EXIT_USAGE
                || r.err.contains("replay token does not fit its scenario"));
        CliOracle.assertSound(r);
    }

    /**
     * Coverage checks, at the end of a property: some input was refused and, where the
     * generator makes valid inputs too, some got past the input checks (so both sides of every
     * surface are exercised, not only its error messages).
     */
    private static void covered(boolean pastChecks) {
        Statistics.label("refused").coverage(c -> c.check(true).count(n -> n > 0));
        if (pastChecks) {
            Statistics.label("past the input checks").coverage(c -> c.check(true).count(n -> n > 0));
        }
    }

    @Property(tries = 120, seed = "60601")
    void replayTokenTextEndsCleanly(@ForAll("replayText") String token) {
        sound(REPLAY_TEXT, token);
        covered(true);
    }

    @Property(tries = 120, seed = "60602")
    void sealedTokensThatLieEndCleanly(@ForAll("replayForged") String token) {
        sound(REPLAY_FORGED, token);
        covered(true);
    }

    @Property(tries = 40, seed = "60603")
    void sealedNoiseEndsCleanly(@ForAll("replayNoise") String token) {
        sound(REPLAY_NOISE, token);
        covered(false);
    }

    @Property(tries = 300, seed = "60604")
    void everyInputOfTheCommandModelEndsCleanly(@ForAll("model") ModelCase c) {
        sound(MODEL, c);
        covered(true);
    }

    @Provide
    Arbitrary<ModelCase> model() {
        return MODEL.inputs;
    }

    @Property(tries = 60, seed = "60616")
    void swarmRecipesEndCleanly(@ForAll("swarmRecipe") String value) {
        sound(SWARM_RECIPE, value);
        covered(true);
    }

    @Provide
    Arbitrary<String> swarmRecipe() {
        return SWARM_RECIPE.inputs;
    }

    @Property(tries = 100, seed = "60614")
    void argumentVectorsEndCleanly(@ForAll("argv") List<String> args) {
        sound(ARGV, args);
        covered(true);
    }

    @Property(tries = 10, seed = "60615")
    void argumentFilesAreNotRead(@ForAll("argumentFile") String contents) {
        CliRun r = ARGUMENT_FILE.run(contents);
        CliOracle.assertSound(r);
        assertEquals(Kmodel.EXIT_USAGE, r.code, r::toString);
        assertTrue(r.err.startsWith("kmodel: Unmatched argument at index 1: '@"), r::toString);
    }

    @Provide
    Arbitrary<String> replayText() {
        return REPLAY_TEXT.inputs;
    }

    @Provide
    Arbitrary<String> replayForged() {
        return REPLAY_FORGED.inputs;
    }

    @Provide
    Arbitrary<String> replayNoise() {
        return REPLAY_NOISE.inputs;
    }

    @Provide
    Arbitrary<List<String>> argv() {
        return ARGV.inputs;
    }

    @Provide
    Arbitrary<String> argumentFile() {
        return ARGUMENT_FILE.inputs;
    }

    // ---- the oracle, failing on broken decoders ---------------------------------------------

    /**
     * The first input of {@code surface}'s generator (fixed seed, at most {@code tries}) whose
     * run with {@code decoder} in place of the real one the oracle rejects, with its problems;
     * null if none.
     */
    private static String firstRejected(Surface<String> surface, Function<String, ReplayToken> decoder, long seed,
            int tries) {
        RandomGenerator<String> gen = surface.inputs.generator(1000);
        Random random = new Random(seed);
        CommandLine.IFactory broken = CliRun.withDecoder(decoder);
        for (int i = 0; i < tries; i++) {
            String input = gen.next(random).value();
            CliRun r = CliRun.kmodel(broken, false, surface.argv(input));
            List<String> p = CliOracle.problems(r);
            if (!p.isEmpty()) {
                return String.join("; ", p);
            }
        }
        return null;
    }

    @Example
    void theForgedTokenPropertyFailsOnADecoderThatTrustsTheCount() {
        String found = firstRejected(REPLAY_FORGED, BrokenDecoders::trustingTheCount, 60602, 120);
        assertTrue(found != null, "the oracle must reject a decoder that allocates what the token claims");
        assertTrue(found.contains("exit 3") || found.contains("allocated"), found);
    }

    @Example
    void theTokenTextPropertyFailsOnADecoderThatIndexesUncheckedParts() {
        String found = firstRejected(REPLAY_TEXT, BrokenDecoders::indexingUncheckedParts, 60601, 120);
        assertTrue(found != null, "the oracle must reject a decoder that throws ArrayIndexOutOfBoundsException");
        assertTrue(found.contains("exit 3: kmodel itself failed (kmodel: internal error: "
                + "java.lang.ArrayIndexOutOfBoundsException"), found);
    }

    @Example
    void theSameGeneratorsPassWithTheRealDecoder() {
        List<String> problems = new ArrayList<>();
        for (Surface<String> s : List.of(REPLAY_FORGED, REPLAY_TEXT)) {
            RandomGenerator<String> gen = s.inputs.generator(1000);
            Random random = new Random(7);
            for (int i = 0; i < 20; i++) {
                CliRun r = CliRun.kmodel(CliRun.withDecoder(ReplayToken::decode), false, s.argv(gen.next(random).value()));
                problems.addAll(CliOracle.problems(r));
            }
        }
        assertEquals(List.of(), problems, "the injection itself must not break anything");
    }
}
