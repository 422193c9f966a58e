package kmodel.jpf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import gov.nasa.jpf.Config;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import kmodel.kernel.Kconfig;
import kmodel.kernel.sched.FreeRunningRuntime;
import org.junit.Test;

/**
 * The defences of the JPF tests, each shown to work on the failure it defends against: a thread
 * that JPF ends silently ("no errors"), a class path that lacks the model, and a
 * {@code site.properties}/{@code jpf.properties} that would override the configuration.
 */
public class JpfGuardTest extends JpfTestBase {

    /** A record in a test's own code: JPF stops the thread in its generated toString(). */
    record Pair(int a, int b) {
    }

    /**
     * JPF silently ends a thread in a record's generated method and reports "no errors"; the
     * proof's checks (the body's end reached, end states) turn that into a failure.
     */
    @Test
    public void aThreadEndedSilentlyIsNoProof() {
        JpfOutcome o = explore("guard: a task calls a record's toString()");
        if (o == null) {
            FreeRunningRuntime rt = FreeRunningRuntime.install(Kconfig.defaults());
            try {
                rt.spawn("t", null, false, false, () -> {
                    String s = new Pair(1, 2).toString();
                    if (s.isEmpty()) {
                        throw new AssertionError("empty");
                    }
                    JpfProbe.taskDone();
                });
                rt.runAll();
            } finally {
                rt.uninstall();
            }
            JpfProbe.end();
            return;
        }
        assertNull("JPF itself reports no error here", o.errorKind);
        assertEquals(0, o.watch.ends);
        assertEquals(0, o.watch.tasksDone);
        AssertionError e = assertThrows(AssertionError.class, o::assertProof);
        assertTrue(e.getMessage(), e.getMessage().contains("never reached its end"));
    }

    /**
     * The tasks on daemon threads (as the free-running runtime runs them on plain threads): JPF
     * ends a path silently where a task's thread ends while the main thread waits for the others
     * (jpf-core sets a choice at a thread's end only if another non-daemon thread is runnable), so
     * it misses the lost wake-up of {@code textbook-check-then-sleep}, which only happens after the
     * waker has ended, and reports "no errors" with the body's end reached. {@link JpfPoints#YIELD}
     * runs the tasks on non-daemon threads, and {@link HarnessJpfTest} finds it.
     */
    @Test
    public void daemonTaskThreadsHideTheLostWakeup() {
        JpfOutcome o = runMain("guard: textbook-check-then-sleep with the tasks on daemon threads",
                JpfSettings.Granularity.PRIMITIVE, HarnessJpfTest.BUDGET, HarnessMain.class,
                "textbook-waitqueue", "textbook-check-then-sleep", HarnessMain.DAEMONS);
        assertNull("JPF reports no error: " + o.line(), o.errorKind);
        assertTrue("and the body's end is reached: " + o.line(), o.watch.ends > 0);
    }

    /**
     * The canary run with the kmodel modules missing from JPF's class path: JPF does not report the
     * canary's deadlock, and neither the finding nor a proof is accepted.
     */
    @Test
    public void theCanaryWithoutTheModelIsNeitherFoundNorProved() {
        String cp = "+classpath=" + System.getProperty(JpfSettings.CLASSES) + "," + System.getProperty(JpfSettings.TESTS);
        JpfOutcome o = explore("guard: the canary without the model on the class path", cp);
        if (o == null) {
            Canary.run(true);
            JpfProbe.end();
            return;
        }
        assertNotEquals("deadlock", o.errorKind);
        assertThrows(AssertionError.class, () -> o.assertFinding(Expect.deadlock()));
        assertThrows(AssertionError.class, o::assertProof);
    }

    /**
     * A site.properties and a jpf.properties in the working directory and in ~/.jpf that switch
     * every property check off: JPF's own configuration stack obeys them, kmodel's does not, and
     * the canary is still found.
     */
    @Test
    public void siteAndProjectPropertiesAreIgnored() throws IOException {
        if (isJPFRun()) {
            Canary.run(true);
            JpfProbe.end();
            return;
        }
        JpfOutcome o;
        Path home = Files.createTempDirectory("kmodel-jpf-hostile");
        Path work = Files.createDirectories(home.resolve("work"));
        Files.createDirectories(home.resolve(".jpf"));
        // each switches the property checks off (nothing would ever be reported) and leaves a mark
        write(home.resolve(".jpf").resolve("site.properties"), "search.properties=\nhostile.home=obeyed\n");
        write(home.resolve("site.properties"), "search.properties=\nhostile.parent=obeyed\n");
        write(work.resolve("jpf.properties"), "search.properties=\nhostile.project=obeyed\n");
        String userDir = System.getProperty("user.dir");
        String userHome = System.getProperty("user.home");
        System.setProperty("user.dir", work.toString());
        System.setProperty("user.home", home.toString());
        try {
            Config stock = new Config(new String[0]);
            assertEquals("JPF's own stack reads a parent's site.properties", "obeyed", stock.getString("hostile.parent"));
            assertEquals("and the working directory's jpf.properties", "obeyed", stock.getString("hostile.project"));
            String checks = stock.getString("search.properties");
            assertTrue("and checks nothing: " + checks, checks == null || checks.isEmpty());
            Files.delete(home.resolve("site.properties"));
            stock = new Config(new String[0]);
            assertEquals("without it, ~/.jpf/site.properties", "obeyed", stock.getString("hostile.home"));
            write(home.resolve("site.properties"), "search.properties=\nhostile.parent=obeyed\n");

            Config ours = JpfSettings.config();
            assertNull(ours.getString("hostile.parent"));
            assertNull(ours.getString("hostile.project"));
            assertNull(ours.getString("hostile.home"));
            assertTrue(ours.getString("search.properties").contains("NotDeadlockedProperty"));
            o = explore("guard: the canary under hostile site.properties (parent, ~/.jpf) and jpf.properties");
        } finally {
            System.setProperty("user.dir", userDir);
            System.setProperty("user.home", userHome);
        }
        JpfResults.record(o);
        o.assertFinding(Expect.deadlock());
    }

    private static void write(Path p, String text) throws IOException {
        Files.write(p, text.getBytes(StandardCharsets.UTF_8));
    }
}
