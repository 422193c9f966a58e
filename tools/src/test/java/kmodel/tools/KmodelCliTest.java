package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import kmodel.kernel.KconfigOption;
import kmodel.verification.KconfigTable;
import kmodel.verification.world.Scenario;
import kmodel.verification.ScenarioRegistry;
import kmodel.verification.catalog.BugCatalog;
import kmodel.verification.catalog.CatalogBug;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Runs the command line in-process, as {@code ./kmodel} would, and checks exit codes and output. */
class KmodelCliTest {
    private static final String REPLAY_PREFIX = "replay: ./kmodel replay ";

    /** One in-process run of the CLI. */
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
            return lines(out);
        }

        List<String> errLines() {
            return lines(err);
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

    /** The lines of {@code s}, without the empty string after a final newline. */
    private static List<String> lines(String s) {
        List<String> l = new ArrayList<>(Arrays.asList(s.split("\n", -1)));
        if (!l.isEmpty() && l.get(l.size() - 1).isEmpty()) {
            l.remove(l.size() - 1);
        }
        return l;
    }

    private static Run lostWakeup() {
        return kmodel("check", "--scenario", "textbook-waitqueue", "--bug", "textbook-check-then-sleep");
    }

    private static String tokenOf(Run r) {
        for (String l : r.outLines()) {
            if (l.startsWith(REPLAY_PREFIX)) {
                return l.substring(REPLAY_PREFIX.length());
            }
        }
        throw new AssertionError("no replay line in\n" + r);
    }

    /** The diagram of a failed check: the lines between the violation summary and the replay line. */
    private static List<String> checkDiagram(Run r) {
        List<String> l = r.outLines();
        int from = -1;
        int to = -1;
        for (int i = 0; i < l.size(); i++) {
            if (l.get(i).startsWith("missed-wakeup: ") && from < 0) {
                from = i + 1;
            }
            if (l.get(i).startsWith(REPLAY_PREFIX)) {
                to = i;
            }
        }
        assertTrue(from > 0 && to > from, r::toString);
        return l.subList(from, to);
    }

    private static void assertOneLineUsageError(Run r, String mentions) {
        assertEquals(2, r.code, r::toString);
        assertEquals("", r.out, r::toString);
        List<String> err = r.errLines();
        assertEquals(1, err.size(), () -> "exactly one line:\n" + r);
        assertTrue(err.get(0).startsWith("kmodel: "), r::toString);
        assertTrue(err.get(0).contains(mentions), () -> "the error names '" + mentions + "':\n" + r);
        assertFalse(r.err.contains("\tat ") || r.err.contains("Exception"), () -> "no stack trace:\n" + r);
    }

    @Test
    void anUnboundedCheckWithReductionSaysCompleteAndPlainDfsIsSelectable() {
        Run r = kmodel("check", "--scenario", "textbook-waitqueue", "--preemptions", "unbounded");
        assertEquals(0, r.code, r::toString);
        assertTrue(r.outLines().get(0).startsWith("PASS textbook-waitqueue"), r::toString);
        assertTrue(r.outLines().get(0).contains("complete (optimal DPOR with wakeup trees)"), r::toString);
        Run plain = kmodel("check", "--scenario", "textbook-waitqueue", "--preemptions", "unbounded",
                "--reduction", "none", "--executions", "50");
        assertTrue(plain.outLines().get(0).contains("unbounded (plain DFS, no reduction)"), plain::toString);
        assertNotEquals(0, plain.code, "a budget-cut search is not a pass: " + plain);
        Run bug = kmodel("check", "--scenario", "textbook-waitqueue", "--preemptions", "unbounded",
                "--bug", "textbook-check-then-sleep");
        assertEquals(1, bug.code, bug::toString);
        assertTrue(bug.out.contains("missed-wakeup: "), bug::toString);
        assertOneLineUsageError(kmodel("check", "--strategy", "random", "--reduction", "dpor"), "--reduction");
        assertOneLineUsageError(kmodel("check", "--preemptions", "unbounded", "--reduction", "sleepsets"), "--reduction");
        assertOneLineUsageError(kmodel("check", "--preemptions", "forever"), "--preemptions");
    }

    @Test
    void theDefaultIsCompleteWhereTheReducedSearchFinishesAndBound3Elsewhere() {
        Run r = kmodel("check", "--scenario", "textbook-waitqueue", "--scenario", "async-page-lock");
        assertEquals(0, r.code, r::toString);
        assertTrue(r.outLines().get(0).startsWith("PASS textbook-waitqueue ")
                && r.outLines().get(0).contains("complete (optimal DPOR with wakeup trees)"), r::toString);
        assertTrue(r.outLines().get(1).startsWith("PASS async-page-lock ") && r.outLines().get(1).contains(
                "preemption bound 3 (DPOR); unbounded search not finished in 20,000 executions"), r::toString);
        Run plain = kmodel("check", "--scenario", "textbook-waitqueue", "--preemptions", "2", "--reduction", "none");
        assertTrue(plain.outLines().get(0).endsWith("exhaustive, preemption bound 2 [kernel=v5.10.y]"), plain::toString);
        Run reduced = kmodel("check", "--scenario", "textbook-waitqueue", "--preemptions", "2");
        assertTrue(reduced.outLines().get(0).contains("exhaustive, preemption bound 2 (DPOR)"), reduced::toString);
    }

    @Test
    void checkWithTheCheckThenSleepBugExitsOneAndPrintsTheMissedWakeup() {
        Run r = lostWakeup();
        assertEquals(1, r.code, r::toString);
        List<String> l = r.outLines();
        assertTrue(l.get(0).startsWith("FAIL textbook-waitqueue"), r::toString);
        assertTrue(l.get(1).startsWith("missed-wakeup: "), "the violation summary follows the FAIL line:\n" + r);
        assertTrue(r.out.contains("\n" + REPLAY_PREFIX + "km1."), r::toString);
        assertTrue(l.get(l.size() - 2).startsWith("1 scenario: 0 passed, 1 failed; "), r::toString);
        assertTrue(l.get(l.size() - 1).startsWith("time: "), r::toString);
        assertEquals("", r.err);
    }

    @Test
    void replayingTheTokenExitsOneAndPrintsTheIdenticalDiagram() {
        Run check = lostWakeup();
        Run replay = kmodel("replay", tokenOf(check));
        assertEquals(1, replay.code, replay::toString);
        List<String> l = replay.outLines();
        assertTrue(l.get(0).startsWith("scenario textbook-waitqueue, config [kernel=v5.10.y,bug=textbook-check-then-sleep]"),
                replay::toString);
        assertEquals(checkDiagram(check), l.subList(1, l.size() - 1));
        assertTrue(l.get(l.size() - 1).startsWith("missed-wakeup: "), replay::toString);
        assertEquals(replay.out, kmodel("replay", tokenOf(check)).out, "replay is byte for byte repeatable");
    }

    @Test
    void verboseReplayDrawsEverySchedulingPoint() {
        String token = tokenOf(lostWakeup());
        Run brief = kmodel("replay", token);
        Run verbose = kmodel("replay", "--verbose", token);
        assertEquals(1, verbose.code, verbose::toString);
        assertTrue(verbose.outLines().size() > brief.outLines().size(), verbose::toString);
    }

    @Test
    void aCorruptedTokenIsOneLineAndExitTwo() {
        String token = tokenOf(lostWakeup());
        int dot = token.lastIndexOf('.');
        char c = token.charAt(dot + 1);
        String damaged = token.substring(0, dot + 1) + (c == '0' ? '1' : '0') + token.substring(dot + 2);
        Run r = kmodel("replay", damaged);
        assertOneLineUsageError(r, "checksum");
        assertEquals(1, r.errLines().size(), r::toString);

        Run truncated = kmodel("replay", token.substring(0, token.length() / 2));
        assertOneLineUsageError(truncated, "replay token");
        assertEquals(1, truncated.errLines().size(), truncated::toString);

        Run garbage = kmodel("replay", "garbage");
        assertOneLineUsageError(garbage, "malformed replay token");
        assertEquals(1, garbage.errLines().size(), garbage::toString);
    }

    /** {@code -Dkmodel.long=true}: the whole default scenario set through the command line at bound 2, not 1. */
    private static final boolean LONG = Boolean.getBoolean("kmodel.long");

    @Test
    void checkPassesEveryScenarioAtBound1AndExitsZero() {
        // The default (--preemptions auto, bound 3 where unbounded does not finish) is CI's
        // `./kmodel check`. Bound 1 keeps this test of the command line's lines and exit code to
        // seconds; that every scenario passes at bound 2 (or its own lower bound) is
        // BugCatalogModelCheck's. Bound 2 here (-Dkmodel.long=true) took 414 s of the build at load
        // average 6 to 10 (uring-random-reads alone is 565,038 executions at bound 2); bound 1, 8 s.
        Run r = kmodel("check", "--preemptions", LONG ? "2" : "1");
        assertEquals(0, r.code, r::toString);
        List<Scenario<?>> all = ScenarioRegistry.standard().all();
        List<String> l = r.outLines();
        for (int i = 0; i < all.size(); i++) {
            assertTrue(l.get(i).startsWith("PASS " + all.get(i).name() + " "), r::toString);
        }
        assertTrue(l.get(all.size()).startsWith(all.size() + " scenarios: " + all.size() + " passed, 0 failed; "),
                r::toString);
        assertTrue(l.get(l.size() - 1).startsWith("time: "), r::toString);
    }

    @Test
    void aCheckCutByTheExecutionBudgetIsIncompleteNotPassAndExitsFour() {
        Run r = kmodel("check", "--scenario", "textbook-waitqueue", "--executions", "10");
        assertEquals(4, r.code, r::toString);
        List<String> l = r.outLines();
        assertTrue(l.get(0).startsWith("INCOMPLETE textbook-waitqueue  10 executions, "), r::toString);
        assertTrue(l.get(0).endsWith("(budget reached, not exhaustive) [kernel=v5.10.y]"), r::toString);
        assertEquals("1 scenario: 0 passed, 0 failed, 1 incomplete; 10 executions", l.get(1), r::toString);
        assertTrue(l.get(2).startsWith("time: "), r::toString);
        assertEquals("", r.err);
    }

    @Test
    void aCheckThatHitsTheStepBoundIsBoundNotPassAndExitsFour() {
        Run r = kmodel("check", "--scenario", "textbook-waitqueue", "--preemptions", "0", "--steps", "5");
        assertEquals(4, r.code, r::toString);
        List<String> l = r.outLines();
        assertTrue(l.get(0).startsWith("BOUND textbook-waitqueue  "), r::toString);
        assertTrue(l.get(0).contains("executions stopped at the step bound)"), r::toString);
        assertTrue(l.get(1).startsWith("  step bound: "), r::toString);
        assertTrue(l.get(1).contains("was still running after 5 scheduling points"), r::toString);
        assertTrue(l.get(2).startsWith("1 scenario: 0 passed, 0 failed, 1 stopped at the step bound; "), r::toString);
        assertEquals("", r.err);
    }

    /**
     * With the default step bound, a BOUND scenario also prints a replay token of its first
     * stopped execution, and replaying it shows the run stopping at the bound. The scenario:
     * the demonstration textbook-pollers (two pollers waiting for each other) at bound 0.
     */
    @Test
    void aStepBoundStopAtTheDefaultStepBoundIsReplayable() {
        Run r = kmodel("check", "--scenario", "textbook-pollers", "--preemptions", "0");
        assertEquals(4, r.code, r::toString);
        List<String> l = r.outLines();
        assertTrue(l.get(0).startsWith("BOUND textbook-pollers  2 executions"), r::toString);
        assertTrue(l.get(1).startsWith("  step bound: "), r::toString);
        assertTrue(l.get(1).contains(" was still running after 20000 scheduling points"), r::toString);
        String prefix = "  replay (the first execution stopped there): ./kmodel replay ";
        assertTrue(l.get(2).startsWith(prefix), r::toString);
        Run replay = kmodel("replay", l.get(2).substring(prefix.length()));
        assertEquals(0, replay.code, replay::toString);
        assertTrue(replay.out.contains("no violation; the run stopped at the step bound: "), replay::toString);
        assertTrue(replay.out.contains(" was still running after 20000 scheduling points"), replay::toString);
    }

    @Test
    void aViolationOutranksAnIncompleteScenarioInTheExitCode() {
        Run r = kmodel("check", "--scenario", "textbook-waitqueue", "--scenario", "textbook-refcount",
                "--bug", "textbook-double-put", "--executions", "3");
        assertEquals(1, r.code, r::toString);
        assertTrue(r.out.startsWith("INCOMPLETE textbook-waitqueue  3 executions"), r::toString);
        assertTrue(r.out.contains("\nFAIL textbook-refcount  1 execution"), r::toString);
        assertTrue(r.out.contains("\n2 scenarios: 0 passed, 1 failed, 1 incomplete; 4 executions\n"), r::toString);
    }

    /**
     * The default search twice on a scenario it finishes unbounded and one where it falls back to
     * bound 3: {@code async-page-lock} (37,575 executions) by default;
     * {@code read-same-page-waitq} (166,972 executions; the test took 31.7 s with it, 20.9 s
     * without, load average 3 to 5) with {@code -Dkmodel.long=true}.
     */
    @Tag("full") // about 20 s: two whole default checks
    @Test
    void checkTwicePrintsIdenticalOutputApartFromTheTimeLine() {
        String fallsBack = LONG ? "read-same-page-waitq" : "async-page-lock";
        Run a = kmodel("check", "--scenario", "textbook-waitqueue", "--scenario", fallsBack);
        Run b = kmodel("check", "--scenario", "textbook-waitqueue", "--scenario", fallsBack);
        assertTrue(a.out.contains("unbounded search not finished"), a::toString);
        assertEquals(withoutTime(a), withoutTime(b));
        Run c = kmodel("check", "--strategy", "random", "--seed", "7", "--executions", "300");
        Run d = kmodel("check", "--strategy", "random", "--seed", "7", "--executions", "300");
        assertEquals(withoutTime(c), withoutTime(d));
        assertEquals(0, c.code, c::toString);
    }

    private static List<String> withoutTime(Run r) {
        List<String> kept = new ArrayList<>();
        for (String l : r.outLines()) {
            if (!l.startsWith("time:")) {
                kept.add(l);
            }
        }
        assertFalse(kept.isEmpty(), r::toString);
        return kept;
    }

    @Test
    void pctFindsTheLostWakeupToo() {
        Run r = kmodel("check", "--scenario", "textbook-waitqueue", "--bug", "textbook-check-then-sleep",
                "--strategy", "pct", "--depth", "2", "--seed", "3", "--executions", "5000");
        assertEquals(1, r.code, r::toString);
        assertTrue(r.out.contains("missed-wakeup"), r::toString);
    }

    @Test
    void bugsListsEveryCatalogEntryWithOriginScenarioAndKind() {
        Run r = kmodel("bugs");
        assertEquals(0, r.code, r::toString);
        assertTrue(r.outLines().get(0).matches("ID +ORIGIN +SCENARIO +KIND"), r::toString);
        for (CatalogBug b : BugCatalog.all()) {
            String row = null;
            for (String l : r.outLines()) {
                if (l.startsWith(b.id() + " ")) {
                    row = l;
                }
            }
            assertTrue(row != null, () -> b.id() + " is listed:\n" + r);
            assertTrue(row.contains(b.origin()) && row.contains(b.scenario()) && row.endsWith(b.kind().label()), row);
        }
    }

    @Test
    void bugsListsTheBarrierBugsInATableOfTheirOwnAfterTheOthers() {
        Run r = kmodel("bugs");
        assertEquals(0, r.code, r::toString);
        List<String> lines = r.outLines();
        int heading = lines.indexOf("Barrier bugs: found only under the LKMM (--memory-model lkmm), not under sequential consistency:");
        assertTrue(heading > 0, r::toString);
        assertTrue(lines.get(heading + 1).matches("ID +ORIGIN +SCENARIO +KIND"), r::toString);
        for (CatalogBug b : BugCatalog.barrierBugs()) {
            int at = -1;
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).startsWith(b.id() + " ")) {
                    at = i;
                }
            }
            assertTrue(at > heading + 1, () -> b.id() + " is listed under the heading:\n" + r);
            String row = lines.get(at);
            assertTrue(row.contains(b.origin()) && row.contains(b.scenario()) && row.endsWith(b.kind().label()), row);
        }
    }

    @Test
    void scenariosListsEveryScenarioWithItsDescription() {
        Run r = kmodel("scenarios");
        assertEquals(0, r.code, r::toString);
        for (Scenario<?> s : ScenarioRegistry.standard().all()) {
            assertTrue(r.out.contains(s.name()) && r.out.contains(s.description()), r::toString);
        }
    }

    @Test
    void optionsListsEveryKconfigOption() {
        Run r = kmodel("options");
        assertEquals(0, r.code, r::toString);
        for (KconfigOption o : KconfigTable.options()) {
            assertTrue(r.out.contains("\n" + o.name() + " "), () -> o.name() + " is listed:\n" + r);
        }
    }

    @Test
    void anUnknownSetOptionIsOneLineAndExitTwo() {
        Run r = kmodel("check", "--set", "FOO=1");
        assertOneLineUsageError(r, "FOO");
        assertEquals(1, r.errLines().size(), r::toString);
    }

    @Test
    void badValuesAndNamesAreUsageErrors() {
        assertOneLineUsageError(kmodel("check", "--set", "WAITQUEUE_WALK_BREAK_CNT=abc"), "WAITQUEUE_WALK_BREAK_CNT");
        assertOneLineUsageError(kmodel("check", "--set", "novalue"), "NAME=VALUE");
        assertOneLineUsageError(kmodel("check", "--bug", "no-such-bug"), "no-such-bug");
        assertOneLineUsageError(kmodel("check", "--scenario", "no-such-scenario"), "no-such-scenario");
        assertOneLineUsageError(kmodel("check", "--preemptions", "two"), "--preemptions");
        assertOneLineUsageError(kmodel("check", "--preemptions", "-1"), "--preemptions");
        assertOneLineUsageError(kmodel("check", "--executions", "0"), "--executions");
        assertOneLineUsageError(kmodel("check", "--strategy", "bfs"), "auto, exhaustive, delay, pct or random");
        assertOneLineUsageError(kmodel("check", "--depth", "2"), "--depth");
        assertOneLineUsageError(kmodel("check", "--frobnicate"), "--frobnicate");
        assertOneLineUsageError(kmodel("chek"), "unknown command 'chek'");
        assertOneLineUsageError(kmodel(), "missing command");
        assertOneLineUsageError(kmodel("replay"), "TOKEN");
    }

    @Test
    void theHintedHelpExistsForEveryCommand() {
        for (String command : List.of("check", "replay", "bugs", "scenarios", "options")) {
            Run r = kmodel(command, "--help");
            assertEquals(0, r.code, r::toString);
            assertTrue(r.out.startsWith("Usage: kmodel " + command), r::toString);
        }
        Run root = kmodel("--help");
        assertEquals(0, root.code, root::toString);
        for (String command : List.of("check", "replay", "bugs", "scenarios", "options")) {
            assertTrue(root.out.contains("\n  " + command + " "), root::toString);
        }
        Run help = kmodel("help", "check");
        assertEquals(0, help.code, help::toString);
        assertTrue(help.out.contains("--preemptions=N"), help::toString);
    }

    /**
     * {@code --strategy delay}: depth-first search by delay bound, iterated 0..D; a pass says "within"
     * nothing more than "delay bound D". The lost wake-up needs one delay: missed at 0, found at 1.
     */
    @Test
    void theDelayStrategyIsSelectableWithItsBound() {
        Run zero = kmodel("check", "--scenario", "textbook-waitqueue", "--bug", "textbook-check-then-sleep",
                "--strategy", "delay", "--delay-bound", "0");
        assertEquals(0, zero.code, zero::toString);
        assertTrue(zero.outLines().get(0).startsWith("PASS textbook-waitqueue  1 execution, ")
                && zero.outLines().get(0).contains("exhaustive, delay bound 0"), zero::toString);
        Run one = kmodel("check", "--scenario", "textbook-waitqueue", "--bug", "textbook-check-then-sleep",
                "--strategy", "delay", "--delay-bound", "1");
        assertEquals(1, one.code, one::toString);
        assertTrue(one.out.contains("missed-wakeup: "), one::toString);
        Run dflt = kmodel("check", "--scenario", "textbook-waitqueue", "--strategy", "delay");
        assertTrue(dflt.outLines().get(0).contains("exhaustive, delay bound 2"), dflt::toString);
        assertOneLineUsageError(kmodel("check", "--delay-bound", "1"), "--delay-bound applies to --strategy delay only");
        assertOneLineUsageError(kmodel("check", "--strategy", "delay", "--delay-bound", "-1"), "--delay-bound");
        assertOneLineUsageError(kmodel("check", "--strategy", "delay", "--preemptions", "1"), "--preemptions");
        assertOneLineUsageError(kmodel("check", "--strategy", "delay", "--seed", "2"), "--seed");
        assertTrue(kmodel("check", "--help").out.contains("--delay-bound=D"));
    }

    /**
     * The default ({@code --strategy auto}) on a many-task program: the unbounded search runs out,
     * PCT finds the lost update, and the line says which search found it after how many executions.
     */
    @Test
    void theDefaultPortfolioFindsAManyTaskBugBySamplingAndSaysSo() {
        Run r = kmodel("check", "--scenario", "many-lockers-9");
        assertEquals(1, r.code, r::toString);
        String line = r.outLines().get(0);
        assertTrue(line.startsWith("FAIL many-lockers-9  "), r::toString);
        assertTrue(line.contains("portfolio: unbounded search not finished in 20,000 executions, then round robin: "), r::toString);
        assertTrue(line.contains("found by pct depth 3 seed 1"), r::toString);
        assertTrue(r.out.contains("\n" + REPLAY_PREFIX + "km1."), r::toString);
        Run exhaustive = kmodel("check", "--scenario", "many-lockers-9", "--strategy", "exhaustive", "--executions",
                "50000");
        assertEquals(4, exhaustive.code, "exhaustive search alone: bound 0 does not finish in 50,000: " + exhaustive);
    }

    @Test
    void strategyNamesAreCaseInsensitive() {
        Run r = kmodel("check", "--scenario", "textbook-refcount", "--strategy", "RANDOM", "--executions", "50");
        assertEquals(0, r.code, r::toString);
        assertTrue(r.out.startsWith("PASS textbook-refcount  50 executions"), r::toString);
    }
}
