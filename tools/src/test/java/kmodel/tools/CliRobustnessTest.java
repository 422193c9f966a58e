package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.Arrays;
import kmodel.explorer.search.Schedule;
import kmodel.explorer.trace.ReplayToken;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The inputs the fuzzing ({@link CliFuzzProperties}) found mishandled, each pinned as the failing
 * input it was, and the exit-3 path for anything unexpected thrown inside kmodel.
 */
class CliRobustnessTest {

    /** Asserts the run is a refused input: exit 2, one line on stderr naming {@code mentions}. */
    private static void refused(CliRun r, String mentions) {
        CliOracle.assertSound(r);
        assertEquals(Kmodel.EXIT_USAGE, r.code, r::toString);
        assertTrue(r.err.contains(mentions), () -> "the error names '" + mentions + "':\n" + r);
    }

    /** Asserts the run is an internal error: exit 3, exactly one line, no stack trace. */
    private static void internal(CliRun r, String mentions) {
        assertEquals(Kmodel.EXIT_INTERNAL, r.code, r::toString);
        assertEquals("", r.out, r::toString);
        assertEquals(1, r.errLines().size(), r::toString);
        assertTrue(r.err.startsWith("kmodel: internal error: " + mentions), r::toString);
        assertTrue(r.err.contains("(set KMODEL_DEBUG=1 for the stack trace)"), r::toString);
        assertFalse(r.err.contains("\tat "), r::toString);
    }

    @Test
    void aTokenClaimingTwoToThe31DecisionsIsRefusedBeforeAllocating() {
        // Was: java.lang.OutOfMemoryError (new int[n] for the claimed n) and a JVM stack trace.
        String token = new TokenForge().version(1).string("textbook-waitqueue").string("").varint(Integer.MAX_VALUE)
                .varint(1).varint(2).varint(3).seal();
        CliRun r = CliRun.kmodel("replay", token);
        refused(r, "it claims 2147483647 decisions but only 3 bytes follow");
        assertTrue(r.allocated < CliOracle.MAX_ALLOCATED, r::toString);
    }

    @Test
    void aDecompressionBombIsRefusedWithoutInflatingIt() {
        // 16 MiB of zero bytes deflate to some 16 KiB: the decoder stops at ReplayToken.MAX_RAW_BYTES.
        byte[] zeros = new byte[16 << 20];
        String token = TokenForge.seal(zeros);
        CliRun r = CliRun.kmodel("replay", token);
        refused(r, "payload inflates to more than 1048576 bytes");
        assertTrue(r.allocated < CliOracle.MAX_ALLOCATED, r::toString);
    }

    @Test
    void aPayloadThatIsNotBase64DoesNotNameAJavaException() {
        // Was: "payload is not base64url (com.google.common.io.BaseEncoding$DecodingException:
        // Invalid input length 5)", found by replayTokenTextEndsCleanly.
        CliRun r = CliRun.kmodel("replay", "km1.AAAAA.00000000");
        refused(r, "malformed replay token: payload is not base64url");
        assertFalse(r.err.contains("Exception"), r::toString);
    }

    @Test
    void aPctDepthOfTwoBillionIsRefused() {
        // Was: java.lang.OutOfMemoryError in PctStrategy.beginExecution (new int[depth - 1]).
        refused(CliRun.kmodel("check", "--scenario", "textbook-refcount", "--strategy", "pct", "--depth", "2000000000"),
                "--depth must be from 1 to 1000, got 2000000000");
    }

    @Test
    void aPreemptionBoundBeyondTheLimitIsRefused() {
        // Was accepted: iterating the bound 0..2147483647 overflows the loop counter.
        refused(CliRun.kmodel("check", "--scenario", "textbook-refcount", "--preemptions", "2147483647"),
                "expected a bound from 0 to 1000, 'unbounded' or 'auto', got '2147483647'");
        CliRun ok = CliRun.kmodel("check", "--scenario", "textbook-refcount", "--preemptions", "1000", "--executions", "5");
        CliOracle.assertSound(ok);
        assertEquals(Kmodel.EXIT_INCONCLUSIVE, ok.code, ok::toString);
    }

    @Test
    void anArgumentFileIsNotRead(@TempDir Path dir) throws IOException {
        // Was: picocli expanded "@FILE" into the file's words (and "@/dev/zero" read without end).
        Path f = dir.resolve("args");
        Files.write(f, "--verbose".getBytes(StandardCharsets.UTF_8));
        refused(CliRun.kmodel("bugs", "@" + f), "Unmatched argument at index 1: '@" + f + "'");
    }

    @Test
    void aLineBreakOrEscapeInAnEchoedArgumentStaysOnOneLine() {
        // Was: "kmodel: unknown scenario 'a" and a second line "b\u001b[31m' ...".
        CliRun r = CliRun.kmodel("check", "--scenario", "a\nb\u001b[31m");
        refused(r, "unknown scenario 'a\\nb\\u001b[31m'");
    }

    @Test
    void aSyntaxErrorAndItsHintAreOneLine() {
        // Was two lines: the error, then "try: kmodel check --help".
        CliRun r = CliRun.kmodel("check", "--frobnicate");
        refused(r, "Unknown option: '--frobnicate' (try: kmodel check --help)");
    }

    @Test
    void aHugeEchoedArgumentIsCut() {
        CliRun r = CliRun.kmodel("check", "--bug", "x".repeat(100_000));
        refused(r, "more characters)");
        assertTrue(r.err.length() < 2 * Kmodel.MAX_MESSAGE, r::toString);
    }

    @Test
    void tokensWhoseChecksumFitsButWhoseContentsLieAreRefused() {
        refused(CliRun.kmodel("replay", new TokenForge().version(1).string(60000, "textbook-waitqueue".getBytes(
                StandardCharsets.US_ASCII)).string("").varint(0).seal()), "the scenario name claims 60000 bytes");
        refused(CliRun.kmodel("replay", new TokenForge().version(1).string("textbook-waitqueue\u0007").string("")
                .varint(0).seal()), "not printable ASCII (0x7)");
        refused(CliRun.kmodel("replay", new TokenForge().version(1).string("textbook-waitqueue").string("")
                .bytes(new byte[] {(byte) 0x80, 0}).seal()), "not in the form kmodel writes");
        refused(CliRun.kmodel("replay", new TokenForge().version(1).string("textbook-waitqueue").string("")
                .varint(0xffffffffL).seal()), "the number of decisions is out of range (4294967295)");
        refused(CliRun.kmodel("replay", TokenForge.seal(new TokenForge().version(1).string("textbook-waitqueue")
                .string("").varint(0).raw(), new byte[] {1, 2})), "2 bytes after the end of the compressed payload");
        refused(CliRun.kmodel("replay", new TokenForge().version(1).string("textbook-waitqueue")
                .string("bug=textbook-check-then-sleep,bug=textbook-check-then-sleep").varint(0).seal()),
                "not in canonical form (expected 'bug=textbook-check-then-sleep')");
        refused(CliRun.kmodel("replay", new TokenForge().version(1).string("textbook-waitqueue")
                .string("CONFIG_PAGE_WAIT_V57=1").varint(0).seal()), "not in canonical form (expected 'PAGE_WAIT_V57=1')");
    }

    /**
     * Every prefix of a real counterexample's schedule, and every prefix with its last decision
     * changed to each task id 0..4: each replay either runs (to its end or to a violation) or is refused in one line as a schedule
     * that does not fit. A prefix runs out, and a changed decision names a task that may not be
     * runnable, at every kind of scheduling decision, among them the one the runtime takes on a
     * task's thread right after the task exited: a strategy failing there once killed that thread
     * and hung the command (found by {@code theForgedTokenPropertyFailsOnADecoderThatTrustsTheCount}).
     */
    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void everyPrefixOfARealScheduleRunsOrIsRefusedAsNotFitting() {
        CliRun found = CliRun.kmodel("check", "--scenario", "textbook-waitqueue", "--bug", "textbook-check-then-sleep");
        String line = found.out.lines().filter(l -> l.startsWith("replay: ")).findFirst().orElseThrow();
        ReplayToken real = ReplayToken.decode(line.substring(line.lastIndexOf(' ') + 1));
        int[] full = real.schedule().toArray();
        int refusals = 0;
        for (int len = 0; len <= full.length; len++) {
            for (int last = -1; last < 5; last++) {
                if (last >= 0 && len == 0) {
                    continue;
                }
                int[] d = Arrays.copyOf(full, len);
                if (last >= 0) {
                    d[len - 1] = last;
                }
                CliRun r = CliRun.kmodel("replay",
                        new ReplayToken(real.scenario(), real.config(), Schedule.of(d)).encode());
                CliOracle.assertSound(r);
                if (r.code == Kmodel.EXIT_USAGE) {
                    refused(r, "replay token does not fit its scenario");
                    refusals++;
                } else {
                    assertTrue(r.code == 0 || r.code == 1, r::toString);
                }
            }
        }
        assertTrue(refusals > 0, "some of the forged schedules must not fit");
    }

    // ---- exit 3: anything unexpected thrown inside kmodel ---------------------------------

    @Test
    void anExceptionInsideACommandIsExitThreeInOneLine() {
        internal(CliRun.kmodel(CliRun.withDecoder(BrokenDecoders::indexingUncheckedParts), false, "replay", "garbage"),
                "java.lang.ArrayIndexOutOfBoundsException");
    }

    @Test
    void anErrorInsideACommandIsExitThreeInOneLine() {
        internal(CliRun.kmodel(CliRun.withDecoder(t -> {
            throw new StackOverflowError();
        }), false, "replay", "x"), "java.lang.StackOverflowError");
        internal(CliRun.kmodel(CliRun.withDecoder(t -> {
            throw new OutOfMemoryError("Requested array size exceeds VM limit");
        }), false, "replay", "x"), "java.lang.OutOfMemoryError: Requested array size exceeds VM limit");
        internal(CliRun.kmodel(CliRun.withDecoder(t -> {
            throw new AssertionError("multi\nline");
        }), false, "replay", "x"), "java.lang.AssertionError: multi\\nline");
    }

    @Test
    void theStackTraceIsPrintedOnlyWithKmodelDebug() {
        CliRun r = CliRun.kmodel(CliRun.withDecoder(t -> {
            throw new StackOverflowError();
        }), true, "replay", "x");
        assertEquals(Kmodel.EXIT_INTERNAL, r.code, r::toString);
        assertEquals("kmodel: internal error: java.lang.StackOverflowError", r.errLines().get(0), r::toString);
        assertTrue(r.err.contains("\tat kmodel.tools.CliRobustnessTest"), r::toString);
        assertTrue(Kmodel.debugRequested("1") && Kmodel.debugRequested("yes"));
        assertFalse(Kmodel.debugRequested(null) || Kmodel.debugRequested("") || Kmodel.debugRequested("0"));
    }

    /** A command whose option converter throws an Error while the arguments are parsed. */
    @CommandLine.Command(name = "parse-error")
    static final class ErrorWhileParsing implements Callable<Integer> {
        @CommandLine.Option(names = "--x", converter = Boom.class)
        int x;

        @Override
        public Integer call() {
            return 0;
        }
    }

    static final class Boom implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            throw new StackOverflowError();
        }
    }

    @Test
    void anErrorWhileParsingIsExitThreeInOneLine() {
        CommandLine cmd = new CommandLine(new ErrorWhileParsing());
        StringWriter err = new StringWriter();
        cmd.setErr(new PrintWriter(err, true));
        cmd.setOut(new PrintWriter(new StringWriter(), true));
        assertEquals(Kmodel.EXIT_INTERNAL, Kmodel.execute(cmd, "--x", "1"));
        assertEquals(List.of("kmodel: internal error: java.lang.StackOverflowError (set KMODEL_DEBUG=1 for the stack trace)"),
                CliRun.lines(err.toString()));
    }
}
