package kmodel.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import kmodel.kernel.KconfigOption;
import kmodel.verification.KconfigTable;
import kmodel.explorer.ModelCheck;
import kmodel.verification.world.Scenario;
import kmodel.verification.ScenarioRegistry;
import kmodel.verification.catalog.BugCatalog;
import kmodel.verification.catalog.CatalogBug;
import kmodel.explorer.search.Schedule;
import kmodel.explorer.trace.ReplayToken;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * The command line's input surfaces and their generators, for {@link CliFuzzProperties}.
 *
 * <p>A surface is a name, a generator of inputs and the argument vector that feeds one input to
 * {@code kmodel}. Every option and positional parameter is a surface already, generated from
 * picocli's model ({@link CliModel}); the surfaces here are the deeper ones (replay tokens, swarm
 * recipes, whole argument vectors over the model's words, argument files) and the value
 * generators the model's inputs use ({@link #valuesAround}: valid values, near misses and hostile
 * text; {@link #numbers}; {@link #hostile}).
 */
final class CliSurfaces {
    private CliSurfaces() {
    }

    /** One input surface: inputs and how one becomes an argument vector. */
    static final class Surface<T> {
        final String name;
        final Arbitrary<T> inputs;
        private final Function<T, String[]> argv;

        Surface(String name, Arbitrary<T> inputs, Function<T, String[]> argv) {
            this.name = name;
            this.inputs = inputs;
            this.argv = argv;
        }

        String[] argv(T input) {
            return argv.apply(input);
        }

        /** Runs kmodel on {@code input} with the real commands (but the simulator's, see {@link CliModel#factory}). */
        CliRun run(T input) {
            return CliRun.kmodel(CliModel::commandLine, argv(input));
        }

        @Override
        public String toString() {
            return name;
        }
    }

    // ---- building blocks -------------------------------------------------------------------

    /** A check small enough to run in milliseconds whatever option follows. */
    static final String[] SMALL_CHECK = {"check", "--scenario", "textbook-refcount", "--executions", "5"};

    /** {@code prefix... option VALUE}, the value fuzzed. */
    static Surface<String> option(String name, List<String> prefix, String option, Arbitrary<String> values) {
        return new Surface<>(name, values, v -> concat(prefix, List.of(option, v)));
    }

    /** Whole argument vectors. */
    static Surface<List<String>> args(String name, Arbitrary<List<String>> vectors, Function<List<String>, List<String>> fix) {
        return new Surface<>(name, vectors, v -> fix.apply(v).toArray(new String[0]));
    }

    /** A file with fuzzed contents, named on the command line by {@code argv(path)}. */
    static Surface<String> file(String name, Arbitrary<String> contents, Function<String, List<String>> argv) {
        return new Surface<>(name, contents, c -> argv.apply(write(c).toString()).toArray(new String[0]));
    }

    private static String[] concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all.toArray(new String[0]);
    }

    private static Path scratch;

    private static synchronized Path write(String contents) {
        try {
            if (scratch == null) {
                scratch = Files.createTempDirectory("kmodel-fuzz");
                scratch.toFile().deleteOnExit();
            }
            Path f = scratch.resolve("input");
            Files.write(f, contents.getBytes(StandardCharsets.UTF_8));
            f.toFile().deleteOnExit();
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Text no valid input looks like: control characters, any Unicode, format and picocli syntax, very long. */
    static Arbitrary<String> hostile() {
        return Arbitraries.oneOf(
                Arbitraries.strings().all().ofMaxLength(40),
                Arbitraries.strings().ascii().ofMaxLength(40),
                Arbitraries.of("", " ", "-", "--", "---", "=", "==", ",", ".", "..", "@", "@/dev/zero", "\n", "\t",
                        "\r\n", "\u0000", "\u001b[31mred", "\u2028", "\ud800", "%s%n%d", "${DEFAULT-VALUE}",
                        "'", "\"", "\\", "null", "a=b=c", "-1", "0", "km1..", "km1.AAAA.00000000",
                        "a".repeat(5000), "\u00e9\u00e8", "\u0661\u0663"));
    }

    /** Numbers and things that look like numbers: boundaries, overflows, other spellings. */
    static Arbitrary<String> numbers() {
        return Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.integers().between(-3, 30).map(String::valueOf)),
                Tuple.of(2, Arbitraries.longs().map(String::valueOf)),
                Tuple.of(2, Arbitraries.integers().greaterOrEqual(0).map(String::valueOf)),
                Tuple.of(3, Arbitraries.of("0", "1", "-1", "1000", "1001", "2147483647", "2147483648", "-2147483648",
                        "4294967296", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
                        "-9223372036854775809", "99999999999999999999999", "1e3", "0x10", "1_000", "+1", " 1",
                        "1 ", "01", "1.0", "", "\u0663", "\uff11", "unbounded", "Unbounded", "-0")),
                Tuple.of(1, hostile()));
    }

    /** {@code valid}, a one-edit mutation of a valid value, or {@link #hostile()} text. */
    static Arbitrary<String> valuesAround(List<String> valid) {
        return Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.of(valid)),
                Tuple.of(4, mutated(Arbitraries.of(valid))),
                Tuple.of(2, hostile()));
    }

    /** One edit of a string: truncation, insertion, deletion, replacement, case flip, padding, bit flip. */
    static Arbitrary<String> mutated(Arbitrary<String> base) {
        Arbitrary<Character> chars = Arbitraries.oneOf(Arbitraries.chars().ascii(), Arbitraries.chars().all(),
                Arbitraries.of('\n', '\u0000', '=', ',', '.', '-', ' '));
        return Combinators.combine(base, Arbitraries.integers().between(0, 8), Arbitraries.integers().between(0, 1 << 16),
                chars).as(CliSurfaces::edit);
    }

    private static String edit(String s, int op, int at, char c) {
        int i = s.isEmpty() ? 0 : at % s.length();
        switch (op) {
            case 0:
                return s.substring(0, i);
            case 1:
                return s.substring(0, i) + c + s.substring(i);
            case 2:
                return s.isEmpty() ? s : s.substring(0, i) + s.substring(i + 1);
            case 3:
                return s.isEmpty() ? String.valueOf(c) : s.substring(0, i) + c + s.substring(i + 1);
            case 4:
                return s.toUpperCase(java.util.Locale.ROOT);
            case 5:
                return " " + s + "\t";
            case 6:
                return s.isEmpty() ? s : s.substring(0, i) + (char) (s.charAt(i) ^ (1 << (at % 7))) + s.substring(i + 1);
            case 7:
                return s + s;
            default:
                return s.substring(i) + s.substring(0, i);
        }
    }

    // ---- the registered names --------------------------------------------------------------

    static List<String> scenarioNames() {
        List<String> l = new ArrayList<>();
        for (Scenario<?> s : ScenarioRegistry.everything().all()) {
            l.add(s.name());
        }
        return l;
    }

    /** Swarm recipes (as {@code ./kmodel swarm} prints them), for {@code --scenario swarm:RECIPE}. */
    static List<String> swarmRecipes() {
        return List.of(
                "pages=1 table=2 walk=1 ra=0 cached=0 wb=0 fail=- t0=lock(0),waitwb(0),unlock(0) t1=lock(0),unlock(0)"
                        + " irq=endwb(0)",
                "pages=1 table=2 walk=1 ra=0 cached=0 wb=- fail=0 t0=read(0) t1=read(0)",
                "pages=2 table=2 walk=64 ra=0 cached=0,1 wb=- fail=- t0=readq(0),readq(1),lock(1),unlock(1)"
                        + " t1=readq(0),trylock(1),unlock(1)",
                "pages=1 table=1 walk=1 ra=0 cached=0 wb=- fail=0 t0=lock(0),unlock(0) t1=waitlocked(0)");
    }

    static List<String> bugIds() {
        List<String> l = new ArrayList<>();
        for (CatalogBug b : BugCatalog.all()) {
            l.add(b.id());
        }
        for (CatalogBug b : BugCatalog.barrierBugs()) {
            l.add(b.id());
        }
        return l;
    }

    /** {@code NAME=VALUE} assignments: every option with in-range, boundary and bad values, some with {@code CONFIG_}. */
    static List<String> assignments() {
        List<String> l = new ArrayList<>();
        for (KconfigOption o : KconfigTable.options()) {
            for (String v : List.of(o.format(o.defaultValue()), String.valueOf(o.min()), String.valueOf(o.max()),
                    String.valueOf(o.max() + 1), String.valueOf(o.min() - 1), "y", "n", "yes", "2", "")) {
                l.add(o.name() + "=" + v);
                l.add("CONFIG_" + o.name() + "=" + v);
            }
        }
        return l;
    }

    // ---- whole argument vectors ------------------------------------------------------------

    /**
     * Up to five words: every command and every option of picocli's model of the command line
     * ({@link CliModel#words}: a new command or option is a word the day it exists), values of
     * every kind the model's labels name, registered names, a valid token, one-edit mutations of
     * those, hostile text.
     */
    static Arbitrary<List<String>> argumentVectors(List<String> tokens) {
        List<String> words = new ArrayList<>(CliModel.words(Kmodel.commandLine()));
        words.addAll(List.of("--", "-", "-v-h", "--scenario=textbook-waitqueue", "--preemptions=1",
                "--set=PAGE_WAIT_V57=y", "exhaustive", "pct", "random", "dpor", "none", "unbounded", "auto", "0", "1", "3",
                "0/2", "1/2", "30s", "small", "1/4"));
        words.addAll(scenarioNames());
        words.addAll(bugIds());
        words.add(tokens.get(0));
        Arbitrary<String> word = Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.of(words)),
                Tuple.of(2, mutated(Arbitraries.of(words))), Tuple.of(1, hostile()));
        return word.list().ofMaxSize(5);
    }

    /**
     * {@code args} with the run budget of each command ({@link CliModel#context}) after every
     * word that names one, so that whatever else the vector holds a valid run is cheap (a second
     * {@code --executions}, {@code --count} or {@code --jmh} is itself a usage error).
     */
    static List<String> smallChecks(List<String> args) {
        java.util.Set<String> commands = Kmodel.commandLine().getSubcommands().keySet();
        List<String> out = new ArrayList<>();
        for (String a : args) {
            out.add(a);
            if (commands.contains(a)) {
                out.addAll(CliModel.context(a, null));
            }
        }
        return out;
    }

    /** {@link #SMALL_CHECK} followed by {@code more}. */
    static List<String> smallCheck(String... more) {
        List<String> l = new ArrayList<>(List.of(SMALL_CHECK));
        l.addAll(List.of(more));
        return l;
    }

    // ---- replay tokens ---------------------------------------------------------------------

    /** Tokens kmodel could have printed: a real counterexample and well-formed tokens of every scenario. */
    static List<String> validTokens() {
        List<String> l = new ArrayList<>();
        l.add(ModelCheck.exhaustive(ScenarioRegistry.standard().get("textbook-waitqueue"))
                .config(KconfigTable.build(List.of(), List.of(BugCatalog.TEXTBOOK_CHECK_THEN_SLEEP))).run().token());
        for (String s : scenarioNames()) {
            l.add(new ReplayToken(s, "", Schedule.of(new int[] {0, 1, 0, 2, 1})).encode());
        }
        l.add(new ReplayToken("textbook-refcount", "bug=textbook-double-put", Schedule.of(new int[0])).encode());
        return l;
    }

    /** Token text: random, token-shaped, or one edit (truncation, bit flip, ...) of a valid token. */
    static Arbitrary<String> tokenTexts(List<String> valid) {
        Arbitrary<String> b64 = Arbitraries.strings().withChars("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
                .ofMaxLength(120);
        Arbitrary<String> hex = Arbitraries.strings().withChars("0123456789abcdef").ofLength(8);
        return Arbitraries.frequencyOf(
                Tuple.of(2, hostile()),
                Tuple.of(2, Combinators.combine(b64, hex).as((p, c) -> "km1." + p + "." + c)),
                Tuple.of(1, Arbitraries.of(valid)),
                Tuple.of(6, mutated(Arbitraries.of(valid))));
    }

    /** Configuration texts for forged tokens: canonical ones and lies about names, values and form. */
    static List<String> tokenConfigs() {
        List<String> l = new ArrayList<>(List.of("", "PAGE_LOCK_UNFAIRNESS=0", "PAGE_WAIT_TABLE_SIZE=1",
                "PAGE_WAIT_TABLE_SIZE=1,bug=textbook-check-then-sleep", "bug=nope", "CONFIG_PAGE_WAIT_V57=1",
                "PAGE_WAIT_V57=2", "PAGE_WAIT_TABLE_SIZE=99999999999999999999", "WAITQUEUE_WALK_BREAK_CNT=-1",
                "WAITQUEUE_WALK_BREAK_CNT=+1", "WAITQUEUE_WALK_BREAK_CNT=01", ",", "=", "bug=", "bug=,",
                "bug=textbook-double-put,bug=textbook-double-put", "PAGE_WAIT_V57=1,PAGE_WAIT_V57=0",
                "bug=textbook-double-put,PAGE_WAIT_V57=1", "PAGE_WAIT_V57=1,ASYNC_BUFFERED_READS=0"));
        for (String b : bugIds()) {
            l.add("bug=" + b);
        }
        return l;
    }

    /**
     * Sealed tokens (valid checksum) whose contents lie: a wrong version, string lengths that do
     * not fit, names that are not registered or not ASCII, a decision count far beyond the bytes
     * that follow (2^24, 2^31 - 1, 2^31, or up to 2^20), overlong or out-of-range numbers,
     * trailing bytes inside the payload or after its compressed stream. (The huge counts are
     * few and fixed, so that a decoder that trusts them fails at once rather than filling the
     * test JVM's heap.)
     */
    static Arbitrary<String> forgedTokens() {
        Arbitrary<Integer> version = Arbitraries.frequencyOf(Tuple.of(9, Arbitraries.just(1)),
                Tuple.of(1, Arbitraries.integers().between(0, 255)));
        Arbitrary<byte[]> scenario = stringField(Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.of("textbook-waitqueue",
                "textbook-refcount")), Tuple.of(3, valuesAround(scenarioNames()))));
        Arbitrary<byte[]> config = stringField(Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just("")),
                Tuple.of(3, valuesAround(tokenConfigs()))));
        Arbitrary<List<Long>> decisions = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.longs().between(0, 3).list().ofMaxSize(300)),
                Tuple.of(1, Arbitraries.frequencyOf(
                        Tuple.of(20, Arbitraries.longs().between(0, 4)),
                        Tuple.of(1, Arbitraries.longs().between(0, Integer.MAX_VALUE)),
                        Tuple.of(1, Arbitraries.of(-1L, 1L << 31, 1L << 32, Long.MAX_VALUE))).list().ofMaxSize(300)));
        Arbitrary<Long> countLie = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.just(-1L)), // the true count
                Tuple.of(2, Arbitraries.of((long) Integer.MAX_VALUE, 1L << 24, 1L << 31, -2L)),
                Tuple.of(1, Arbitraries.longs().between(0, 1 << 20)),
                Tuple.of(1, Arbitraries.longs().between(0, 5)));
        Arbitrary<byte[]> trailer = Arbitraries.frequencyOf(Tuple.of(9, Arbitraries.just(new byte[0])),
                Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(4)));
        Arbitrary<Boolean> trailerOutside = Arbitraries.of(false, false, false, true);
        return Combinators.combine(version, scenario, config, countLie, decisions, trailer, trailerOutside)
                .as((v, s, c, n, d, t, outside) -> {
                    TokenForge f = new TokenForge().version(v).bytes(s).bytes(c);
                    f.varint(n == -1L ? d.size() : n == -2L ? 0xffffffffffL : n);
                    for (long x : d) {
                        f.varint(x);
                    }
                    return outside ? TokenForge.seal(f.raw(), t) : TokenForge.seal(f.bytes(t).raw());
                });
    }

    /** Random bytes, sealed: whatever the checksum protects, it can be anything. */
    static Arbitrary<String> sealedNoise() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(200).map(TokenForge::seal);
    }

    /** A writeUTF-style field of {@code values}, its length field true or a lie. */
    private static Arbitrary<byte[]> stringField(Arbitrary<String> values) {
        Arbitrary<Integer> lie = Arbitraries.frequencyOf(Tuple.of(8, Arbitraries.just(-1)),
                Tuple.of(1, Arbitraries.integers().between(0, 65535)),
                Tuple.of(1, Arbitraries.integers().between(0, 3)));
        return Combinators.combine(values, lie).as((v, l) -> {
            byte[] b = v.getBytes(StandardCharsets.UTF_8);
            if (b.length > 65535) {
                b = Arrays.copyOf(b, 65535);
            }
            int claimed = l == -1 ? b.length : l < 4 ? Math.max(0, b.length + l - 1) : l;
            return new TokenForge().string(claimed, b).raw();
        });
    }
}
