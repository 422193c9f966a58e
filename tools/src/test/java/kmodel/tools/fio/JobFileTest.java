package kmodel.tools.fio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link JobFile}: the seeds' job files, fio's syntax and sizes, and every kind of refusal. */
class JobFileTest {
    /** Seed 000's job file, lines 44 to 57 of the seed, verbatim. */
    static final String SEED000 = "[global]\n"
            + "group_reporting\n"
            + "thread\n"
            + "numjobs=4\n"
            + "bs=32k\n"
            + "rw=read\n"
            + "ioengine=sync\n"
            + "directory=/mnt/btrfs/\n"
            + "\n"
            + "[READ]\n"
            + "filename=foobar\n"
            + "size=2000M\n"
            + "invalidate=1\n";

    private static void seed000Job(FioJob j) {
        assertEquals("READ", j.name());
        assertEquals(FioJob.Origin.FIO, j.origin());
        assertEquals(4, j.numjobs());
        assertEquals(32768, j.bs());
        assertEquals(2000L << 20, j.size());
        assertEquals(0, j.offset());
        assertEquals(FioJob.Rw.READ, j.rw());
        assertEquals(FioJob.IoEngine.SYNC, j.ioengine());
        assertEquals(1, j.iodepth());
        assertTrue(j.invalidate());
        assertTrue(j.thread());
        assertTrue(j.groupReporting());
        assertFalse(j.direct());
        assertEquals("/mnt/btrfs/", j.directory());
        assertEquals("foobar", j.filename());
        assertEquals("/mnt/btrfs/foobar", j.path());
    }

    @Test
    void theSeedsJobFileGivesOneJobOfFourThreads() {
        List<FioJob> jobs = JobFile.parse("seed000.fio", SEED000);
        assertEquals(1, jobs.size());
        seed000Job(jobs.get(0));
        assertEquals(10, jobs.get(0).line());
    }

    @Test
    void theSeed000ExampleIsTheSeedsJobFile() {
        String text = Examples.text(Examples.SEED000);
        assertTrue(text.endsWith(SEED000), "the job file verbatim after the comment header");
        List<FioJob> jobs = JobFile.read(Examples.path(Examples.SEED000), "seed000");
        assertEquals(1, jobs.size());
        seed000Job(jobs.get(0));
    }

    @Test
    void theSeed002ExampleIsRandomReadsAtQueueDepth32() {
        List<FioJob> jobs = JobFile.read(Examples.path(Examples.SEED002), Examples.SEED002);
        assertEquals(1, jobs.size());
        FioJob j = jobs.get(0);
        assertEquals(FioJob.Rw.RANDREAD, j.rw());
        assertEquals(4096, j.bs());
        assertEquals(4L << 30, j.size());
        assertEquals(FioJob.IoEngine.IO_URING, j.ioengine());
        assertEquals(32, j.iodepth());
        assertEquals(1, j.numjobs());
        assertFalse(j.direct());
        String pvsync = Examples.text(Examples.SEED002).replace("ioengine=io_uring", "ioengine=pvsync");
        assertEquals(FioJob.IoEngine.PVSYNC, JobFile.parse("preadv", pvsync).get(0).ioengine());
    }

    @Test
    void jobsInheritTheGlobalsBeforeThemAndOverrideThem() {
        String text = "; a comment\n# another\n[global]\nbs = 8k ; trailing comment\nsize=1m\n"
                + "[a]\nbs=16k\n[global]\nrw=randwrite\ndirect\n[b]\nname=bee\nnumjobs=2\nbuffered=1\n[c]\n";
        List<FioJob> jobs = JobFile.parse("t.fio", text);
        assertEquals(3, jobs.size());
        assertEquals(16384, jobs.get(0).bs());
        assertEquals(FioJob.Rw.READ, jobs.get(0).rw());
        assertEquals(1 << 20, jobs.get(0).size());
        assertEquals("bee", jobs.get(1).name());
        assertEquals(8192, jobs.get(1).bs());
        assertEquals(FioJob.Rw.RANDWRITE, jobs.get(1).rw());
        assertFalse(jobs.get(1).direct(), "buffered=1 overrides the global direct");
        assertEquals(2, jobs.get(1).numjobs());
        assertTrue(jobs.get(2).direct());
        assertEquals("c", jobs.get(2).name());
        assertEquals(FioJob.IoEngine.PSYNC, jobs.get(2).ioengine(), "fio's default engine");
        assertEquals(15, jobs.get(2).line());
    }

    @ParameterizedTest
    @CsvSource({
        "512, 512", "4k, 4096", "4K, 4096", "4kb, 4096", "4KB, 4096", "1m, 1048576", "2000M, 2097152000",
        "1g, 1073741824", "1G, 1073741824", "1t, 1099511627776", "0x1000, 4096", "8000KiB, 8000000",
        "1mib, 1000000", "1024b, 1024"})
    void sizesAreReadAsFioReadsThem(String text, long bytes) {
        assertEquals(bytes, JobFile.parse("s.fio", "[j]\nsize=" + text + "\nbs=512\n").get(0).size());
    }

    @Test
    void crLfLineEndsAndBlanksAreFine() {
        List<FioJob> jobs = JobFile.parse("crlf.fio", SEED000.replace("\n", "\r\n").replace("numjobs=4", "  numjobs\t=\t4  "));
        seed000Job(jobs.get(0));
    }

    /** Asserts {@code text} is refused on {@code line} with a message holding {@code says}. */
    private static void refused(String text, int line, String says) {
        JobFileException e = assertThrows(JobFileException.class, () -> JobFile.parse("bad.fio", text));
        assertEquals(line, e.line(), e::getMessage);
        assertTrue(e.getMessage().startsWith(line > 0 ? "bad.fio:" + line + ": " : "bad.fio: "), e::getMessage);
        assertTrue(e.problem().contains(says), () -> e.getMessage() + " should say " + says);
        assertFalse(e.getMessage().contains("\n"), "one line");
    }

    @Test
    void badValuesAreRefusedWithTheirLine() {
        refused("[j]\nsize=1m\nbs=0\n", 3, "must be more than 0");
        refused("[j]\nsize=1m\nbs=3x\n", 3, "not a size");
        refused("[j]\nsize=1m\nbs=1.5k\n", 3, "not a size");
        refused("[j]\nsize=1m\nbs=1000\n", 3, "not a multiple of 512: not modelled");
        refused("[j]\nsize=1m\nbs=4KiB\n", 3, "reads KiB as 1000 bytes");
        refused("[j]\nsize=1m\nbs=256m\n", 3, "above 128 MiB");
        refused("[j]\nsize=1m\nnumjobs=-1\n", 3, "expected a whole number from 1 to 256");
        refused("[j]\nsize=1m\nnumjobs=0\n", 3, "expected a whole number from 1 to 256");
        refused("[j]\nsize=1m\nnumjobs=257\n", 3, "the model's cap");
        refused("[j]\nsize=1m\niodepth=4097\n", 3, "from 1 to 4096");
        refused("[j]\nsize=2t\n", 2, "above 1 TiB");
        refused("[j]\nsize=99999999999999999999999\n", 2, "above 1 TiB");
        refused("[j]\nsize=1t\noffset=4k\n", 1, "offset + size above 1 TiB");
        refused("[j]\nsize=50%\n", 2, "a percentage: not modelled");
        refused("[j]\nsize=1m\nbs=4k,8k\n", 3, "not modelled");
        refused("[j]\nsize=1m\ndirect=2\n", 3, "expected 0 or 1");
        refused("[j]\nsize=1m\nbs\n", 3, "needs a value");
        refused("[j]\nsize=\n", 2, "empty value");
        refused("[j]\nsize=4k\nbs=8k\n", 1, "smaller than bs");
        refused("[j]\nsize=1m\nfilename=a:b\n", 3, "several files");
    }

    @Test
    void unsupportedFioOptionsAreNotModelled() {
        refused("[j]\nsize=1m\nrw=randrw\n", 3, "rw=randrw: not modelled");
        refused("[j]\nsize=1m\nrw=read:8\n", 3, "offset modifier");
        refused("[j]\nsize=1m\nioengine=libaio\n", 3, "not modelled");
        refused("[j]\nsize=1m\nverify=md5\n", 3, "option 'verify': not modelled");
        refused("[j]\nsize=1m\ntime_based\n", 3, "not modelled");
        refused("[j]\nsize=1m\nkb_base=1000\n", 3, "not modelled");
        refused("[j]\nsize=1m\nioengine=warp_drive\n", 3, "unknown I/O engine");
        refused("[j]\nsize=1m\nrw=sideways\n", 3, "expected read, randread, write or randwrite");
    }

    @Test
    void structuralErrorsAreRefusedWithTheirLine() {
        refused("bs=4k\n[j]\nsize=1m\n", 1, "outside of a [] job section");
        refused("\n\n[j\nsize=1m\n", 3, "malformed section header");
        refused("[]\nsize=1m\n", 1, "empty section name");
        refused("[a]b]\nsize=1m\n", 1, "brackets");
        refused("[j]\nsize=1m\nbananas=3\n", 3, "unknown option 'bananas'");
        refused("[j]\nsize=1m\nBS=4k\n", 3, "lower case");
        refused("[j]\nsize=1m\n=4k\n", 3, "without an option name");
        refused("[global]\nbs=4k\n\n[j]\nrw=read\n", 4, "has no size");
        refused("[global]\nsize=1m\n", 2, "no job section");
        refused("", 1, "no job section");
        refused("[" + "n".repeat(256) + "]\n", 1, "longer than 255");
    }

    @Test
    void badBytesAreRefusedWithTheirLine() {
        JobFileException nul = assertThrows(JobFileException.class,
                () -> JobFile.parse("bin.fio", "[j]\nsize=1m\u0000\n".getBytes(StandardCharsets.UTF_8)));
        assertEquals("bin.fio:2: NUL byte at column 8 (not a text file?)", nul.getMessage());
        JobFileException utf = assertThrows(JobFileException.class,
                () -> JobFile.parse("bin.fio", new byte[] {'[', 'j', ']', '\n', 's', (byte) 0xff, '\n'}));
        assertEquals("bin.fio:2: invalid UTF-8 (not a text file?)", utf.getMessage());
        refused("[j]\nsize=1m\u001b[31m\n", 2, "control character U+001B");
        refused("[j]\nsize=1m\nfilename=" + "a".repeat(5000) + "\n", 3, "line longer than 4096");
        byte[] big = new byte[JobFile.MAX_FILE_BYTES + 1];
        java.util.Arrays.fill(big, (byte) '\n');
        JobFileException e = assertThrows(JobFileException.class, () -> JobFile.parse("big.fio", big));
        assertEquals("big.fio: larger than 1 MiB (kmodel reads job files of at most 1048576 bytes)", e.getMessage());
    }

    @Test
    void fileProblemsNameTheFile(@TempDir Path dir) throws Exception {
        JobFileException missing = assertThrows(JobFileException.class,
                () -> JobFile.read(dir.resolve("nope.fio"), "nope.fio"));
        assertEquals("nope.fio: no such file", missing.getMessage());
        JobFileException directory = assertThrows(JobFileException.class, () -> JobFile.read(dir, "d"));
        assertEquals("d: is a directory, not a job file", directory.getMessage());
        Path big = dir.resolve("big.fio");
        Files.write(big, new byte[JobFile.MAX_FILE_BYTES + 10]);
        assertEquals(0, assertThrows(JobFileException.class, () -> JobFile.read(big, "big.fio")).line());
    }
}
