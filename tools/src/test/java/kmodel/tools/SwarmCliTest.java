package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code kmodel swarm}, and swarm scenarios by name in {@code check} and {@code replay}, run in-process. */
class SwarmCliTest {
    private static final String REPLAY_PREFIX = "replay: ./kmodel replay ";

    private static final class Run {
        final int code;
        final String out;
        final String err;

        Run(int code, String out, String err) {
            this.code = code;
            this.out = out;
            this.err = err;
        }

        List<String> outLines() {
            List<String> l = new ArrayList<>(Arrays.asList(out.split("\n", -1)));
            l.remove(l.size() - 1);
            return l;
        }

        @Override
        public String toString() {
            return "exit " + code + "\n--- out\n" + out + "--- err\n" + err;
        }
    }

    private static Run kmodel(String... args) {
        CommandLine cmd = Kmodel.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int code = cmd.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void aSwarmRunPrintsOneLinePerRecipeThenASummaryAndATime() {
        Run r = kmodel("swarm", "--seed", "1", "--count", "3", "--world", "page");
        assertEquals(0, r.code, r::toString);
        List<String> l = r.outLines();
        assertEquals(5, l.size(), r::toString);
        for (int i = 0; i < 3; i++) {
            assertTrue(l.get(i).startsWith("PASS #" + i + "  "), r::toString);
            assertTrue(l.get(i).contains(", exhaustive, preemption bound 2 (DPOR)  pages="), r::toString);
        }
        assertTrue(l.get(3).startsWith("3 recipes (seed 1): 3 passed, 0 failed; "), r::toString);
        assertTrue(l.get(4).startsWith("time: "), r::toString);
        assertEquals(r.out.substring(0, r.out.indexOf("time: ")),
                kmodel("swarm", "--seed", "1", "--count", "3", "--world", "page").out.substring(0, r.out.indexOf("time: ")),
                "everything but the time line is deterministic");
    }

    @Test
    void aFailingSwarmRecipePrintsItsRecipeAndATokenThatReplaysTheSameViolation() {
        String recipe = "pages=1 table=2 walk=1 ra=0 cached=0 wb=0 fail=- t0=lock(0),waitwb(0),unlock(0)"
                + " t1=lock(0),unlock(0) irq=endwb(0)";
        Run check = kmodel("check", "--scenario", "swarm:" + recipe, "--bug", "wake-page-match-not-set");
        assertEquals(1, check.code, check::toString);
        assertTrue(check.outLines().get(0).startsWith("FAIL swarm:" + recipe + "  "), check::toString);
        String token = null;
        for (String l : check.outLines()) {
            if (l.startsWith(REPLAY_PREFIX)) {
                token = l.substring(REPLAY_PREFIX.length());
            }
        }
        Run replay = kmodel("replay", token);
        assertEquals(1, replay.code, replay::toString);
        assertTrue(replay.outLines().get(0).startsWith("scenario swarm:" + recipe + ", config ["), replay::toString);
        List<String> l = replay.outLines();
        assertTrue(l.get(l.size() - 1).startsWith("missed-wakeup: "), replay::toString);
    }

    /** The default run draws from every swarm, recipe i from the i-th, cyclically. */
    @Test
    void aDefaultSwarmRunDrawsFromEverySwarm() {
        Run r = kmodel("swarm", "--seed", "1", "--count", "4", "--executions", "20", "--preemptions", "0");
        assertTrue(r.code == 0 || r.code == 4, r::toString);
        List<String> l = r.outLines();
        assertTrue(l.get(0).contains("(DPOR)  pages="), r::toString);
        assertTrue(l.get(1).contains("  uring file="), r::toString);
        assertTrue(l.get(2).contains("  write pages="), r::toString);
        assertTrue(l.get(3).contains("  btrfs prof="), r::toString);
    }

    /** A failing recipe of a subsystem swarm is shrunk with --shrink, and the shrunk one replays. */
    @Test
    void aFailingRecipeIsShrunkWithItsOwnReplayToken() {
        Run r = kmodel("swarm", "--seed", "1", "--count", "1", "--world", "write", "--executions", "1000",
                "--bug", "end-page-writeback-no-wake", "--shrink", "100");
        assertEquals(1, r.code, r::toString);
        String shrunk = null;
        String token = null;
        for (String l : r.outLines()) {
            if (l.startsWith("  shrunk (")) {
                shrunk = l.substring(l.indexOf("): ") + 3);
            }
            if (l.startsWith("  replay shrunk: ./kmodel replay ")) {
                token = l.substring("  replay shrunk: ./kmodel replay ".length());
            }
        }
        assertTrue(shrunk != null && shrunk.startsWith("write "), r::toString);
        Run replay = kmodel("replay", token);
        assertEquals(1, replay.code, replay::toString);
        assertTrue(replay.outLines().get(0).startsWith("scenario swarm:" + shrunk + ", config ["), replay::toString);
    }

    @Test
    void badSwarmInputIsOneLineAndExitTwo() {
        String[][] cases = {
            {"swarm", "--count", "0"},
            {"swarm", "--executions", "0"},
            {"swarm", "--bug", "no-such-bug"},
            {"swarm", "--set", "NO_SUCH=1"},
            {"swarm", "--preemptions", "-1"},
            {"check", "--scenario", "swarm:pages=1 table=1 walk=1 ra=0 cached=0 wb=- fail=- t0=unlock(0)"},
            {"check", "--scenario", "swarm:junk"},
            {"swarm", "--world", "nfs"},
            {"swarm", "--shrink", "-1"},
            {"check", "--scenario", "swarm:uring junk"},
            {"check", "--scenario", "swarm:write pages=1 ra=0 clean=- dirty=- wb=- pin=- t0=write(0) t1=write(0)"},
            {"check", "--scenario", "swarm:btrfs prof=single layout=c ra=0 bad1=- bad2=- rp=3 allocfail=0 maps=0 t0=read(0)"},
        };
        for (String[] args : cases) {
            Run r = kmodel(args);
            assertEquals(2, r.code, () -> String.join(" ", args) + ": " + r);
            assertTrue(r.err.startsWith("kmodel: "), r::toString);
            assertTrue(r.err.split("\n").length <= 2, r::toString);
            assertEquals("", r.out, r::toString);
        }
        assertTrue(kmodel("check", "--scenario", "swarm:junk").err.startsWith("kmodel: --scenario: swarm recipe: "));
    }
}
