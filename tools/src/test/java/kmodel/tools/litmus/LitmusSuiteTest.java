package kmodel.tools.litmus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import kmodel.kernel.lkmm.Fence;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * kmodel's own litmus suite (src/test/resources/litmus, written for kmodel): every file's verdict
 * asserted. The verdict expected is the LKMM's ({@code Result:}, with its source in the file),
 * except where the file says {@code kmodel: VERDICT (why)}: a documented divergence of the
 * approximation (load buffering), which may only ever be Never where the LKMM says Sometimes
 * (kmodel missing an allowed outcome), never the reverse. And the deliberate breaks: the same
 * tests with a barrier removed, or with the model's barriers ablated, must change verdict.
 */
class LitmusSuiteTest {
    private static final Pattern KMODEL = Pattern.compile("\\* kmodel: (\\w+)");

    static Path dir() {
        try {
            return Path.of(LitmusSuiteTest.class.getResource("/litmus").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<Path> files() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir())) {
            s.filter(p -> p.toString().endsWith(".litmus")).sorted().forEach(out::add);
        }
        return out;
    }

    static LitmusRunner.Outcome run(String text) throws Exception {
        return LitmusRunner.run(LitmusParser.parse(text), 200_000);
    }

    @TestFactory
    List<DynamicTest> everyVerdictAsserted() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path f : files()) {
            tests.add(DynamicTest.dynamicTest(f.getFileName().toString(), () -> {
                String text = Files.readString(f, StandardCharsets.UTF_8);
                Litmus t = LitmusParser.parse(text);
                assertNotNull(t.expected, "every suite file states the LKMM's verdict");
                assertTrue(text.contains("Source: "), "every suite file names its source");
                LitmusRunner.Outcome o = LitmusRunner.run(t, 200_000);
                Matcher m = KMODEL.matcher(text);
                String want = m.find() ? m.group(1) : t.expected;
                assertEquals(want, o.observation(), f.getFileName() + " (LKMM: " + t.expected + ")");
                if (t.expected.equals("Never")) {
                    assertEquals(0, o.positive, "an outcome the LKMM forbids was produced");
                }
                if (!want.equals(t.expected)) {
                    assertEquals("Sometimes", t.expected, "a divergence may only miss an allowed outcome");
                    assertEquals("Never", want);
                }
            }));
        }
        assertTrue(tests.size() >= 50, "the suite is all there");
        return tests;
    }

    @Test
    void removingTheBarrierFlipsTheVerdict() throws Exception {
        String[][] cases = {
            {"SB+mbs.litmus", "smp_mb();"},
            {"MP+wmb+rmb.litmus", "smp_rmb();"},
            {"MP+wmb+rmb.litmus", "smp_wmb();"},
            {"R+mbs.litmus", "smp_mb();"},
            {"IRIW+mbs.litmus", "smp_mb();"},
            {"Z6.0+locks+mb__after_spinlock.litmus", "smp_mb__after_spinlock();"},
            {"2+2W+mbs.litmus", "smp_mb();"},
        };
        for (String[] c : cases) {
            String text = Files.readString(dir().resolve(c[0]), StandardCharsets.UTF_8);
            assertEquals("Never", run(text).observation(), c[0]);
            String broken = text.replaceFirst(Pattern.quote(c[1]), "");
            assertEquals("Sometimes", run(broken).observation(), c[0] + " without its first " + c[1]);
        }
        String mp = Files.readString(dir().resolve("MP+release+acquire.litmus"), StandardCharsets.UTF_8);
        assertEquals("Sometimes", run(mp.replace("smp_load_acquire(flag)", "READ_ONCE(*flag)")).observation());
    }

    @Test
    void ablatingAFenceInTheModelIsCaughtBySuite() throws Exception {
        // Break the model itself (smp_mb() a no-op, then smp_rmb()): the suite's assertions fail.
        assertBroken(EnumSet.of(Fence.MB), "SB+mbs.litmus", "R+mbs.litmus", "IRIW+mbs.litmus", "Z6.0+mbs.litmus");
        assertBroken(EnumSet.of(Fence.RMB), "MP+wmb+rmb.litmus", "WRC+release+rmb.litmus");
        assertBroken(EnumSet.of(Fence.WMB), "MP+wmb+rmb.litmus", "S+wmb+acquire.litmus");
    }

    private static void assertBroken(EnumSet<Fence> ablated, String... names) throws Exception {
        for (String n : names) {
            Litmus t = LitmusParser.parse(Files.readString(dir().resolve(n), StandardCharsets.UTF_8));
            LitmusRunner.Outcome o = LitmusRunner.run(t, 200_000, ablated);
            assertEquals("Sometimes", o.observation(), n + " with " + ablated + " ablated");
            assertTrue(o.disagrees());
        }
    }

    @Test
    void countsAreHerdLike() throws Exception {
        // MP: four final states, one candidate execution each (herd7 prints Positive: 1 Negative: 3).
        LitmusRunner.Outcome o = run(Files.readString(dir().resolve("MP.litmus"), StandardCharsets.UTF_8));
        assertEquals(4, o.states.size());
        assertEquals(1, o.positive);
        assertEquals(3, o.negative);
        assertNotNull(o.witness);
        assertTrue(o.witness.contains("r0 = READ_ONCE(*flag)  = 1 (P0)"), o.witness);
        assertTrue(o.witness.contains("r1 = READ_ONCE(*data)  = 0 (init)"), o.witness);
        LitmusRunner.Outcome sb = run(Files.readString(dir().resolve("SB+mbs.litmus"), StandardCharsets.UTF_8));
        assertEquals(3, sb.states.size());
        assertFalse(sb.states.containsKey("0:r0=0; 1:r0=0;"));
        LitmusRunner.Outcome all = run(Files.readString(dir().resolve("RMW+fetch_add-forall.litmus"), StandardCharsets.UTF_8));
        assertEquals("Always", all.observation());
        assertTrue(all.ok());
    }
}
