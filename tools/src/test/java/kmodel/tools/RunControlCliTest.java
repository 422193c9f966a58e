package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.base.Ticker;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code check --time-budget} and {@code --progress}, run in-process with a fake clock that moves
 * ten milliseconds forward per reading, so that the cut and the progress reports are deterministic.
 */
class RunControlCliTest {
    private static final String ERASE = "\r\u001b[K";

    /** A ticker that moves ten milliseconds forward each time it is read. */
    private static final class SteppingTicker extends Ticker {
        private long now;

        @Override
        public long read() {
            return now += 10_000_000L;
        }
    }

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
            return Arrays.asList(out.split("\n"));
        }

        @Override
        public String toString() {
            return "exit " + code + "\n--- out\n" + out + "--- err\n" + err;
        }
    }

    /** Runs kmodel with a fake clock in {@code check}. */
    private static Run kmodel(String... args) {
        Ticker ticker = new SteppingTicker();
        CommandLine.IFactory factory = new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> cls) throws Exception {
                K k = CommandLine.defaultFactory().create(cls);
                if (k instanceof CheckCommand) {
                    ((CheckCommand) k).ticker = ticker;
                }
                return k;
            }
        };
        CommandLine cmd = Kmodel.commandLine(factory, false);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int code = cmd.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void theTimeBudgetCutsTheScenarioUnderWayAndLeavesTheRestUnstarted() {
        Run r = kmodel("check", "--scenario", "textbook-waitqueue", "--scenario", "textbook-refcount",
                "--preemptions", "3", "--time-budget", "500ms", "--no-progress");
        assertEquals(Kmodel.EXIT_INCONCLUSIVE, r.code, r::toString);
        List<String> lines = r.outLines();
        assertTrue(lines.get(0).matches("INCOMPLETE textbook-waitqueue  [1-9]\\d* executions, \\d+ outcomes?, exhaustive, "
                + "preemption bound \\d \\(DPOR\\) \\(time budget reached, not exhaustive; .*\\) \\[kernel=v5\\.10\\.y\\]"), lines.get(0));
        assertEquals("INCOMPLETE textbook-refcount  0 executions, 0 outcomes, exhaustive, preemption bound 0 (DPOR) "
                + "(time budget reached, not exhaustive) [kernel=v5.10.y]", lines.get(1));
        assertTrue(lines.get(2).startsWith("2 scenarios: 0 passed, 0 failed, 2 incomplete; "), lines.get(2));
        assertEquals("", r.err);
    }

    @Test
    void aBudgetLongEnoughChangesNoLineButTheTime() {
        Run plain = kmodel("check", "--scenario", "textbook-refcount", "--no-progress");
        Run budgeted = kmodel("check", "--scenario", "textbook-refcount", "--time-budget", "1h", "--no-progress");
        assertEquals(0, budgeted.code, budgeted::toString);
        assertEquals(plain.outLines().subList(0, 2), budgeted.outLines().subList(0, 2));
    }

    @Test
    void badTimeBudgetsAreOneLineErrors() {
        for (String bad : new String[] {"x", "10", "0s", "-5s", "5 s", "1.5h", "999999999d", "30sec", "",
            "99999999999999999999h"}) {
            Run r = kmodel("check", "--time-budget", bad);
            assertEquals(Kmodel.EXIT_USAGE, r.code, bad + ": " + r);
            String first = r.err.split("\n")[0];
            assertTrue(first.startsWith("kmodel: Invalid value for option '--time-budget': expected a duration"),
                    bad + ": " + first);
            assertFalse(r.err.contains("Exception"), r.err);
            assertEquals("", r.out);
        }
    }

    @Test
    void durationsAddTheirParts() {
        assertEquals(Duration.ofSeconds(30), DurationConverter.parse("30s"));
        assertEquals(Duration.ofMinutes(90), DurationConverter.parse("1h30m"));
        assertEquals(Duration.ofMillis(1500), DurationConverter.parse("1s500ms"));
        assertEquals(Duration.ofDays(2), DurationConverter.parse("2d"));
    }

    @Test
    void theProgressLineIsRewrittenOnStderrAndErasedBeforeTheResult() {
        Run shown = kmodel("check", "--scenario", "textbook-waitqueue", "--progress");
        Run silent = kmodel("check", "--scenario", "textbook-waitqueue", "--no-progress");
        assertEquals(0, shown.code, shown::toString);
        assertEquals(silent.outLines().subList(0, 2), shown.outLines().subList(0, 2), "stdout is the same");
        assertEquals("", silent.err);
        assertFalse(shown.err.contains("\n"), "one line, rewritten in place");
        assertTrue(shown.err.endsWith(ERASE), () -> "erased at the end: " + shown.err.substring(Math.max(0, shown.err.length() - 200)));
        String[] frames = shown.err.split("\r\u001b\\[K", -1);
        assertTrue(frames.length > 3, frames.length + " frames");
        for (int i = 1; i < frames.length - 1; i++) {
            assertTrue(frames[i].matches("\\[1/1\\] textbook-waitqueue  [\\d,]+ executions  [\\d,]+/s  \\d+:\\d\\d  "
                    + "(bound \\d|unbounded), dpor  ~\\d+%"), frames[i]);
            assertTrue(frames[i].length() < 80, "fits an 80-column terminal: " + frames[i]);
        }
    }

    @Test
    void theProgressLineFollowsWhatTheLauncherSaysOfStderr() {
        String before = System.getProperty("kmodel.stderr.tty");
        try {
            System.setProperty("kmodel.stderr.tty", "false");
            assertFalse(ProgressLine.stderrIsTerminal());
            System.setProperty("kmodel.stderr.tty", "true");
            assertTrue(ProgressLine.stderrIsTerminal());
        } finally {
            if (before == null) {
                System.clearProperty("kmodel.stderr.tty");
            } else {
                System.setProperty("kmodel.stderr.tty", before);
            }
        }
    }
}
