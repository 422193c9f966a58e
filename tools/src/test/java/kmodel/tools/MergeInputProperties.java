package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.opentest4j.AssertionFailedError;
import picocli.CommandLine;

/**
 * {@code kmodel merge} over damaged and lying shard files: random bytes, truncations, bit flips,
 * and well-formed files whose numbers, types and fields lie. Every input ends in a one-line
 * {@code kmodel: merge: FILE: ...} error with exit 2, or in a clean merge (exit 0, 1 or 4, no
 * error output); never exit 3, a stack trace or an {@code Error} (an allocation sized by a
 * claimed count would be one). A tampered leaf may be harmless (a time), so that property accepts
 * a clean merge; {@link #eachKindOfLieIsRefusedInOneLineSayingWhat} tells each kind of lie about
 * the search ({@link Lie}) and requires its refusal. The oracle is shown failing on a
 * deliberately trusting decoder.
 */
class MergeInputProperties {
    private static Path dir;
    private static String shard0;
    private static String shard1;
    /** Shard 0 of 2 of another scenario's search (textbook-refcount), for prefixes that belong elsewhere. */
    private static String foreign;

    @BeforeContainer
    static void makeShards() throws IOException {
        dir = Files.createTempDirectory("kmodel-merge-fuzz");
        for (int i = 0; i < 2; i++) {
            Path f = dir.resolve("shard-" + i + ".json");
            ShardCliTest.Run r = ShardCliTest.kmodel("check", "--scenario", "textbook-waitqueue", "--bug",
                    "textbook-check-then-sleep", "--preemptions", "1", "--shard", i + "/2", "--json", f.toString(),
                    "--jobs", "1");
            assertEquals(0, r.code, r::toString);
        }
        shard0 = Files.readString(dir.resolve("shard-0.json"));
        shard1 = Files.readString(dir.resolve("shard-1.json"));
        Path f = dir.resolve("foreign.json");
        ShardCliTest.Run r = ShardCliTest.kmodel("check", "--scenario", "textbook-refcount", "--preemptions", "1",
                "--executions", "2000", "--shard", "0/2", "--json", f.toString(), "--jobs", "1");
        assertEquals(0, r.code, r::toString);
        foreign = Files.readString(f);
        Files.delete(f);
    }

    @AfterContainer
    static void removeShards() throws IOException {
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
    }

    /** Merges {@code damaged} (as shard 0's file) with the intact shard 1, through {@code decoder}. */
    private static ShardCliTest.Run merge(byte[] damaged, MergeCommand.Decoder decoder) {
        Path f = dir.resolve("damaged.json");
        try {
            Files.write(f, damaged);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        CommandLine cmd = Kmodel.commandLine();
        if (decoder != null) {
            ((MergeCommand) cmd.getSubcommands().get("merge").getCommand()).decoder = decoder;
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int code = cmd.execute("merge", f.toString(), dir.resolve("shard-1.json").toString());
        return new ShardCliTest.Run(code, out.toString(), err.toString());
    }

    /** The oracle: a one-line usage error naming the file, or a clean merge. */
    static void assertHandled(ShardCliTest.Run r) {
        assertFalse(r.err.contains("\tat ") || r.err.contains("Exception") || r.err.contains("Error:"),
                () -> "no stack trace or exception name:\n" + r);
        if (r.code == 2) {
            String[] lines = r.err.split("\n");
            assertEquals(1, lines.length, r::toString);
            assertTrue(lines[0].startsWith("kmodel: merge: "), r::toString);
            return;
        }
        assertTrue(r.code == 0 || r.code == 1 || r.code == 4, () -> "exit 2 or a clean merge:\n" + r);
        assertEquals("", r.err, r::toString);
    }

    @Provide
    Arbitrary<byte[]> randomBytes() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(400);
    }

    @Property(tries = 80, seed = "20261201")
    void randomBytesAreRefusedInOneLine(@ForAll("randomBytes") byte[] junk) {
        assertHandled(merge(junk, null));
    }

    @Property(tries = 80, seed = "20261202")
    void everyTruncationIsHandled(@ForAll @IntRange(min = 0, max = 1_000_000) int cut) {
        byte[] all = shard0.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int at = cut % all.length;
        byte[] part = new byte[at];
        System.arraycopy(all, 0, part, 0, at);
        assertHandled(merge(part, null));
    }

    @Property(tries = 100, seed = "20261203")
    void bitFlipsAreHandled(@ForAll @IntRange(min = 0, max = 1_000_000) int where,
            @ForAll @IntRange(min = 0, max = 7) int bit, @ForAll @IntRange(min = 1, max = 3) int flips) {
        byte[] all = shard0.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        for (int k = 0; k < flips; k++) {
            int at = (where + k * 7919) % all.length;
            all[at] ^= (byte) (1 << ((bit + k) & 7));
        }
        assertHandled(merge(all, null));
    }

    /** Every leaf of the document, by path, so that a lie can be told about any one of them. */
    private static void leaves(JsonElement e, List<List<Object>> paths, List<Object> path) {
        if (e.isJsonObject()) {
            for (Map.Entry<String, JsonElement> x : e.getAsJsonObject().entrySet()) {
                List<Object> p = new ArrayList<>(path);
                p.add(x.getKey());
                paths.add(p);
                leaves(x.getValue(), paths, p);
            }
        } else if (e.isJsonArray()) {
            JsonArray a = e.getAsJsonArray();
            for (int i = 0; i < a.size(); i++) {
                List<Object> p = new ArrayList<>(path);
                p.add(i);
                paths.add(p);
                leaves(a.get(i), paths, p);
            }
        }
    }

    private static final JsonElement[] LIES = {
        new JsonPrimitive(-1), new JsonPrimitive(0), new JsonPrimitive(1), new JsonPrimitive(Integer.MAX_VALUE),
        new JsonPrimitive(Long.MAX_VALUE), new JsonPrimitive(new BigDecimal("1e400")), new JsonPrimitive(1.5),
        new JsonPrimitive(new BigDecimal("-9223372036854775809")), new JsonPrimitive("unbounded"),
        new JsonPrimitive("x".repeat(300)), new JsonPrimitive(true), new JsonArray(), new JsonObject(),
        com.google.gson.JsonNull.INSTANCE, new JsonPrimitive(999_999), new JsonPrimitive(2)
    };

    @Property(tries = 160, seed = "20261204")
    void wellFormedFilesThatLieAreHandled(@ForAll @IntRange(min = 0, max = 1_000_000) int which,
            @ForAll @IntRange(min = 0, max = 16) int lie) {
        JsonObject root = JsonParser.parseString(shard0).getAsJsonObject();
        List<List<Object>> paths = new ArrayList<>();
        leaves(root, paths, new ArrayList<>());
        List<Object> path = paths.get(which % paths.size());
        JsonElement parent = root;
        for (int i = 0; i < path.size() - 1; i++) {
            Object k = path.get(i);
            parent = k instanceof String ? parent.getAsJsonObject().get((String) k) : parent.getAsJsonArray().get((Integer) k);
        }
        Object last = path.get(path.size() - 1);
        if (lie == LIES.length) {
            if (last instanceof String) {
                parent.getAsJsonObject().remove((String) last);
            } else {
                parent.getAsJsonArray().remove((int) (Integer) last);
            }
        } else if (last instanceof String) {
            parent.getAsJsonObject().add((String) last, LIES[lie]);
        } else {
            parent.getAsJsonArray().set((Integer) last, LIES[lie]);
        }
        String text = new GsonBuilder().setPrettyPrinting().serializeNulls().create().toJson(root);
        assertHandled(merge(text.getBytes(java.nio.charset.StandardCharsets.UTF_8), null));
    }

    /** The kinds of lie a shard file can tell about its search, each with what its refusal must say. */
    enum Lie {
        /** A unit claims more executions than its prefix's subtree holds. */
        MORE_EXECUTIONS_THAN_THE_PREFIX_ALLOWS("more than its prefix allows"),
        /** A unit's prefix is one from another scenario's search. */
        PREFIX_FROM_ANOTHER_SCENARIO("a prefix from another scenario or search"),
        /** One shard's settings (steps, budget, unit target, configuration) differ from the other's. */
        SETTINGS_THAT_DISAGREE("its settings differ from shard"),
        /** A unit appears twice (in place of another of the shard's). */
        DUPLICATED_UNIT("appears twice"),
        /** A unit of the shard is left out. */
        MISSING_UNIT("units, but shard 0/2 of");

        final String refusal;

        Lie(String refusal) {
            this.refusal = refusal;
        }
    }

    private static JsonObject parse(String text) {
        return JsonParser.parseString(text).getAsJsonObject();
    }

    private static JsonArray levels(JsonObject root) {
        return root.getAsJsonArray("scenarios").get(0).getAsJsonObject().getAsJsonArray("levels");
    }

    /** Every explored unit of {@code root}, in file order. */
    private static List<JsonObject> units(JsonObject root) {
        List<JsonObject> out = new ArrayList<>();
        for (JsonElement l : levels(root)) {
            for (JsonElement u : l.getAsJsonObject().getAsJsonArray("explored")) {
                out.add(u.getAsJsonObject());
            }
        }
        return out;
    }

    /** Shard 0's file telling {@code lie}, the {@code which}-th way it can; null when there is no such way. */
    static String tell(Lie lie, int which, int amount) {
        JsonObject root = parse(shard0);
        List<JsonObject> units = units(root);
        switch (lie) {
            case MORE_EXECUTIONS_THAN_THE_PREFIX_ALLOWS: {
                // finished units (their claim is their prefix's whole subtree; a unit stopped early
                // may claim anything up to it) whose claim the merge re-explores to its end
                List<JsonObject> small = new ArrayList<>();
                for (JsonObject u : units) {
                    if (u.get("finished").getAsBoolean() && u.get("executions").getAsLong() + amount
                            < kmodel.explorer.SplitExplorer.CHECK_PER_UNIT) {
                        small.add(u);
                    }
                }
                if (small.isEmpty()) {
                    return null;
                }
                JsonObject u = small.get(which % small.size());
                u.addProperty("executions", u.get("executions").getAsLong() + amount);
                break;
            }
            case PREFIX_FROM_ANOTHER_SCENARIO: {
                List<JsonObject> theirs = units(parse(foreign));
                JsonObject u = units.get(which % units.size());
                JsonArray other = theirs.get((which / units.size()) % theirs.size()).getAsJsonArray("prefix");
                if (other.equals(u.getAsJsonArray("prefix"))) {
                    return null;
                }
                u.add("prefix", other);
                break;
            }
            case SETTINGS_THAT_DISAGREE: {
                JsonObject sc = root.getAsJsonArray("scenarios").get(0).getAsJsonObject();
                switch (which % 4) {
                    case 0:
                        sc.addProperty("steps", sc.get("steps").getAsLong() + amount);
                        break;
                    case 1:
                        sc.addProperty("budget", sc.get("budget").getAsLong() + amount);
                        break;
                    case 2:
                        sc.addProperty("unitTarget", sc.get("unitTarget").getAsLong() + amount);
                        break;
                    default:
                        sc.addProperty("configuration", "PAGE_WAIT_TABLE_SIZE=1,bug=textbook-check-then-sleep");
                        break;
                }
                break;
            }
            case DUPLICATED_UNIT: {
                JsonArray explored = null;
                for (JsonElement l : levels(root)) {
                    JsonArray e = l.getAsJsonObject().getAsJsonArray("explored");
                    if (e.size() >= 2 && (explored == null || which % 2 == 0)) {
                        explored = e;
                    }
                }
                int from = which % explored.size();
                int to = (from + 1 + amount % (explored.size() - 1)) % explored.size();
                explored.set(to, explored.get(from).deepCopy());
                break;
            }
            default: { // MISSING_UNIT
                JsonArray l = levels(root).get(which % levels(root).size()).getAsJsonObject().getAsJsonArray("explored");
                l.remove(amount % l.size());
                break;
            }
        }
        return new GsonBuilder().setPrettyPrinting().serializeNulls().create().toJson(root);
    }

    /**
     * Each kind of lie is refused in one line that says what is wrong (the lie is named in the
     * property's parameters and in every failure); a lie that cannot be told that way (a foreign
     * prefix equal to the unit's own) is counted and skipped.
     */
    @Property(tries = 60, seed = "20261205")
    void eachKindOfLieIsRefusedInOneLineSayingWhat(@ForAll Lie lie, @ForAll @IntRange(min = 0, max = 10_000) int which,
            @ForAll @IntRange(min = 1, max = 40) int amount) {
        String text = tell(lie, which, amount);
        net.jqwik.api.statistics.Statistics.label("lie").collect(lie, text != null);
        if (text == null) {
            return;
        }
        ShardCliTest.Run r = merge(text.getBytes(java.nio.charset.StandardCharsets.UTF_8), null);
        assertHandled(r);
        assertEquals(2, r.code, () -> lie + " must be refused:\n" + r);
        assertTrue(r.err.contains(lie.refusal), () -> lie + ": the line says '" + lie.refusal + "':\n" + r);
        net.jqwik.api.statistics.Statistics.label("lie").coverage(c -> {
            for (Lie l : Lie.values()) {
                c.check(l, true).count(n -> n > 0);
            }
        });
    }

    @Example
    void theIntactShardsMergeCleanly() {
        ShardCliTest.Run r = merge(shard0.getBytes(java.nio.charset.StandardCharsets.UTF_8), null);
        assertEquals(1, r.code, r::toString);
        assertHandled(r);
        assertTrue(r.out.startsWith("FAIL textbook-waitqueue"), r::toString);
    }

    /**
     * A deliberately trusting decoder (lenient Gson, sizes taken from the file, exceptions let
     * through) is caught by the same oracle: on random bytes it ends in exit 3 or an Error.
     */
    @Example
    void theOracleCatchesATrustingDecoder() {
        MergeCommand.Decoder trusting = text -> {
            JsonObject o = JsonParser.parseString(text).getAsJsonObject();
            long[] claimed = new long[o.getAsJsonObject("shard").get("count").getAsInt()];
            return claimed.length >= 0 ? CheckJson.read(text) : null;
        };
        assertThrows(AssertionFailedError.class, () -> assertHandled(merge("{\"shard\": 3".getBytes(), trusting)));
        assertThrows(AssertionFailedError.class, () -> assertHandled(merge("{\"shard\": {\"count\": -5}}".getBytes(),
                trusting)));
    }
}
