package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import kmodel.tools.fio.Examples;
import kmodel.tools.fio.FioJob;
import kmodel.tools.fio.JobFile;
import kmodel.tools.fio.JobFileException;
import kmodel.tools.fio.XfsIo;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Fuzzes {@code kmodel fio} and {@code kmodel xfs_io} with generated bad input: job files made
 * by one to three mutations of the examples (a dropped {@code =}, a bad number, a huge size, an
 * unknown or not-modelled option, binary junk, a duplicated section, a very long line, a deleted,
 * swapped or hostile line, a truncation), and xfs_io command lines made of mutated and hostile
 * {@code -c} commands and flags. The parsers may only return jobs that keep the model's caps or
 * throw their own one-line {@link JobFileException} naming the file and a line that exists; the
 * commands, run in-process on a {@link FakeRunner} (never the simulator), must end as {@link
 * CliOracle} says, with exit 2 and one line {@code kmodel: FILE:LINE: ...} for a refused file.
 * Every property has a fixed seed; together they run 1,000 + 400 + 300 + 300 = 2,000 generated cases.
 */
class FioFuzzProperties {
    /** Valid job files the mutations start from: the examples and a few small ones. */
    static final List<String> BASES = List.of(
            Examples.text(Examples.SEED000),
            Examples.text(Examples.SEED002),
            "[global]\nsize=1m\nbs=4k\n[a]\nrw=randread\n[b]\nrw=write\ndirect=1\nnumjobs=2\n",
            "[j]\nsize=64k\nbs=8k\noffset=1m\nioengine=pvsync2\niodepth=4\nthread\n");

    static final List<String> BAD_NUMBERS = List.of("0", "-1", "3x", "1.5k", "0x", "0xfffffffffffffffff", "4KiB", "2t",
            "50%", "", " ", "1e3", "+4k", "4k,8k", "1-4k", "9223372036854775807", "9223372036854775808",
            "99999999999999999999999", "4294967296", "4097", "257", "1k", "512", "\u0663", "1\u0000", "NaN");
    static final List<String> HUGE = List.of("1125899906842624", "2t", "1p", "9999999t", "16e", "0x7fffffffffffffff",
            "1099511627777", "1tb");
    static final List<String> KEYS = List.of("bananas=1", "Verify=1", "BS=4k", "size", "[", "]", "[[x]]", "rw",
            "rw=randrw", "ioengine=libaio", "verify=md5", "time_based", "runtime=10", "include other.fio",
            "stonewall", "kb_base=1000", "filename=a:b", "rw=read:4k", "ioengine=external:/x.so", "name=",
            "direct=yes", "numjobs=1k", "=", "==", "[global", "global]", "[ ]", "\ufeff[j]", "; only a comment");

    /** One mutation: an operation, a position, and something to put there. */
    static final class Mutation {
        final int op;
        final int at;
        final String text;
        final byte[] junk;

        Mutation(int op, int at, String text, byte[] junk) {
            this.op = op;
            this.at = at;
            this.text = text;
            this.junk = junk;
        }

        @Override
        public String toString() {
            return "op " + op + " at " + at + " " + CliOracle.quote(text) + " junk " + junk.length + " bytes";
        }
    }

    static Arbitrary<Mutation> mutations() {
        Arbitrary<String> text = Arbitraries.oneOf(Arbitraries.of(BAD_NUMBERS), Arbitraries.of(HUGE),
                Arbitraries.of(KEYS), CliSurfaces.hostile(), Arbitraries.strings().ascii().ofMaxLength(30));
        Arbitrary<byte[]> junk = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(24);
        return Combinators.combine(Arbitraries.integers().between(0, 11), Arbitraries.integers().between(0, 1 << 20),
                text, junk).as(Mutation::new);
    }

    /** {@code base} with {@code ms} applied, as bytes. */
    static byte[] mutate(String base, List<Mutation> ms) {
        byte[] b = base.getBytes(StandardCharsets.UTF_8);
        for (Mutation m : ms) {
            b = apply(b, m);
        }
        return b;
    }

    private static List<String> lines(byte[] b) {
        return new ArrayList<>(Arrays.asList(new String(b, StandardCharsets.ISO_8859_1).split("\n", -1)));
    }

    private static byte[] join(List<String> lines) {
        return String.join("\n", lines).getBytes(StandardCharsets.ISO_8859_1);
    }

    /** {@code s} as ISO-8859-1 text holding its UTF-8 bytes (so that lines() and join() keep bytes as they are). */
    private static String raw(String s) {
        return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    private static byte[] apply(byte[] b, Mutation m) {
        List<String> lines = lines(b);
        int i = m.at % lines.size();
        String line = lines.get(i);
        switch (m.op) {
            case 0: // a dropped '='
                lines.set(i, line.replaceFirst("=", ""));
                return join(lines);
            case 1: { // a bad number as the value of an option
                int eq = line.indexOf('=');
                String bad = BAD_NUMBERS.get(m.at % BAD_NUMBERS.size());
                lines.set(i, eq >= 0 ? line.substring(0, eq + 1) + raw(bad) : line + "=" + raw(bad));
                return join(lines);
            }
            case 2: // a huge size, offset or bs
                lines.add(Math.max(1, i), new String[] {"size=", "offset=", "bs="}[m.at % 3] + HUGE.get(m.at % HUGE.size()));
                return join(lines);
            case 3: // an unknown or not-modelled key, or a broken header
                lines.add(i, raw(KEYS.get(m.at % KEYS.size())));
                return join(lines);
            case 4: { // binary junk
                int p = b.length == 0 ? 0 : m.at % b.length;
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                out.write(b, 0, p);
                out.write(m.junk, 0, m.junk.length);
                out.write(b, p, b.length - p);
                return out.toByteArray();
            }
            case 5: { // a duplicated section (its header) or the whole file twice
                if (m.at % 2 == 0) {
                    for (int k = i; k < lines.size(); k++) {
                        if (lines.get(k).startsWith("[")) {
                            lines.add(k, lines.get(k));
                            break;
                        }
                    }
                    return join(lines);
                }
                byte[] twice = Arrays.copyOf(b, b.length * 2);
                System.arraycopy(b, 0, twice, b.length, b.length);
                return twice;
            }
            case 6: // a very long line
                lines.add(i, (m.at % 2 == 0 ? "filename=" : "# ") + "x".repeat(4000 + m.at % 20000));
                return join(lines);
            case 7: // a line deleted
                lines.remove(i);
                return join(lines);
            case 8: // a hostile line
                lines.add(i, raw(m.text));
                return join(lines);
            case 9: // the file cut short
                return Arrays.copyOf(b, b.length == 0 ? 0 : m.at % b.length);
            case 10: { // two lines swapped
                int j = (m.at / 7) % lines.size();
                lines.set(i, lines.get(j));
                lines.set(j, line);
                return join(lines);
            }
            default: // the value of an option replaced by hostile text
                int eq = line.indexOf('=');
                lines.set(i, (eq >= 0 ? line.substring(0, eq + 1) : line + "=") + raw(m.text));
                return join(lines);
        }
    }

    @Provide
    Arbitrary<byte[]> jobFiles() {
        return Combinators.combine(Arbitraries.of(BASES), mutations().list().ofMinSize(1).ofMaxSize(3)).as(FioFuzzProperties::mutate);
    }

    /** Lines in {@code b}, as the parser counts them (a final newline ends the last line). */
    private static int lineCount(byte[] b) {
        int n = 0;
        for (byte x : b) {
            if (x == '\n') {
                n++;
            }
        }
        return b.length > 0 && b[b.length - 1] != '\n' ? n + 1 : Math.max(n, 1);
    }

    /** A job the parser returned keeps every cap of {@link JobFile}. */
    private static void withinCaps(FioJob j) {
        assertTrue(j.bs() > 0 && j.bs() % 512 == 0 && j.bs() <= JobFile.MAX_BS, j::toString);
        assertTrue(j.size() >= j.bs() && j.offset() >= 0 && j.offset() % 512 == 0, j::toString);
        assertTrue(j.offset() + j.size() <= JobFile.MAX_SIZE, j::toString);
        assertTrue(j.numjobs() >= 1 && j.numjobs() <= JobFile.MAX_NUMJOBS, j::toString);
        assertTrue(j.iodepth() >= 1 && j.iodepth() <= JobFile.MAX_IODEPTH, j::toString);
        assertTrue(j.name().length() <= JobFile.MAX_NAME, j::toString);
    }

    @Property(tries = 1000, seed = "60701")
    void theJobFileParserReturnsJobsWithinTheCapsOrOneLineNamingALine(@ForAll("jobFiles") byte[] file) {
        boolean accepted;
        try {
            List<FioJob> jobs = JobFile.parse("fuzz.fio", file);
            assertFalse(jobs.isEmpty());
            jobs.forEach(FioFuzzProperties::withinCaps);
            accepted = true;
        } catch (JobFileException e) {
            String m = e.getMessage();
            assertFalse(m.contains("\n") || m.contains("\r"), () -> "one line: " + CliOracle.quote(m));
            assertTrue(e.line() >= 0 && e.line() <= lineCount(file), () -> "line " + e.line() + " of " + lineCount(file));
            assertTrue(m.startsWith(e.line() > 0 ? "fuzz.fio:" + e.line() + ": " : "fuzz.fio: "), m);
            accepted = false;
        }
        Statistics.label("accepted").collect(accepted);
        Statistics.label("accepted").coverage(c -> {
            c.check(true).count(n -> n > 0);
            c.check(false).percentage(p -> p > 50);
        });
    }

    private static Path scratch;

    private static synchronized Path write(byte[] contents) {
        try {
            if (scratch == null) {
                scratch = Files.createTempDirectory("kmodel-fio-fuzz");
                scratch.toFile().deleteOnExit();
            }
            Path f = scratch.resolve("job.fio");
            Files.write(f, contents);
            f.toFile().deleteOnExit();
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Property(tries = 400, seed = "60702")
    void kmodelFioEndsCleanlyOnEveryJobFile(@ForAll("jobFiles") byte[] file) {
        Path f = write(file);
        FakeRunner fake = new FakeRunner();
        CliRun r = CliRun.kmodel(FakeRunner.factory(fake), false, "fio", f.toString());
        CliOracle.assertSound(r);
        if (r.code == Kmodel.EXIT_USAGE) {
            assertTrue(Pattern.compile("kmodel: " + Pattern.quote(f.toString()) + "(:[1-9][0-9]*)?: \\S.*\n").matcher(r.err)
                    .matches(), r::toString);
            assertTrue(fake.runs.isEmpty(), "a refused file runs nothing");
        } else {
            assertEquals(0, r.code, r::toString);
            assertEquals(1, fake.runs.size());
        }
        Statistics.label("exit").collect(r.code);
        Statistics.label("exit").coverage(c -> {
            c.check(0).count(n -> n > 0);
            c.check(Kmodel.EXIT_USAGE).count(n -> n > 0);
        });
    }

    static final List<String> COMMANDS = List.of("pwrite -b 128K 0 2G", "pread 0 1m", "falloc 0 2G", "pwrite -q 4k 8k",
            "r 0 512", "w -b 1m 0 1t", "falloc -k 1g 1g");

    @Provide
    Arbitrary<List<String>> xfsIoCommands() {
        Arbitrary<String> one = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, Arbitraries.of(COMMANDS)),
                net.jqwik.api.Tuple.of(5, CliSurfaces.mutated(Arbitraries.of(COMMANDS))),
                net.jqwik.api.Tuple.of(2, Combinators.combine(Arbitraries.of("pwrite -b ", "pread -b ", "pwrite 0 ",
                        "pread ", "falloc 0 ", "pwrite -w ", "fsync ", "pwrite -b 4k 0 "), Arbitraries.of(BAD_NUMBERS))
                        .as((a, n) -> a + n)),
                net.jqwik.api.Tuple.of(1, CliSurfaces.hostile()));
        return one.list().ofMinSize(0).ofMaxSize(4);
    }

    @Property(tries = 300, seed = "60703")
    void theXfsIoParserReturnsJobsWithinTheCapsOrOneLineNamingItsCommand(@ForAll("xfsIoCommands") List<String> commands) {
        boolean accepted;
        try {
            XfsIo.parse(commands, "foo", true).forEach(FioFuzzProperties::withinCaps);
            accepted = true;
        } catch (JobFileException e) {
            String m = e.getMessage();
            assertFalse(m.contains("\n"), () -> "one line: " + CliOracle.quote(m));
            assertTrue(e.line() >= 0 && e.line() <= commands.size(), m);
            assertTrue(m.startsWith(e.line() > 0 ? XfsIo.SOURCE + ":" + e.line() + ": " : "xfs_io: "), m);
            accepted = false;
        }
        Statistics.label("accepted").collect(accepted);
        Statistics.label("accepted").coverage(c -> {
            c.check(true).count(n -> n > 0);
            c.check(false).count(n -> n > 0);
        });
    }

    @Provide
    Arbitrary<List<String>> xfsIoArgv() {
        Arbitrary<List<String>> flags = Arbitraries.of("-d", "-f", "-df", "-x", "-r", "--set", "--set=BTRFS_DIO_CLONE=0",
                "--scale", "1/4", "--", "-c").list().ofMaxSize(3);
        Arbitrary<String> file = Arbitraries.oneOf(Arbitraries.of("foo", "/mnt/btrfs/foo"), CliSurfaces.hostile());
        return Combinators.combine(flags, xfsIoCommands(), file).as((fl, cmds, f) -> {
            List<String> argv = new ArrayList<>();
            argv.add("xfs_io");
            argv.addAll(fl);
            for (String c : cmds) {
                argv.add("-c");
                argv.add(c);
            }
            argv.add(f);
            return argv;
        });
    }

    @Property(tries = 300, seed = "60704")
    void kmodelXfsIoEndsCleanlyOnEveryCommandLine(@ForAll("xfsIoArgv") List<String> argv) {
        FakeRunner fake = new FakeRunner();
        CliRun r = CliRun.kmodel(FakeRunner.factory(fake), false, argv.toArray(new String[0]));
        CliOracle.assertSound(r);
        if (r.code == Kmodel.EXIT_USAGE && r.err.startsWith("kmodel: xfs_io")) {
            assertTrue(r.err.matches("kmodel: xfs_io( -c:[1-9][0-9]*)?: \\S.*\n"), r::toString);
        }
        Statistics.label("exit").collect(r.code);
        Statistics.label("exit").coverage(c -> {
            c.check(0).count(n -> n > 0);
            c.check(Kmodel.EXIT_USAGE).count(n -> n > 0);
        });
    }
}
