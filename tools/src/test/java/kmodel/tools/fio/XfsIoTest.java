package kmodel.tools.fio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link XfsIo}: seed 001's command line, xfs_io's numbers, and refusals. */
class XfsIoTest {
    @Test
    void seed001sPwriteIsOneDirectWriteJob() {
        List<FioJob> jobs = XfsIo.parse(List.of("pwrite -b 128K 0 2G"), "/mnt/btrfs/foo", true);
        assertEquals(1, jobs.size());
        FioJob j = jobs.get(0);
        assertEquals(FioJob.Origin.XFS_IO, j.origin());
        assertEquals(FioJob.Rw.WRITE, j.rw());
        assertEquals(128 * 1024, j.bs());
        assertEquals(0, j.offset());
        assertEquals(2L << 30, j.size());
        assertTrue(j.direct());
        assertEquals(1, j.numjobs());
        assertEquals(FioJob.IoEngine.PSYNC, j.ioengine());
        assertEquals("/mnt/btrfs/foo", j.path());
        assertEquals("pwrite -b 128K 0 2G", j.name());
        assertEquals("xfs_io -c", j.file());
        assertEquals(1, j.line());
    }

    @Test
    void fallocIsAcceptedAndDoesNothing() {
        assertEquals(List.of(), XfsIo.parse(List.of("falloc 0 2G"), "foo", false));
        List<FioJob> jobs = XfsIo.parse(List.of("falloc -k 0 2G", "pread 4k 8s", "w -b0x1000 1m 1m", "r -q 0 512"), "foo", false);
        assertEquals(3, jobs.size());
        assertEquals(FioJob.Rw.READ, jobs.get(0).rw());
        assertEquals(4096, jobs.get(0).offset());
        assertEquals(4096, jobs.get(0).size());
        assertEquals(4096, jobs.get(0).bs(), "xfs_io's default buffer: the block size");
        assertEquals(2, jobs.get(0).line(), "the -c index");
        assertEquals(FioJob.Rw.WRITE, jobs.get(1).rw());
        assertEquals(4096, jobs.get(1).bs());
        assertEquals(1 << 20, jobs.get(1).offset());
        assertEquals(512, jobs.get(2).bs(), "a length below the buffer is one shorter op");
        assertFalse(jobs.get(2).direct());
    }

    @Test
    void numbersAreReadAsCvtnumReadsThem() {
        assertEquals(8, Sizes.xfsIo("010"));
        assertEquals(16, Sizes.xfsIo("0x10"));
        assertEquals(8192, Sizes.xfsIo("2b"));
        assertEquals(1024, Sizes.xfsIo("2s"));
        assertEquals(1L << 60, Sizes.xfsIo("1e"));
        assertEquals(-1, Sizes.xfsIo("128KB"));
        assertEquals(-1, Sizes.xfsIo("08"));
        assertEquals(-1, Sizes.xfsIo("-1"));
        assertEquals(-1, Sizes.xfsIo(""));
        assertEquals(Sizes.TOO_LARGE, Sizes.xfsIo("99999999999999999999"));
    }

    private static void refused(List<String> commands, int line, String says) {
        JobFileException e = assertThrows(JobFileException.class, () -> XfsIo.parse(commands, "foo", true));
        assertEquals(line, e.line(), e::getMessage);
        assertTrue(e.problem().contains(says), () -> e.getMessage() + " should say " + says);
        assertTrue(e.getMessage().startsWith(line > 0 ? "xfs_io -c:" + line + ": " : "xfs_io: "), e::getMessage);
    }

    @Test
    void badCommandsAreRefusedNamingTheirIndex() {
        refused(List.of("pwrite -b 3x 0 2G"), 1, "non-numeric bsize argument -- '3x'");
        refused(List.of("falloc 0 2G", "pwrite 0"), 2, "expected pwrite [-b bsize] offset length");
        refused(List.of("pwrite -w 0 1m"), 1, "option '-w': not modelled");
        refused(List.of("fsync"), 1, "command 'fsync': not modelled");
        refused(List.of("pwrite -b 1000 0 1m"), 1, "multiples of 512");
        refused(List.of("pwrite 0 2t"), 1, "above 1 TiB");
        refused(List.of("pwrite -b 0 0 1m"), 1, "bsize 0 is 0");
        refused(List.of("pwrite -b 256m 0 1g"), 1, "above 128 MiB");
        refused(List.of("pwrite 0 0"), 1, "length 0");
        refused(List.of("   "), 1, "empty command");
        refused(List.of("pwrite \"0\" 1m"), 1, "quoting");
        refused(List.of("pwrite -b"), 1, "needs a buffer size");
        refused(List.of(), 0, "interactive mode is not modelled");
        assertTrue(assertThrows(JobFileException.class, () -> XfsIo.parse(List.of("pwrite 0 1m"), "", false))
                .getMessage().contains("empty file name"));
    }
}
