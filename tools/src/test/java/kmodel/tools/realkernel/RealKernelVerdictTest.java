package kmodel.tools.realkernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The parts of the real-kernel harness ({@code tools/realkernel/}) that run without a VM: the
 * verdict parsing ({@code verdict.awk}) on console logs, among them the recorded consoles of real
 * boots (Debian's 6.1.0-57 kernel, and a minimal 6.1.192 kernel unpatched and patched), and the
 * shell syntax of the host script and of the
 * guest's init. None of this boots a kernel: the real test is {@code ./kmodel confirm killed-locker}.
 */
class RealKernelVerdictTest {
    @TempDir
    Path tmp;

    private static Path dir() {
        Path here = Path.of("").toAbsolutePath();
        for (Path p : List.of(here.resolve("realkernel"), here.resolve("tools/realkernel"))) {
            if (Files.isRegularFile(p.resolve("verdict.awk"))) {
                return p;
            }
        }
        throw new IllegalStateException("no realkernel/verdict.awk under " + here);
    }

    private record Result(int code, String out) {}

    private static Result exec(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "timed out: " + cmd);
        return new Result(p.exitValue(), out);
    }

    private static boolean has(String tool) throws InterruptedException {
        try {
            return exec(List.of("sh", "-c", "command -v " + tool)).code == 0;
        } catch (IOException e) {
            return false;
        }
    }

    private Result verdict(String test, Path log) throws IOException, InterruptedException {
        assumeTrue(has("awk"), "no awk");
        return exec(List.of("awk", "-v", "test=" + test, "-f", dir().resolve("verdict.awk").toString(), log.toString()));
    }

    private Result verdict(String test, String console) throws IOException, InterruptedException {
        Path log = tmp.resolve("console.log");
        Files.writeString(log, console);
        return verdict(test, log);
    }

    @Test
    void theRecordedStrandOnDebians61KernelIsStranded() throws Exception {
        Result r = verdict("killed-locker", dir().resolve("fixtures/killed-locker-debian-6.1.0-57.console"));
        assertEquals(0, r.code, r.out);
        assertTrue(r.out.startsWith("KMODEL-VERDICT killed-locker STRANDED 1/1 tries stranded"), r.out);
        assertTrue(!r.out.contains("\r"), r.out);
    }

    @Test
    void theRecordedMinimalKernelRunsAreStrandedUnpatchedAndNotPatched() throws Exception {
        Result unpatched = verdict("killed-locker", dir().resolve("fixtures/killed-locker-minimal-6.1.192-unpatched.console"));
        assertEquals(0, unpatched.code, unpatched.out);
        assertTrue(unpatched.out.startsWith("KMODEL-VERDICT killed-locker STRANDED 3/3 tries stranded"), unpatched.out);
        Result patched = verdict("killed-locker", dir().resolve("fixtures/killed-locker-minimal-6.1.192-patched.console"));
        assertEquals(1, patched.code, patched.out);
        assertTrue(patched.out.startsWith("KMODEL-VERDICT killed-locker NOT-STRANDED 0/3 tries stranded, 3/3 the locker got the lock"), patched.out);
    }

    @Test
    void aVerdictOfAnotherTestIsNotTaken() throws Exception {
        Result r = verdict("no-kill", dir().resolve("fixtures/killed-locker-debian-6.1.0-57.console"));
        assertEquals(2, r.code, r.out);
        assertTrue(r.out.contains("no KMODEL-VERDICT line for no-kill"), r.out);
    }

    @Test
    void notStrandedIsTheOtherVerdict() throws Exception {
        Result r = verdict("killed-locker", "boot\r\nKMODEL-VERDICT killed-locker NOT-STRANDED 0/5 tries stranded\r\nKMODEL-DONE\r\n");
        assertEquals(1, r.code, r.out);
        assertEquals("KMODEL-VERDICT killed-locker NOT-STRANDED 0/5 tries stranded\n", r.out);
    }

    @Test
    void aControlPassesOnOkAndFailsOnAStrand() throws Exception {
        assertEquals(0, verdict("no-kill", "KMODEL-VERDICT no-kill OK 0/1 tries stranded\n").code);
        assertEquals(0, verdict("other-fn", "KMODEL-VERDICT other-fn OK 0/1 tries stranded\n").code);
        assertEquals(1, verdict("other-fn", "KMODEL-VERDICT other-fn CONTROL-FAILED 1/1 tries stranded\n").code);
        assertEquals(1, verdict("no-kill", "KMODEL-VERDICT no-kill CONTROL-FAILED 0/1 tries stranded, 1/1 unclear\n").code);
    }

    @Test
    void theNaturalRateIsACountNeverAFailure() throws Exception {
        assertEquals(0, verdict("no-delay", "KMODEL-VERDICT no-delay NATURAL 0/20 tries stranded\n").code);
        assertEquals(0, verdict("no-delay", "KMODEL-VERDICT no-delay NATURAL 3/20 tries stranded\n").code);
    }

    @Test
    void noVerdictIsAHarnessFailure() throws Exception {
        Result cut = verdict("killed-locker", "[    1.0] Linux version 6.1.0\nKMODEL: try 1: holder (pid 1) has the lock\n");
        assertEquals(2, cut.code, cut.out);
        Result panic = verdict("killed-locker", "[    2.1] Kernel panic - not syncing: No working init found.\n");
        assertEquals(2, panic.code, panic.out);
        assertTrue(panic.out.contains("kernel panic"), panic.out);
        Result error = verdict("killed-locker", "KMODEL-VERDICT killed-locker ERROR insmod kmodel_pagelock.ko failed\n");
        assertEquals(2, error.code, error.out);
    }

    @Test
    void theScriptsParse() throws Exception {
        assumeTrue(has("bash") && has("sh"), "no bash or sh");
        Result run = exec(List.of("bash", "-n", dir().resolve("run").toString()));
        assertEquals(0, run.code, run.out);
        Result init = exec(List.of("sh", "-n", dir().resolve("guest-init.sh").toString()));
        assertEquals(0, init.code, init.out);
    }

    @Test
    void theGuestInitNamesTheVerdictWordsTheParserKnows() throws Exception {
        String init = Files.readString(dir().resolve("guest-init.sh"));
        String awk = Files.readString(dir().resolve("verdict.awk"));
        for (String word : List.of("STRANDED", "NOT-STRANDED", "NATURAL", "OK", "CONTROL-FAILED", "ERROR")) {
            assertTrue(init.contains("verdict " + word), word);
            assertTrue(awk.contains('"' + word + '"'), word);
        }
    }
}
