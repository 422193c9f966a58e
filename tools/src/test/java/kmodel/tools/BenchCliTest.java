package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import kmodel.verification.catalog.BugCatalog;
import kmodel.verification.catalog.CatalogBug;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * A smoke test of {@code kmodel bench}: one scenario, a tiny budget, no JMH; the report must be
 * well formed. No figure is asserted except the executions, which are deterministic.
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

    @Test
    void benchPrintsAWellFormedReportForOneScenario() {
        String[] r = run(0, "bench", "--scenario", "textbook-refcount", "--executions", "40", "--no-jmh", "--quick");
        List<String> lines = Arrays.asList(r[0].split("\n"));
        assertEquals("", r[1], "nothing on stderr");
        assertTrue(lines.get(0).matches("kmodel bench: JDK \\S+, tasks on (virtual|platform) threads; "
                + "each search cut at 40 executions"), lines.get(0));
        assertEquals("", lines.get(1));
        assertTrue(lines.get(2).matches("SCENARIO +DPOR EXECS +DPOR +DPOR EXEC/S +PLAIN EXECS +PLAIN +PLAIN EXEC/S +REDUCTION"),
                lines.get(2));
        String num = "[\\d,]+";
        String status = "(complete|budget|step bound|[a-z-]+)";
        assertTrue(lines.get(3).matches("textbook-refcount +" + num + " +" + status + " +" + num + " +" + num + " +"
                + status + " +" + num + " +(-|>?\\d+\\.\\dx)"), lines.get(3));
        // The budget of 40 executions cuts the plain search: at most 40, and the ratio a lower bound.
        String[] cells = lines.get(3).split(" {2,}");
        assertEquals(8, cells.length, lines.get(3));
        assertTrue(Long.parseLong(cells[4].replace(",", "")) <= 40, lines.get(3));

        List<String> bugRows = new ArrayList<>();
        int header = lines.indexOf("") + 1 + lines.subList(lines.indexOf("") + 1, lines.size()).indexOf("") + 1;
        assertTrue(lines.get(header).matches("CATALOG BUG +SCENARIO +BOUND 2 +EXECS +TIME +DPOR +EXECS +TIME"),
                lines.get(header));
        for (int i = header + 1; !lines.get(i).isEmpty(); i++) {
            bugRows.add(lines.get(i));
        }
        List<String> expected = new ArrayList<>();
        for (CatalogBug b : BugCatalog.all()) {
            if (b.scenario().equals("textbook-refcount")) {
                expected.add(b.id());
            }
        }
        assertEquals(expected.size(), bugRows.size(), bugRows::toString);
        for (int i = 0; i < bugRows.size(); i++) {
            assertTrue(bugRows.get(i).matches(expected.get(i) + " +textbook-refcount +[a-z() -]+ +" + num
                    + " +\\d+\\.\\d\\d s +[a-z() -]+ +" + num + " +\\d+\\.\\d\\d s"), bugRows.get(i));
        }
        String last = lines.get(lines.size() - 1);
        assertTrue(last.matches("time: \\d+\\.\\d s"), last);
        assertTrue(lines.get(lines.size() - 2).matches("scheduling point \\((virtual|platform) threads, timed loop, "
                + "5 executions of 2 tasks x 5,000 points\\): \\d+ ns switching at every point, \\d+ ns never switching"),
                lines.get(lines.size() - 2));
    }

    @Test
    void badBenchInputIsAOneLineError() {
        String[][] cases = {{"--executions", "0"}, {"--scenario", "nope"}, {"--bug", "nope"}, {"--executions", "x"}};
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
