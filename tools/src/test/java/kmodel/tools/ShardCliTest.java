package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code check --jobs}, {@code --shard I/N --json FILE} and {@code merge}, run in-process: the
 * output does not depend on the jobs, shards merge into the single run's output (every line but
 * {@code time:}), and inputs that do not fit are one-line errors with exit 2.
 */
class ShardCliTest {
    @TempDir
    Path dir;

    static final class Run {
        final int code;
        final String out;
        final String err;

        Run(int code, String out, String err) {
            this.code = code;
            this.out = out;
            this.err = err;
        }

        /** Everything but the time line, which is the only one that differs between runs. */
        String untimed() {
            StringBuilder sb = new StringBuilder();
            for (String l : out.split("\n", -1)) {
                if (!l.startsWith("time:")) {
                    sb.append(l).append('\n');
                }
            }
            return sb.toString();
        }

        @Override
        public String toString() {
            return "exit " + code + "\n--- out\n" + out + "--- err\n" + err;
        }
    }

    static Run kmodel(String... args) {
        CommandLine cmd = Kmodel.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int code = cmd.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static final String[] LOST_WAKEUP_AND_ASYNC = {"check", "--scenario", "textbook-waitqueue", "--scenario",
        "async-page-lock", "--scenario", "dio-split-clones", "--bug", "textbook-check-then-sleep"};
    private static final String[] CLEAN = {"check", "--scenario", "async-page-lock", "--scenario", "dio-split-clones",
        "--scenario", "textbook-refcount"};

    @Test
    void checkPrintsTheSameOnOneOrThreeJobs() {
        for (String[] args : List.of(LOST_WAKEUP_AND_ASYNC, CLEAN)) {
            Run one = kmodel(concat(args, "--jobs", "1"));
            Run three = kmodel(concat(args, "--jobs", "3"));
            assertEquals(one.code, three.code, three::toString);
            assertEquals(one.untimed(), three.untimed());
        }
    }

    /** Shards of N = 3, merged in any order, print what the single run prints. */
    List<Path> shards(String[] args, int n) {
        List<Path> files = new ArrayList<>();
        for (int i = n - 1; i >= 0; i--) {
            Path f = dir.resolve("shard-" + i + ".json");
            Run r = kmodel(concat(args, "--shard", i + "/" + n, "--json", f.toString(), "--jobs", "2"));
            assertEquals(0, r.code, r::toString);
            assertTrue(r.out.contains("written to " + f), r::toString);
            files.add(f);
        }
        return files;
    }

    /** {@code merge FILE...} over {@code files}. */
    private static String[] mergeArgs(List<Path> files) {
        List<String> merge = new ArrayList<>(List.of("merge"));
        for (Path f : files) {
            merge.add(f.toString());
        }
        return merge.toArray(new String[0]);
    }

    /**
     * With the default {@code --strategy auto}, {@code --shard} runs the exhaustive part alone (the
     * portfolio's samplers are not sharded), so the single run to compare is {@code --strategy
     * exhaustive}'s.
     */
    @Test
    void threeShardsMergeIntoTheSingleRunsReport() {
        for (String[] args : List.of(concat(LOST_WAKEUP_AND_ASYNC, "--strategy", "exhaustive"),
                concat(CLEAN, "--strategy", "exhaustive"),
                new String[] {"check", "--scenario", "dio-split-clones", "--preemptions", "unbounded"})) {
            Run single = kmodel(args);
            Run merged = kmodel(mergeArgs(shards(args, 3)));
            assertEquals(single.code, merged.code, merged::toString);
            assertEquals(single.untimed(), merged.untimed());
        }
    }

    /**
     * A scenario with step-bound stops (the demonstration {@code textbook-pollers} at bound 0,
     * where both executions stop there; at bound 1 a preemption can fall at any of the 20,000
     * steps, and the search takes minutes): the merge prints the first stop and its replay token,
     * as the single run does, from the schedule the shard's JSON keeps.
     */
    @Test
    void shardsWithStepBoundStopsMergeIntoTheSingleRunsReportAndToken() throws IOException {
        String[] args = {"check", "--scenario", "textbook-pollers", "--preemptions", "0"};
        Run single = kmodel(args);
        assertEquals(4, single.code, single::toString);
        Path whole = dir.resolve("whole.json");
        assertEquals(4, kmodel(concat(args, "--json", whole.toString())).code);
        JsonObject result = JsonParser.parseString(Files.readString(whole)).getAsJsonObject()
                .getAsJsonArray("scenarios").get(0).getAsJsonObject().getAsJsonObject("result");
        assertEquals("BOUND", result.get("verdict").getAsString());
        assertTrue(single.out.contains("\n  replay (the first execution stopped there): ./kmodel replay "
                + result.get("stepBoundToken").getAsString() + "\n"), single::toString);
        List<Path> files = shards(args, 3);
        Run merged = kmodel(mergeArgs(files));
        assertEquals(single.code, merged.code, merged::toString);
        assertEquals(single.untimed(), merged.untimed());

        // kept schedules cut short do not stop at the step bound again: refused, not printed
        int cut = 0;
        for (int i = 0; i < files.size(); i++) {
            JsonObject root = JsonParser.parseString(Files.readString(files.get(i))).getAsJsonObject();
            for (var level : root.getAsJsonArray("scenarios").get(0).getAsJsonObject().getAsJsonArray("levels")) {
                for (var unit : level.getAsJsonObject().getAsJsonArray("explored")) {
                    JsonObject u = unit.getAsJsonObject();
                    if (!u.get("firstStepBoundSchedule").isJsonNull()) {
                        var kept = u.getAsJsonArray("firstStepBoundSchedule");
                        var half = new com.google.gson.JsonArray();
                        for (int k = 0; k < kept.size() / 2; k++) {
                            half.add(kept.get(k));
                        }
                        u.add("firstStepBoundSchedule", half);
                        cut++;
                    }
                }
            }
            Files.writeString(files.get(i), root.toString(), StandardCharsets.UTF_8);
        }
        assertTrue(cut > 0, "the shards kept their step-bound stops' schedules");
        assertOneLine(kmodel(mergeArgs(files)), "textbook-pollers", "does not replay");
    }

    @Test
    void jsonHoldsTheResultsOfAWholeRunAndMergesAlone() throws IOException {
        Path f = dir.resolve("run.json");
        // the exhaustive search's record merges alone; the default portfolio's sampled part does not (below)
        Run single = kmodel(concat(LOST_WAKEUP_AND_ASYNC, "--strategy", "exhaustive", "--json", f.toString()));
        assertEquals(1, single.code, single::toString);
        JsonObject root = JsonParser.parseString(Files.readString(f)).getAsJsonObject();
        JsonObject first = root.getAsJsonArray("scenarios").get(0).getAsJsonObject();
        assertEquals("textbook-waitqueue", first.get("scenario").getAsString());
        JsonObject result = first.getAsJsonObject("result");
        assertEquals("FAIL", result.get("verdict").getAsString());
        assertEquals("auto", first.get("preemptions").getAsString());
        assertEquals("unbounded", result.get("bound").getAsString()); // found by the unbounded phase: not complete
        assertEquals("missed-wakeup", result.getAsJsonObject("violation").get("kind").getAsString());
        assertTrue(single.out.contains("replay: ./kmodel replay " + result.get("token").getAsString()));
        assertTrue(first.getAsJsonArray("levels").size() == 1, "the unbounded level only");
        Run merged = kmodel("merge", f.toString());
        assertEquals(single.untimed(), merged.untimed());

        // the default (--strategy auto): where the unbounded phase decides, the record is the
        // exhaustive search's; where the samplers ran, it says auto, and merge refuses it in one line
        Path g = dir.resolve("auto.json");
        Run auto = kmodel(concat(LOST_WAKEUP_AND_ASYNC, "--json", g.toString()));
        assertEquals(1, auto.code, auto::toString);
        com.google.gson.JsonArray parts = JsonParser.parseString(Files.readString(g)).getAsJsonObject()
                .getAsJsonArray("scenarios");
        assertEquals("exhaustive", parts.get(0).getAsJsonObject().get("strategy").getAsString());
        assertEquals("auto", parts.get(1).getAsJsonObject().get("strategy").getAsString());
        assertTrue(parts.get(1).getAsJsonObject().getAsJsonObject("result").get("search").getAsString()
                .contains("sampled, no violation (no proof)"), auto::toString);
        assertOneLine(kmodel("merge", g.toString()), "async-page-lock", "auto");
    }

    private static void assertOneLine(Run r, String... mentions) {
        assertEquals(2, r.code, r::toString);
        assertEquals("", r.out, r::toString);
        // One line: one line break, at the end, and nothing after it.
        List<String> err = CliRun.lines(r.err);
        assertEquals(1, err.size(), () -> "exactly one line on stderr: " + r);
        assertTrue(r.err.endsWith("\n") && r.err.indexOf('\n') == r.err.length() - 1 && !r.err.contains("\r"),
                r::toString);
        assertTrue(err.get(0).startsWith("kmodel: "), r::toString);
        for (String m : mentions) {
            assertTrue(err.get(0).contains(m), () -> "names '" + m + "': " + r);
        }
        assertFalse(r.err.contains("\tat ") || r.err.contains("Exception"), r::toString);
    }

    /** The helper itself: a second line, even an empty one or one after a carriage return, is not one line. */
    @Test
    void assertOneLineMeansExactlyOneLine() {
        assertOneLine(new Run(2, "", "kmodel: bad --jobs\n"), "--jobs");
        for (String twoLines : List.of("kmodel: bad --jobs\n(try: kmodel check --help)\n", "kmodel: bad --jobs\n\n",
                "kmodel: bad --jobs\r\nmore\n", "kmodel: bad --jobs", "kmodel: bad\n--jobs\n")) {
            org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
                    () -> assertOneLine(new Run(2, "", twoLines), "--jobs"), CliOracle.quote(twoLines));
        }
    }

    @Test
    void badShardsAndJobsAreOneLineErrors() throws IOException {
        assertOneLine(kmodel("check", "--jobs", "0"), "--jobs");
        assertOneLine(kmodel("check", "--shard", "3/3", "--json", dir.resolve("x").toString()), "--shard");
        assertOneLine(kmodel("check", "--shard", "a/b", "--json", dir.resolve("x").toString()), "--shard");
        assertOneLine(kmodel("check", "--shard", "0/2"), "--json");
        assertOneLine(kmodel("check", "--strategy", "pct", "--shard", "0/2", "--json", dir.resolve("x").toString()),
                "exhaustive");
        assertOneLine(kmodel("check", "--time-budget", "5m", "--shard", "0/2", "--json", dir.resolve("x").toString()),
                "--shard", "--time-budget");
        String[] args = {"check", "--scenario", "textbook-waitqueue"};
        List<Path> files = shards(args, 3);
        Path s2 = files.get(0);
        Path s1 = files.get(1);
        Path s0 = files.get(2);
        assertOneLine(kmodel("merge", s0.toString(), s1.toString()), "shard 2/3", "missing");
        assertOneLine(kmodel("merge", s0.toString(), s1.toString(), s2.toString(), s1.toString()), s1.toString(), "twice");
        Path other = dir.resolve("other.json");
        assertEquals(0, kmodel("check", "--scenario", "textbook-waitqueue", "--preemptions", "1", "--shard", "1/3",
                "--json", other.toString()).code);
        assertOneLine(kmodel("merge", s0.toString(), other.toString(), s2.toString()), other.toString(), "preemptions");
        Path notJson = dir.resolve("bad.json");
        Files.writeString(notJson, "{\"format\": \"kmodel-check\", ", StandardCharsets.UTF_8);
        assertOneLine(kmodel("merge", notJson.toString()), notJson.toString(), "bad JSON");
        assertOneLine(kmodel("merge", dir.resolve("absent.json").toString()), "absent.json", "cannot read");
        String text = Files.readString(s0);
        Path lies = dir.resolve("lies.json");
        Files.writeString(lies, text.replaceFirst("\"units\": (\\d+)", "\"units\": 999999"), StandardCharsets.UTF_8);
        assertOneLine(kmodel("merge", lies.toString(), s1.toString(), s2.toString()), lies.toString(), "units");
        Files.writeString(lies, text.replaceFirst("\"budget\": (\\d+)", "\"budget\": 1e400"), StandardCharsets.UTF_8);
        assertOneLine(kmodel("merge", lies.toString(), s1.toString(), s2.toString()), lies.toString(), "budget");
    }
}
