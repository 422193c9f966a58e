package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import kmodel.explorer.ModelCheck;
import kmodel.verification.ScenarioRegistry;
import kmodel.verification.catalog.BugCatalog;
import kmodel.verification.catalog.CatalogBug;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code kmodel bench} on two scenarios, a budget of 2,000 executions, no JMH: the report is well
 * formed, its executions columns are the exact deterministic counts (pinned here, and each the
 * count {@code kmodel check} gets for the same search), and each catalog bug row names the
 * violation kind the catalog gives the bug. Timings and rates are never asserted.
 */
class BenchCliTest {
    private static String[] run(int expectedCode, String... args) {
        CommandLine cmd = Kmodel.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int code = cmd.execute(args);
        assertEquals(expectedCode, code, () -> "exit " + code + "\n" + out + err);
        return new String[] {out.toString(), err.toString()};
    }

    static final long BUDGET = 2000;

    /** The executions of {@code kmodel check --scenario S --preemptions unbounded --reduction R --executions 2000}. */
    private static long checkCount(String scenario, boolean reduction) {
        return ModelCheck.exhaustive(ScenarioRegistry.everything().get(scenario)).preemptions(ModelCheck.UNBOUNDED)
                .reduction(reduction).executions(BUDGET).run().executions();
    }

    private static long count(String cell) {
        return Long.parseLong(cell.replace(",", ""));
    }

    @Test
    void benchPrintsTheExactExecutionCountsAndTheCatalogsKinds() {
        String[] r = run(0, "bench", "--scenario", "dio-split-clones", "--scenario", "textbook-refcount",
                "--executions", "" + BUDGET, "--no-jmh", "--quick");
        List<String> lines = Arrays.asList(r[0].split("\n"));
        assertEquals("", r[1], "nothing on stderr");
        assertTrue(lines.get(0).matches("kmodel bench: JDK \\S+, tasks on (virtual|platform) threads; "
                + "each search cut at 2,000 executions"), lines.get(0));
        assertEquals("", lines.get(1));
        assertTrue(lines.get(2).matches("SCENARIO +DPOR EXECS +DPOR +DPOR EXEC/S +PLAIN EXECS +PLAIN +PLAIN EXEC/S +REDUCTION"),
                lines.get(2));
        String rate = "[\\d,]+";
        // SCENARIO, DPOR EXECS, DPOR, (rate), PLAIN EXECS, PLAIN, (rate), REDUCTION: every cell but the rates exact.
        String[][] expected = {
            {"dio-split-clones", "118", "complete", "2,000", "budget", ">16.9x"},
            {"textbook-refcount", "2,000", "budget", "2,000", "budget", "-"},
        };
        for (int i = 0; i < expected.length; i++) {
            String line = lines.get(3 + i);
            String[] cells = line.split(" {2,}");
            assertEquals(8, cells.length, line);
            String[] e = expected[i];
            assertEquals(List.of(e[0], e[1], e[2], e[3], e[4], e[5]),
                    List.of(cells[0], cells[1], cells[2], cells[4], cells[5], cells[7]), line);
            assertTrue(cells[3].matches(rate) && cells[6].matches(rate), line);
            // the same counts as kmodel check gets for the same searches
            assertEquals(checkCount(e[0], true), count(cells[1]), line);
            assertEquals(checkCount(e[0], false), count(cells[4]), line);
        }
        assertEquals("", lines.get(5));

        assertTrue(lines.get(6).matches("CATALOG BUG +SCENARIO +BOUND 2 +EXECS +TIME +DPOR +EXECS +TIME"), lines.get(6));
        List<CatalogBug> bugs = new ArrayList<>();
        for (CatalogBug b : BugCatalog.all()) {
            if (b.scenario().equals("textbook-refcount") || b.scenario().equals("dio-split-clones")) {
                bugs.add(b);
            }
        }
        // executions to the first counterexample at bound 2 and by unbounded DPOR, per bug
        Map<String, List<String>> counts = Map.of(
                "textbook-double-put", List.of("1", "1"),
                "textbook-forgotten-put", List.of("5", "1,165"),
                "textbook-sleep-holding-spinlock", List.of("1", "1"),
                "bio-trim-relies-on-bi-vcnt", List.of("1", "1"));
        assertEquals(counts.keySet(), bugs.stream().map(CatalogBug::id).collect(java.util.stream.Collectors.toSet()));
        int row = 7;
        for (CatalogBug b : bugs) {
            String line = lines.get(row++);
            String[] cells = line.split(" {2,}");
            assertEquals(8, cells.length, line);
            // the kind found is exactly the catalog's (a different kind would print "(expected ...)")
            assertEquals(List.of(b.id(), b.scenario(), b.kind().label(), counts.get(b.id()).get(0), b.kind().label(),
                    counts.get(b.id()).get(1)), List.of(cells[0], cells[1], cells[2], cells[3], cells[5], cells[6]), line);
            assertTrue(cells[4].matches("\\d+\\.\\d\\d s") && cells[7].matches("\\d+\\.\\d\\d s"), line);
        }
        assertEquals("", lines.get(row));
        String last = lines.get(lines.size() - 1);
        assertTrue(last.matches("time: \\d+\\.\\d s"), last);
        assertTrue(lines.get(lines.size() - 2).matches("scheduling point \\((virtual|platform) threads, timed loop, "
                + "5 executions of 2 tasks x 5,000 points\\): \\d+ ns switching at every point, \\d+ ns never switching"),
                lines.get(lines.size() - 2));
        assertEquals(row + 3, lines.size(), r[0]);
    }

    /**
     * {@code --before-after}: the default check with source-DPOR and with optimal DPOR side by side,
     * with the exact executions, sleep-set-blocked shares and verdicts (times are not asserted):
     * on {@code dio-split-clones} both are complete, source-DPOR in 146 executions of which 54
     * end blocked, optimal DPOR in 118 of which 26 (a step the reversal needs, enabled only by
     * the step it is reversed with); {@code textbook-refcount} is cut by the budget in both.
     */
    @Test
    void beforeAfterPrintsBothSearchesExactCounts() {
        String[] r = run(0, "bench", "--before-after", "--scenario", "dio-split-clones", "--scenario",
                "textbook-refcount", "--executions", "" + BUDGET);
        List<String> lines = Arrays.asList(r[0].split("\n"));
        assertEquals("", r[1], "nothing on stderr");
        assertTrue(lines.get(0).matches("kmodel bench --before-after: JDK \\S+, tasks on (virtual|platform) threads; the "
                + "default check \\(portfolio, one job, budget 2,000\\) before \\(--reduction source: source-DPOR, no sleep "
                + "sets under a bound\\) and after \\(optimal DPOR with wakeup trees, preemption-aware sleep sets under a "
                + "bound\\)"), lines.get(0));
        assertTrue(lines.get(2).matches("SCENARIO +BEFORE EXECS +TIME +BLOCKED +PROVED +AFTER EXECS +TIME +BLOCKED +PROVED"),
                lines.get(2));
        String[][] expected = {
            {"dio-split-clones", "146", "37.0%", "complete", "118", "22.0%", "complete"},
            {"textbook-refcount", "2,000", "0.4%", "budget", "2,000", "0.4%", "budget"},
            {"all 2", "2,146", "2.9%", "1 complete", "2,118", "1.6%", "1 complete"},
        };
        for (int i = 0; i < expected.length; i++) {
            String line = lines.get(3 + i);
            String[] cells = line.split(" {2,}");
            assertEquals(9, cells.length, line);
            assertEquals(List.of(expected[i]), List.of(cells[0], cells[1], cells[3], cells[4], cells[5], cells[7], cells[8]),
                    line);
            assertTrue(cells[2].matches("\\d+\\.\\d+ s") && cells[6].matches("\\d+\\.\\d+ s"), line);
        }
        // each count is the default check's, as kmodel check gets it with --reduction source and dpor
        assertEquals(146, ModelCheck.portfolio(ScenarioRegistry.everything().get("dio-split-clones")).sourceSets(true)
                .executions(BUDGET).run().executions());
        assertEquals(118, ModelCheck.portfolio(ScenarioRegistry.everything().get("dio-split-clones"))
                .executions(BUDGET).run().executions());
        assertEquals("", lines.get(6));
        assertTrue(lines.get(7).matches("time: \\d+\\.\\d s"), lines.get(7));
        assertEquals(8, lines.size(), r[0]);
    }

    @Test
    void badBenchInputIsAOneLineError() {
        String[][] cases = {{"--executions", "0"}, {"--scenario", "nope"}, {"--bug", "nope"}, {"--executions", "x"},
            {"--before-after", "--quick"}, {"--before-after", "--bug", "textbook-double-put"}};
        for (String[] c : cases) {
            List<String> args = new ArrayList<>(List.of("bench", "--no-jmh"));
            args.addAll(Arrays.asList(c));
            String[] r = run(Kmodel.EXIT_USAGE, args.toArray(new String[0]));
            assertTrue(r[1].startsWith("kmodel: "), r[1]);
            assertTrue(!r[1].contains("Exception"), r[1]);
            assertEquals("", r[0]);
        }
    }
}
