package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kmodel litmus}: its output, its exit codes, and its one-line refusals. */
class LitmusCliTest {
    @TempDir
    Path tmp;

    static Path suite(String name) {
        try {
            return Path.of(LitmusCliTest.class.getResource("/litmus/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private Path write(String name, String text) throws IOException {
        Path f = tmp.resolve(name);
        Files.writeString(f, text, StandardCharsets.UTF_8);
        return f;
    }

    private static CliRun litmus(String... args) {
        String[] argv = new String[args.length + 1];
        argv[0] = "litmus";
        System.arraycopy(args, 0, argv, 1, args.length);
        CliRun r = CliRun.kmodel(argv);
        CliOracle.assertSound(r);
        return r;
    }

    @Test
    void printsHerdsShapeAndAWitness() {
        CliRun r = litmus(suite("MP.litmus").toString());
        assertEquals(0, r.code, r.err);
        assertTrue(r.out.startsWith("Test MP Allowed\nStates 4\n"), r.out);
        assertTrue(r.out.contains("1:r0=1; 1:r1=0;  <- matches"), r.out);
        assertTrue(r.out.contains("\nOk\nWitnesses\nPositive: 1 Negative: 3\nObservation MP Sometimes 1 3\n"), r.out);
        assertTrue(r.out.contains("Witness:\n  P0 "), r.out);
        assertTrue(r.out.contains("Result: Sometimes (agrees)"), r.out);
        CliRun never = litmus("--no-witness", suite("SB+mbs.litmus").toString(), suite("CoWW.litmus").toString());
        assertEquals(0, never.code);
        assertTrue(never.out.contains("Observation SB+mbs Never 0 3"), never.out);
        assertTrue(never.out.contains("Observation CoWW Never 0 1"), never.out);
        assertTrue(!never.out.contains("Witness:"), never.out);
    }

    @Test
    void aWrongResultCommentIsExitOne() throws IOException {
        String text = Files.readString(suite("SB+mbs.litmus"), StandardCharsets.UTF_8).replace("Result: Never", "Result: Sometimes");
        CliRun r = litmus(write("lie.litmus", text).toString());
        assertEquals(Kmodel.EXIT_VIOLATION, r.code);
        assertTrue(r.out.contains("Result: Sometimes (DISAGREES)"), r.out);
        // and the documented divergence (load buffering) is a disagreement with the LKMM's verdict
        assertEquals(Kmodel.EXIT_VIOLATION, litmus(suite("LB.litmus").toString()).code);
    }

    @Test
    void anUnsupportedConstructIsOneLineNamingFileLineAndConstruct() throws IOException {
        String text = Files.readString(suite("MP.litmus"), StandardCharsets.UTF_8)
                .replace("WRITE_ONCE(*flag, 1);", "synchronize_rcu();\n\tWRITE_ONCE(*flag, 1);");
        Path f = write("rcu.litmus", text);
        CliRun r = litmus(f.toString());
        assertEquals(Kmodel.EXIT_USAGE, r.code);
        int line = text.substring(0, text.indexOf("synchronize_rcu")).split("\n", -1).length;
        assertEquals("kmodel: " + f + ":" + line + ": unsupported: synchronize_rcu()", r.err.trim());
        CliRun loop = litmus(write("loop.litmus", text.replace("synchronize_rcu();", "while (1) ;")).toString());
        assertTrue(loop.err.contains(": unsupported: while"), loop.err);
        CliRun filter = litmus(write("filter.litmus", Files.readString(suite("MP.litmus"), StandardCharsets.UTF_8)
                .replace("exists", "filter (1:r0=1)\nexists")).toString());
        assertTrue(filter.err.contains(": unsupported: filter"), filter.err);
    }

    @Test
    void badInputIsOneLine() throws IOException {
        assertEquals(Kmodel.EXIT_USAGE, litmus(tmp.resolve("missing.litmus").toString()).code);
        assertEquals(Kmodel.EXIT_USAGE, litmus(tmp.toString()).code);
        assertEquals(Kmodel.EXIT_USAGE, litmus(write("empty.litmus", "").toString()).code);
        assertEquals(Kmodel.EXIT_USAGE, litmus(write("garbage.litmus", "C x\n{\n").toString()).code);
        assertEquals(Kmodel.EXIT_USAGE, litmus(write("big.litmus", "C x\n" + " ".repeat(LitmusCommand.MAX_BYTES)).toString()).code);
        CliRun r = litmus(write("noloc.litmus", "C t\n{}\nP0(int *x)\n{\n\tint r0;\n\tr0 = READ_ONCE(*r0);\n}\nexists (0:r0=0)\n").toString());
        assertEquals(Kmodel.EXIT_USAGE, r.code);
        assertTrue(r.err.contains("which is no location"), r.err);
        // one bad file among good ones: only its line, nothing on stdout
        CliRun mixed = litmus(suite("MP.litmus").toString(), write("bad.litmus", "C y\nP0(int *x) { x++; }\n").toString());
        assertEquals(Kmodel.EXIT_USAGE, mixed.code);
        assertEquals("", mixed.out);
        assertEquals(Kmodel.EXIT_USAGE, litmus("--max-states", "0", suite("MP.litmus").toString()).code);
    }

    @Test
    void theStateBudgetIsInconclusive() {
        CliRun r = litmus("--max-states", "5", suite("IRIW.litmus").toString());
        assertEquals(Kmodel.EXIT_INCONCLUSIVE, r.code);
        assertTrue(r.out.contains("Test IRIW inconclusive: more than 5 states"), r.out);
    }
}
