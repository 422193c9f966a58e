package kmodel.tools;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.explorer.SplitRun;
import kmodel.explorer.UnitResult;
import kmodel.kernel.ViolationKind;
import kmodel.verification.ScenarioRegistry;

/**
 * The {@code --json FILE} format of {@code kmodel check}, and its reader for {@code kmodel
 * merge}. One file per run or shard:
 * <pre>{@code
 * {"format": "kmodel-check", "version": 1, "shard": {"index": 0, "count": 1}, "jobs": 2,
 *  "timeSeconds": 1.5,
 *  "scenarios": [{"scenario": "textbook-waitqueue", "configuration": "", "memoryModel": "sc", "strategy": "exhaustive",
 *    "preemptions": 2 (or "unbounded", "auto"), "reduction": "dpor" (or "source", "none"), "iterative": true, "steps": 20000, "budget": 4000000,
 *    "unitTarget": 64, "timeSeconds": 0.4,
 *    "result": {"verdict": "PASS", "summary": "PASS textbook-waitqueue ...", "search": "exhaustive,
 *      preemption bound 2", "bound": 2, "executions": 3194, "outcomes": [...], "stepBoundStops": 0,
 *      "sleepBlocked": 0 (executions that ended sleep-set blocked; not read back by merge), "violation": null, "token": null, "stepBoundToken": null, "timeSeconds": 0.4},
 *    "levels": [{"bound": 0, "units": 12, "explored": [{"index": 0, "prefix": [1], "executions": 40,
 *      "finished": true, "outcomes": [{"outcome": "...", "first": 0}], "stepBoundStops": [],
 *      "firstStepBound": null, "firstStepBoundSchedule": null, "violation": null}, ...]}, ...]}]}
 * }</pre>
 * {@code result} is written by whole runs only (a shard's result exists only after the merge);
 * {@code levels} by exhaustive runs, which are split into units. {@code "bound"} of a result is
 * the preemption bound the search stopped at, or {@code "complete"} / {@code "unbounded"}; a
 * unit's {@code violation} is {@code {"execution", "kind", "message", "task", "schedule"}}, and its
 * {@code firstStepBoundSchedule} the decisions of its first step-bound stop (so that a merge prints
 * that stop's replay token, as a whole run does; files written before it existed lack the field,
 * and their merge prints none). {@code memoryModel} ({@code sc} or {@code lkmm}) repeats what the
 * configuration says ({@code memory-model=lkmm} in it, or nothing: {@code sc}), for readers of the
 * file; files written before it existed lack it, and a file whose two disagree is refused.
 *
 * <p>The reader ({@link #read}) trusts nothing: strict JSON, every field typed and range-checked,
 * counts checked against the arrays actually present before anything is sized by them; a
 * problem is a {@link Bad} naming the field.
 */
final class CheckJson {
    static final String FORMAT = "kmodel-check";
    static final int VERSION = 1;
    /** Largest number a file may claim for executions, budgets and steps. */
    static final long MAX_COUNT = 1_000_000_000_000_000L;
    /** Most units a level may have (the splitter makes a few hundred at most). */
    static final int MAX_UNITS = 1_000_000;
    /** Longest unit prefix (the splitter extends prefixes at most 64 times). */
    static final int MAX_PREFIX = 64;
    /** Largest preemption bound a file may name. */
    static final int MAX_BOUND = 1000;

    private CheckJson() {
    }

    /** A file that does not hold what {@code merge} needs: the message names the field. */
    static final class Bad extends Exception {
        private static final long serialVersionUID = 1L;

        Bad(String message) {
            super(message);
        }
    }

    // ---------------------------------------------------------------- writing

    /** One scenario's part of a file: its settings and, for a whole run, its result. */
    static JsonObject scenario(SplitRun.Settings st, String strategy, CheckResult result, SplitRun run, long nanos) {
        JsonObject o = new JsonObject();
        o.addProperty("scenario", st.scenario());
        o.addProperty("configuration", st.config());
        o.addProperty("memoryModel", memoryModelOf(st.config()));
        o.addProperty("strategy", strategy);
        if (st.preemptions() == ModelCheck.UNBOUNDED) {
            o.addProperty("preemptions", "unbounded");
        } else if (st.preemptions() == ModelCheck.AUTO) {
            o.addProperty("preemptions", "auto");
        } else {
            o.addProperty("preemptions", st.preemptions());
        }
        o.addProperty("reduction", !st.reduction() ? "none" : st.sourceSets() ? "source" : "dpor");
        o.addProperty("iterative", st.iterative());
        o.addProperty("steps", st.steps());
        o.addProperty("budget", st.budget());
        o.addProperty("unitTarget", st.unitTarget());
        o.addProperty("timeSeconds", nanos / 1e9);
        if (result != null) {
            o.add("result", result(result));
        }
        if (run != null) {
            JsonArray levels = new JsonArray();
            for (SplitRun.Level l : run.levels().values()) {
                JsonObject lo = new JsonObject();
                lo.add("bound", bound(l.bound()));
                lo.addProperty("units", l.unitCount());
                JsonArray explored = new JsonArray();
                for (int u = 0; u < l.unitCount(); u++) {
                    if (l.unit(u) != null) {
                        explored.add(unit(l.unit(u)));
                    }
                }
                lo.add("explored", explored);
                levels.add(lo);
            }
            o.add("levels", levels);
        }
        return o;
    }

    private static JsonElement bound(int b) {
        return b == ModelCheck.UNBOUNDED ? new JsonPrimitive("unbounded") : new JsonPrimitive(b);
    }

    private static JsonObject result(CheckResult r) {
        JsonObject o = new JsonObject();
        o.addProperty("verdict", r.verdict().toString());
        o.addProperty("summary", r.summaryLine());
        o.addProperty("search", r.strategy());
        String s = r.strategy();
        int at = s.lastIndexOf("preemption bound ");
        if (at >= 0) {
            int from = at + "preemption bound ".length();
            int to = from;
            while (to < s.length() && Character.isDigit(s.charAt(to))) {
                to++;
            }
            o.addProperty("bound", Integer.parseInt(s.substring(from, to)));
        } else if (s.contains("complete")) {
            o.addProperty("bound", r.complete() ? "complete" : "unbounded");
        } else {
            o.addProperty("bound", s.contains("unbounded") ? "unbounded" : "sampled");
        }
        o.addProperty("executions", r.executions());
        JsonArray outcomes = new JsonArray();
        for (String x : r.outcomes()) {
            outcomes.add(x);
        }
        o.add("outcomes", outcomes);
        o.addProperty("stepBoundStops", r.stepBoundHits());
        o.addProperty("sleepBlocked", r.sleepBlocked());
        if (r.violation() != null) {
            JsonObject v = new JsonObject();
            v.addProperty("kind", r.violation().kind().label());
            v.addProperty("message", r.violation().getMessage());
            o.add("violation", v);
        } else {
            o.add("violation", JsonNull.INSTANCE);
        }
        o.addProperty("token", r.token());
        o.addProperty("stepBoundToken", r.stepBoundToken());
        o.addProperty("timeSeconds", r.nanos() / 1e9);
        return o;
    }

    private static JsonObject unit(UnitResult u) {
        JsonObject o = new JsonObject();
        o.addProperty("index", u.index());
        o.add("prefix", ints(u.prefix()));
        o.addProperty("executions", u.executions());
        o.addProperty("finished", u.finished());
        JsonArray outcomes = new JsonArray();
        for (Map.Entry<String, Long> e : u.outcomes().entrySet()) {
            JsonObject x = new JsonObject();
            x.addProperty("outcome", e.getKey());
            x.addProperty("first", e.getValue());
            outcomes.add(x);
        }
        o.add("outcomes", outcomes);
        JsonArray hits = new JsonArray();
        for (long h : u.boundHits()) {
            hits.add(h);
        }
        o.add("stepBoundStops", hits);
        o.addProperty("firstStepBound", u.firstBound());
        int[] bs = u.boundSchedule();
        o.add("firstStepBoundSchedule", bs == null ? JsonNull.INSTANCE : ints(bs));
        if (u.violationAt() >= 0) {
            JsonObject v = new JsonObject();
            v.addProperty("execution", u.violationAt());
            v.addProperty("kind", u.kind().label());
            v.addProperty("message", u.message());
            v.addProperty("task", u.task());
            v.add("schedule", ints(u.schedule()));
            o.add("violation", v);
        } else {
            o.add("violation", JsonNull.INSTANCE);
        }
        return o;
    }

    private static JsonArray ints(int[] a) {
        JsonArray out = new JsonArray();
        for (int x : a) {
            out.add(x);
        }
        return out;
    }

    /** The whole file. */
    static String file(int shardIndex, int shardCount, int jobs, long nanos, List<JsonObject> scenarios) {
        JsonObject o = new JsonObject();
        o.addProperty("format", FORMAT);
        o.addProperty("version", VERSION);
        JsonObject shard = new JsonObject();
        shard.addProperty("index", shardIndex);
        shard.addProperty("count", shardCount);
        o.add("shard", shard);
        o.addProperty("jobs", jobs);
        o.addProperty("timeSeconds", nanos / 1e9);
        JsonArray a = new JsonArray();
        for (JsonObject s : scenarios) {
            a.add(s);
        }
        o.add("scenarios", a);
        return new GsonBuilder().setPrettyPrinting().serializeNulls().disableHtmlEscaping().create().toJson(o) + "\n";
    }

    // ---------------------------------------------------------------- reading

    /** One scenario's part of a file, read back. */
    static final class ScenarioPart {
        final String strategy;
        /** The settings, and the levels when {@link #split}. */
        final SplitRun run;
        /** Whether the file holds the search's units (an exhaustive search). */
        final boolean split;

        ScenarioPart(String strategy, SplitRun run, boolean split) {
            this.strategy = strategy;
            this.run = run;
            this.split = split;
        }
    }

    /** A file read back: its shard and its scenarios' parts, in file order. */
    static final class ShardFile {
        final int shardIndex;
        final int shardCount;
        final List<ScenarioPart> scenarios;

        ShardFile(int shardIndex, int shardCount, List<ScenarioPart> scenarios) {
            this.shardIndex = shardIndex;
            this.shardCount = shardCount;
            this.scenarios = scenarios;
        }
    }

    /** Parses and checks a file; {@link Bad} names the first thing wrong. */
    static ShardFile read(String text) throws Bad {
        JsonElement root;
        try (JsonReader r = new JsonReader(new StringReader(text))) {
            r.setStrictness(Strictness.STRICT);
            root = JsonParser.parseReader(r);
            if (r.peek() != JsonToken.END_DOCUMENT) {
                throw new Bad("bad JSON: text after the end of the document");
            }
        } catch (JsonParseException | IOException | IllegalStateException e) {
            throw new Bad("bad JSON: " + firstLine(e.getMessage()));
        } catch (StackOverflowError e) {
            throw new Bad("bad JSON: nested too deeply");
        }
        JsonObject o = object(root, "the document");
        String format = string(o, "format", "");
        if (!FORMAT.equals(format)) {
            throw new Bad("format is '" + format + "', expected '" + FORMAT + "'");
        }
        long version = number(o, "version", "", 0, Integer.MAX_VALUE);
        if (version != VERSION) {
            throw new Bad("version " + version + " (this kmodel reads version " + VERSION + ")");
        }
        JsonObject shard = object(field(o, "shard", ""), "shard");
        int count = (int) number(shard, "count", "shard.", 1, MAX_UNITS);
        int index = (int) number(shard, "index", "shard.", 0, count - 1);
        JsonArray scenarios = array(field(o, "scenarios", ""), "scenarios");
        List<ScenarioPart> parts = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < scenarios.size(); i++) {
            ScenarioPart p = scenario(object(scenarios.get(i), "scenarios[" + i + "]"), "scenarios[" + i + "].", index,
                    count);
            if (!names.add(p.run.settings().scenario())) {
                throw new Bad("scenario '" + p.run.settings().scenario() + "' appears twice");
            }
            parts.add(p);
        }
        return new ShardFile(index, count, parts);
    }

    /**
     * The bound {@code --preemptions auto} falls back to for the scenario named {@code name}
     * ({@link SplitRun.Settings}): the registry's, looked up only when the search is {@code auto}.
     */
    static int autoBound(String name, int preemptions) {
        return preemptions == ModelCheck.AUTO ? ScenarioRegistry.autoBoundOf(name) : ModelCheck.AUTO_BOUND;
    }

    /** The memory model a canonical configuration names: {@code lkmm} with {@code memory-model=lkmm}, else {@code sc}. */
    static String memoryModelOf(String canonical) {
        for (String part : canonical.split(",")) {
            if (part.equals("memory-model=lkmm")) {
                return "lkmm";
            }
        }
        return "sc";
    }

    private static ScenarioPart scenario(JsonObject o, String at, int shardIndex, int shardCount) throws Bad {
        String name = string(o, "scenario", at);
        String config = string(o, "configuration", at);
        if (o.has("memoryModel")) {
            String mm = string(o, "memoryModel", at);
            if (!mm.equals(memoryModelOf(config))) {
                throw new Bad(at + "memoryModel is '" + mm + "', but the configuration says " + memoryModelOf(config));
            }
        }
        String strategy = string(o, "strategy", at);
        JsonElement pe = field(o, "preemptions", at);
        int preemptions;
        if (pe.isJsonPrimitive() && pe.getAsJsonPrimitive().isString() && pe.getAsString().equals("unbounded")) {
            preemptions = ModelCheck.UNBOUNDED;
        } else if (pe.isJsonPrimitive() && pe.getAsJsonPrimitive().isString() && pe.getAsString().equals("auto")) {
            preemptions = ModelCheck.AUTO;
        } else {
            preemptions = (int) number(o, "preemptions", at, 0, MAX_BOUND);
        }
        String reduction = string(o, "reduction", at);
        if (!reduction.equals("dpor") && !reduction.equals("source") && !reduction.equals("none")) {
            throw new Bad(at + "reduction is '" + reduction + "', expected dpor, source or none");
        }
        boolean iterative = bool(o, "iterative", at);
        long steps = number(o, "steps", at, 1, MAX_COUNT);
        long budget = number(o, "budget", at, 1, MAX_COUNT);
        int unitTarget = (int) number(o, "unitTarget", at, 1, MAX_UNITS);
        double seconds = seconds(o, "timeSeconds", at);
        SplitRun.Settings st = new SplitRun.Settings(name, config, preemptions, !reduction.equals("none"), iterative,
                steps, budget, unitTarget, autoBound(name, preemptions)).sourceSets(reduction.equals("source"));
        SplitRun run = new SplitRun(st, shardIndex, shardCount);
        run.nanos((long) (seconds * 1e9));
        if (!o.has("levels")) {
            return new ScenarioPart(strategy, run, false);
        }
        JsonArray levels = array(field(o, "levels", at), at + "levels");
        for (int i = 0; i < levels.size(); i++) {
            String lat = at + "levels[" + i + "].";
            JsonObject lo = object(levels.get(i), at + "levels[" + i + "]");
            JsonElement be = field(lo, "bound", lat);
            int bound;
            if (be.isJsonPrimitive() && be.getAsJsonPrimitive().isString() && be.getAsString().equals("unbounded")) {
                bound = ModelCheck.UNBOUNDED;
            } else {
                bound = (int) number(lo, "bound", lat, 0, MAX_BOUND);
            }
            if (!st.hasLevel(bound)) {
                throw new Bad(lat + "bound " + (bound == ModelCheck.UNBOUNDED ? "unbounded" : bound)
                        + " is not a level of this search");
            }
            if (run.levels().containsKey(bound)) {
                throw new Bad(lat + "bound: a second level " + bound);
            }
            int units = (int) number(lo, "units", lat, 1, MAX_UNITS);
            JsonArray explored = array(field(lo, "explored", lat), lat + "explored");
            int owned = units / shardCount + (shardIndex < units % shardCount ? 1 : 0);
            if (explored.size() != owned) {
                throw new Bad(lat + "explored holds " + explored.size() + " units, but shard " + shardIndex + "/"
                        + shardCount + " of " + units + " units owns " + owned);
            }
            SplitRun.Level level = new SplitRun.Level(bound, units);
            for (int k = 0; k < explored.size(); k++) {
                String uat = lat + "explored[" + k + "].";
                UnitResult u = unit(object(explored.get(k), lat + "explored[" + k + "]"), uat, bound, units);
                if (!run.owns(u.index())) {
                    throw new Bad(uat + "index " + u.index() + " belongs to shard " + (u.index() % shardCount));
                }
                if (level.unit(u.index()) != null) {
                    throw new Bad(uat + "index " + u.index() + " appears twice");
                }
                level.put(u);
            }
            run.add(level);
        }
        return new ScenarioPart(strategy, run, true);
    }

    private static UnitResult unit(JsonObject o, String at, int bound, int units) throws Bad {
        int index = (int) number(o, "index", at, 0, units - 1);
        int[] prefix = intArray(field(o, "prefix", at), at + "prefix", MAX_PREFIX);
        long executions = number(o, "executions", at, 0, MAX_COUNT);
        boolean finished = bool(o, "finished", at);
        if (finished && executions == 0) {
            throw new Bad(at + "finished with 0 executions");
        }
        JsonArray oa = array(field(o, "outcomes", at), at + "outcomes");
        Map<String, Long> outcomes = new LinkedHashMap<>();
        for (int i = 0; i < oa.size(); i++) {
            String oat = at + "outcomes[" + i + "].";
            JsonObject x = object(oa.get(i), at + "outcomes[" + i + "]");
            String outcome = string(x, "outcome", oat);
            long first = number(x, "first", oat, 0, executions - 1);
            if (outcomes.put(outcome, first) != null) {
                throw new Bad(oat + "outcome appears twice");
            }
        }
        JsonArray ha = array(field(o, "stepBoundStops", at), at + "stepBoundStops");
        if (ha.size() > executions) {
            throw new Bad(at + "stepBoundStops lists " + ha.size() + " stops in " + executions + " executions");
        }
        long[] hits = new long[ha.size()];
        for (int i = 0; i < hits.length; i++) {
            hits[i] = longValue(ha.get(i), at + "stepBoundStops[" + i + "]", i == 0 ? 0 : hits[i - 1] + 1, executions - 1);
        }
        JsonElement fb = field(o, "firstStepBound", at);
        String firstBound = fb.isJsonNull() ? null : string(o, "firstStepBound", at);
        if ((firstBound == null) != (hits.length == 0)) {
            throw new Bad(at + "firstStepBound must be given exactly when there are stepBoundStops");
        }
        // absent in files written before it existed: such a merge prints no step-bound token
        JsonElement bse = o.get("firstStepBoundSchedule");
        int[] boundSchedule = null;
        if (bse != null && !bse.isJsonNull()) {
            if (firstBound == null) {
                throw new Bad(at + "firstStepBoundSchedule given without a step-bound stop");
            }
            boundSchedule = intArray(bse, at + "firstStepBoundSchedule", Integer.MAX_VALUE);
        }
        JsonElement ve = field(o, "violation", at);
        long violationAt = -1;
        ViolationKind kind = null;
        String message = null;
        String task = null;
        int[] schedule = null;
        if (!ve.isJsonNull()) {
            String vat = at + "violation.";
            JsonObject v = object(ve, at + "violation");
            violationAt = number(v, "execution", vat, 0, executions - 1);
            if (violationAt != executions - 1) {
                throw new Bad(vat + "execution " + violationAt + " is not the unit's last (" + (executions - 1) + ")");
            }
            if (finished) {
                throw new Bad(at + "finished, but stopped at a violation");
            }
            String label = string(v, "kind", vat);
            kind = ViolationKind.fromLabel(label);
            if (kind == null) {
                throw new Bad(vat + "kind '" + label + "' is not a violation kind");
            }
            message = string(v, "message", vat);
            JsonElement te = field(v, "task", vat);
            task = te.isJsonNull() ? null : string(v, "task", vat);
            schedule = intArray(field(v, "schedule", vat), vat + "schedule", Integer.MAX_VALUE);
        }
        return UnitResult.restore(bound, index, prefix, executions, finished, outcomes, hits, firstBound, boundSchedule,
                violationAt,
                kind, message, task, schedule);
    }

    // ---------------------------------------------------------------- typed fields

    private static JsonElement field(JsonObject o, String name, String at) throws Bad {
        JsonElement e = o.get(name);
        if (e == null) {
            throw new Bad(at + name + " is missing");
        }
        return e;
    }

    private static JsonObject object(JsonElement e, String what) throws Bad {
        if (e == null || !e.isJsonObject()) {
            throw new Bad(what + " is not an object");
        }
        return e.getAsJsonObject();
    }

    private static JsonArray array(JsonElement e, String what) throws Bad {
        if (!e.isJsonArray()) {
            throw new Bad(what + " is not an array");
        }
        return e.getAsJsonArray();
    }

    private static String string(JsonObject o, String name, String at) throws Bad {
        JsonElement e = field(o, name, at);
        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString()) {
            throw new Bad(at + name + " is not a string");
        }
        return e.getAsString();
    }

    private static boolean bool(JsonObject o, String name, String at) throws Bad {
        JsonElement e = field(o, name, at);
        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isBoolean()) {
            throw new Bad(at + name + " is not true or false");
        }
        return e.getAsBoolean();
    }

    private static long number(JsonObject o, String name, String at, long min, long max) throws Bad {
        return longValue(field(o, name, at), at + name, min, max);
    }

    /** A whole number in {@code [min, max]}, read without trusting its size. */
    private static long longValue(JsonElement e, String what, long min, long max) throws Bad {
        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber()) {
            throw new Bad(what + " is not a number");
        }
        String text = e.getAsJsonPrimitive().getAsString();
        if (text.length() > 40) {
            throw new Bad(what + " is not a whole number in [" + min + ", " + max + "]");
        }
        long v;
        try {
            BigDecimal d = new BigDecimal(text);
            if (d.scale() > 0 && d.stripTrailingZeros().scale() > 0) {
                throw new Bad(what + " " + text + " is not a whole number");
            }
            if (d.compareTo(BigDecimal.valueOf(min)) < 0 || d.compareTo(BigDecimal.valueOf(max)) > 0) {
                throw new Bad(what + " " + text + " is out of range [" + min + ", " + max + "]");
            }
            v = d.longValueExact();
        } catch (NumberFormatException | ArithmeticException ex) {
            throw new Bad(what + " " + text + " is not a whole number");
        }
        return v;
    }

    private static double seconds(JsonObject o, String name, String at) throws Bad {
        JsonElement e = field(o, name, at);
        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber()) {
            throw new Bad(at + name + " is not a number");
        }
        double d;
        try {
            d = e.getAsDouble();
        } catch (NumberFormatException ex) {
            throw new Bad(at + name + " is not a number");
        }
        if (!(d >= 0 && d < 1e9)) {
            throw new Bad(at + name + " " + e.getAsString() + " is out of range [0, 1e9)");
        }
        return d;
    }

    private static int[] intArray(JsonElement e, String what, int maxLength) throws Bad {
        JsonArray a = array(e, what);
        if (a.size() > maxLength) {
            throw new Bad(what + " has " + a.size() + " entries, at most " + maxLength + " allowed");
        }
        int[] out = new int[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = (int) longValue(a.get(i), what + "[" + i + "]", 0, Integer.MAX_VALUE);
        }
        return out;
    }

    /** Gson's message, without exception class names and its advice about lenient parsing. */
    private static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        int nl = s.indexOf('\n');
        String t = nl < 0 ? s : s.substring(0, nl);
        t = t.replaceAll("(?:[A-Za-z_$][\\w$]*\\.)+[\\w$]*(?:Exception|Error): ", "");
        t = t.replaceAll("Use JsonReader\\.setStrictness\\([^)]*\\) to accept malformed JSON ", "");
        t = t.replaceAll("\\s*See https?://\\S+", "");
        return t.strip();
    }

    /** Reads all of {@code in}, refusing more than {@code max} characters. */
    static String readAll(Reader in, long max) throws IOException, Bad {
        StringBuilder sb = new StringBuilder();
        char[] buf = new char[8192];
        int n;
        while ((n = in.read(buf)) > 0) {
            if (sb.length() + n > max) {
                throw new Bad("larger than " + max + " characters");
            }
            sb.append(buf, 0, n);
        }
        return sb.toString();
    }
}
