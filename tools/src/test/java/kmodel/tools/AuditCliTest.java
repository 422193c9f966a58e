package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code kmodel check --audit-footprints}: its report, its exit codes, the options it refuses. */
class AuditCliTest {
    private static String[] run(String... args) {
        CommandLine cmd = Kmodel.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int code = cmd.execute(args);
        return new String[] {Integer.toString(code), out.toString(), err.toString()};
    }

    @Test
    void aCleanScenarioPassesTheAudit() {
        String[] r = run("check", "--audit-footprints", "--scenario", "textbook-refcount", "--preemptions", "1");
        assertEquals("0", r[0], () -> String.join("\n", r));
        assertTrue(r[1].startsWith("PASS textbook-refcount  "), r[1]);
        assertTrue(r[1].contains("footprint audit: 1 scenario: 0 with unreported accesses, 0 failed, 0 inconclusive; "),
                r[1]);
    }

    @Test
    void aViolationIsStillAFailure() {
        String[] r = run("check", "--audit-footprints", "--scenario", "textbook-refcount", "--bug",
                "textbook-double-put", "--preemptions", "1");
        assertEquals("1", r[0], () -> String.join("\n", r));
        assertTrue(r[1].startsWith("FAIL textbook-refcount  "), r[1]);
    }

    @Test
    void theAuditRefusesWhatItDoesNotAudit() {
        String[] r = run("check", "--audit-footprints", "--reduction", "none", "--scenario", "textbook-refcount");
        assertEquals("2", r[0], () -> String.join("\n", r));
        assertTrue(r[2].startsWith("kmodel: --audit-footprints audits the reduced exhaustive search"), r[2]);
        assertEquals(1, r[2].split("\n").length, r[2]);
    }
}
