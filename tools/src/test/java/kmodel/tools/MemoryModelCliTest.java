package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --memory-model sc|lkmm} on the command line: the result line, the replay token (which
 * carries the model, so {@code replay} needs no option), the JSON, shards and merge, and a bad
 * value refused in one line.
 */
class MemoryModelCliTest {
    private static String tokenOf(CliRun r) {
        for (String l : CliRun.lines(r.out)) {
            if (l.startsWith("replay: ./kmodel replay ")) {
                return l.substring("replay: ./kmodel replay ".length());
            }
        }
        throw new AssertionError("no replay line:\n" + r);
    }

    @Test
    void scIsTheDefaultAndLeavesTheResultLineAsItWas() {
        CliRun sc = CliRun.kmodel("check", "--scenario", "textbook-waitqueue", "--memory-model", "sc");
        CliRun dflt = CliRun.kmodel("check", "--scenario", "textbook-waitqueue");
        assertEquals(0, sc.code, sc::toString);
        assertEquals(CliRun.lines(dflt.out).get(0), CliRun.lines(sc.out).get(0));
        assertTrue(CliRun.lines(sc.out).get(0).endsWith(" [kernel=v5.10.y]"), sc::toString);
    }

    @Test
    void lkmmIsNamedInTheResultLineAndItsTokenReplaysUnderLkmm() {
        CliRun r = CliRun.kmodel("check", "--scenario", "textbook-waitqueue", "--bug", "textbook-check-then-sleep",
                "--memory-model", "lkmm");
        assertEquals(Kmodel.EXIT_VIOLATION, r.code, r::toString);
        String config = "kernel=v5.10.y,memory-model=lkmm,bug=textbook-check-then-sleep";
        assertTrue(CliRun.lines(r.out).get(0).contains(" [" + config + "]: missed-wakeup"), r::toString);
        CliRun replay = CliRun.kmodel("replay", tokenOf(r));
        assertTrue(CliRun.lines(replay.out).get(0).startsWith("scenario textbook-waitqueue, config [" + config + "]"),
                replay::toString);
        assertTrue(replay.out.contains("missed-wakeup"), replay::toString);
    }

    @Test
    void aBadValueIsOneLineAndExitTwo() {
        CliRun r = CliRun.kmodel("check", "--memory-model", "tso", "--scenario", "textbook-waitqueue");
        assertEquals(Kmodel.EXIT_USAGE, r.code, r::toString);
        assertEquals(1, r.errLines().size(), r::toString);
        assertTrue(r.err.contains("'tso'") && r.err.contains("sc or lkmm"), r::toString);
        assertEquals("", r.out, r::toString);
    }

    @Test
    void theJsonAndShardsCarryTheModelAndMergeAsAWholeRun(@TempDir Path dir) throws IOException {
        Path whole = dir.resolve("whole.json");
        CliRun r = CliRun.kmodel("check", "--scenario", "textbook-waitqueue", "--memory-model", "lkmm",
                "--preemptions", "1", "--jobs", "2", "--json", whole.toString());
        assertEquals(0, r.code, r::toString);
        String json = Files.readString(whole);
        assertTrue(json.matches("(?s).*\"configuration\":\\s*\"kernel=v5\\.10\\.y,memory-model=lkmm\".*"), json);
        assertTrue(json.matches("(?s).*\"memoryModel\":\\s*\"lkmm\".*"), json);
        Path s0 = dir.resolve("s0.json");
        Path s1 = dir.resolve("s1.json");
        for (int i = 0; i < 2; i++) {
            CliRun s = CliRun.kmodel("check", "--scenario", "textbook-waitqueue", "--memory-model", "lkmm",
                    "--preemptions", "1", "--shard", i + "/2", "--json", (i == 0 ? s0 : s1).toString());
            assertEquals(0, s.code, s::toString);
        }
        CliRun merged = CliRun.kmodel("merge", s0.toString(), s1.toString());
        assertEquals(0, merged.code, merged::toString);
        assertEquals(CliRun.lines(r.out).get(0), CliRun.lines(merged.out).get(0), merged::toString);
    }

    @Test
    void theFootprintAuditRefusesLkmmInOneLine() {
        CliRun r = CliRun.kmodel("check", "--audit-footprints", "--memory-model", "lkmm", "--scenario", "textbook-waitqueue");
        assertEquals(Kmodel.EXIT_USAGE, r.code, r::toString);
        assertEquals(1, r.errLines().size(), r::toString);
        assertTrue(r.err.contains("--audit-footprints"), r::toString);
    }
}
