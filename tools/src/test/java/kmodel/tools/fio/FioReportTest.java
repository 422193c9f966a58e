package kmodel.tools.fio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import kmodel.kernel.Kconfig;
import kmodel.verification.KconfigTable;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** {@link FioReport}: fio's and xfs_io's number formats, and whole reports from known results. */
class FioReportTest {
    @Test
    void num2strIsFios() {
        // The seed's figures: 934 MiB/s is 979,370,000-ish bytes a second.
        assertEquals("934MiB/s", FioReport.num2str(979_370_000L, 4, 1, true, "B/s"));
        assertEquals("979MB/s", FioReport.num2str(979_370_000L, 4, 1, false, "B/s"));
        assertEquals("2000MiB", FioReport.num2str(2000L << 20, 4, 1, true, "B"));
        assertEquals("2097MB", FioReport.num2str(2000L << 20, 4, 1, false, "B"));
        assertEquals("29.9k", FioReport.num2str(29_900, 4, 1, false, ""));
        assertEquals("1825", FioReport.num2str(1825, 4, 1, false, ""));
        assertEquals("235k", FioReport.num2str(234_567, 4, 1, false, ""));
        // fio's rounding of 99.96k: the decimals round up to "1.0" and the whole part carries.
        assertEquals("100.0k", FioReport.num2str(99_996, 4, 1, false, ""));
        assertEquals("0", FioReport.num2str(0, 4, 1, false, ""));
        assertEquals("30015", FioReport.num2str(30_015, 6, 1, false, ""));
    }

    @Test
    void xfsIoFormatsAreXfsIos() {
        assertEquals("2.000 GiB", FioReport.cvtstr(2147483648.0), "xfs_io's int cast overflows at 2 GiB");
        assertEquals("1 GiB", FioReport.cvtstr(1073741824.0));
        assertEquals("228.240 MiB", FioReport.cvtstr(2147483648.0 / 8.973));
        assertEquals("512.000000 bytes", FioReport.cvtstr(512));
        assertEquals("0:00:08.97", FioReport.timestr(8_973_000_000L));
        assertEquals("1:01:01.50", FioReport.timestr(3_661_500_000_000L));
        assertEquals("0.3276 sec", FioReport.timestr(327_680_000L));
        assertEquals("0m8.973s", FioReport.bashTime(8_973_000_000L));
        assertEquals("1m13.821s", FioReport.bashTime(73_821_000_000L));
    }

    /** One clone: 2000 MiB in 2141 ms, 64,000 I/Os; of the 1000 latencies recorded, 990 are 30 us and 10 are 1 ms. */
    private static JobResult known(FioJob job, int clone) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(30_000, 990);
        h.recordValueWithCount(1_000_000, 10);
        return JobResult.builder(job, clone).bytes(2000L << 20).ios(64_000).runtimeNanos(2_141_000_000L).clatNanos(h)
                .userCpuNanos(21_410_000L).sysCpuNanos(1_070_500_000L)
                .counter("bios", Counter.count(16_000))
                .counter("pages per bio", Counter.ratio(512_000, 16_000))
                .counter("CPU utilisation", Counter.percent(1_091_910_000L, 2_141_000_000L))
                .build();
    }

    @Test
    void aKnownResultPrintsFiosLines() {
        FioJob job = JobFile.parse("one.fio", "[READ]\nbs=32k\nsize=2000m\nioengine=sync\n").get(0);
        Kconfig config = KconfigTable.build(List.of("BTRFS_READPAGES=2"), List.of());
        String report = FioReport.fio(List.of(known(job, 0)), new WorkloadSettings(config, List.of("BTRFS_READPAGES=2"), 1));
        String expected = FioReport.FIO_HEADER + "\n"
                + "configuration: BTRFS_READPAGES=2\n"
                + "READ: (groupid=0, jobs=1): err= 0: simulated\n"
                + "  read: IOPS=29.9k, BW=934MiB/s (980MB/s)(2000MiB/2141msec)\n"
                + "    clat (usec): min=30, max=1000, avg=39.71, stdev=96.53\n"
                + "    clat percentiles (usec):\n"
                + "     |  1.00th=[   31],  5.00th=[   31], 10.00th=[   31], 20.00th=[   31],\n"
                + "     | 30.00th=[   31], 40.00th=[   31], 50.00th=[   31], 60.00th=[   31],\n"
                + "     | 70.00th=[   31], 80.00th=[   31], 90.00th=[   31], 95.00th=[   31],\n"
                + "     | 99.00th=[   31], 99.50th=[ 1001], 99.90th=[ 1001], 99.95th=[ 1001],\n"
                + "     | 99.99th=[ 1001]\n"
                + "  cpu          : usr=1.00%, sys=50.00%\n"
                + "  kernel (simulated):\n"
                + "    bios            : 16,000\n"
                + "    pages per bio   : 32.00\n"
                + "    CPU utilisation : 51.0%\n"
                + "\n"
                + "Run status group 0 (all jobs):\n"
                + "   READ: bw=934MiB/s (980MB/s), 934MiB/s-934MiB/s (980MB/s-980MB/s), io=2000MiB (2097MB), "
                + "run=2141-2141msec\n";
        assertEquals(expected, report);
    }

    @Test
    void groupReportingMergesTheClonesAndAddsTheirCounters() {
        FioJob job = JobFile.parse("seed.fio", JobFileTest.SEED000).get(0);
        List<JobResult> results = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            results.add(known(job, c));
        }
        String report = FioReport.fio(results, WorkloadSettings.defaults());
        assertTrue(report.startsWith(FioReport.FIO_HEADER + "\nconfiguration: default\nREAD: (groupid=0, jobs=4): err= 0: "
                + "simulated\n  read: IOPS=120k, BW=3737MiB/s (3918MB/s)(8000MiB/2141msec)\n"), report);
        assertTrue(report.contains("    bios            : 64,000\n    pages per bio   : 32.00\n"
                + "    CPU utilisation : 51.0%\n"), report);
        assertTrue(report.endsWith("   READ: bw=3737MiB/s (3918MB/s), 3737MiB/s-3737MiB/s (3918MB/s-3918MB/s), "
                + "io=8000MiB (8389MB), run=2141-2141msec\n"), report);

        FioJob apart = job.toBuilder().groupReporting(false).build();
        List<JobResult> each = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            each.add(known(apart, c));
        }
        String separate = FioReport.fio(each, WorkloadSettings.defaults());
        assertEquals(4, separate.split("READ: \\(groupid=0, jobs=1\\)", -1).length - 1, separate);
        assertTrue(separate.endsWith("   READ: bw=3737MiB/s (3918MB/s), 934MiB/s-934MiB/s (980MB/s-980MB/s), "
                + "io=8000MiB (8389MB), run=2141-2141msec\n"), separate);
    }

    @Test
    void theXfsIoShapeFollowedByTime() {
        FioJob job = XfsIo.parse(List.of("pwrite -b 128K 0 2G"), "/mnt/btrfs/foo", true).get(0);
        JobResult r = JobResult.builder(job, 0).bytes(2L << 30).ios(16384).runtimeNanos(8_973_000_000L)
                .userCpuNanos(6_000_000L).sysCpuNanos(7_804_000_000L).counter("clones", Counter.count(32768))
                .scaleNote("the full 2 GiB").build();
        String report = FioReport.xfsIo(List.of(r), WorkloadSettings.defaults());
        assertEquals(FioReport.XFS_IO_HEADER + "\n"
                + "configuration: default\n"
                + "scaled: the full 2 GiB\n"
                + "wrote 2147483648/2147483648 bytes at offset 0\n"
                + "2.000 GiB, 16384 ops; 0:00:08.97 (228.240 MiB/sec and 1825.9222 ops/sec)\n"
                + "\n"
                + "real\t0m8.973s\n"
                + "user\t0m0.006s\n"
                + "sys\t0m7.804s\n"
                + "\n"
                + "  kernel (simulated):\n"
                + "    clones : 32,768\n", report);
    }

    @Test
    void countersAddUpByKind() {
        assertEquals("3", Counter.count(1).plus(Counter.count(2)).format());
        assertEquals("2.50", Counter.ratio(2, 1).plus(Counter.ratio(3, 1)).format());
        assertEquals("50.0%", Counter.percent(1, 4).plus(Counter.percent(3, 4)).format());
        assertEquals("-", Counter.ratio(0, 0).format());
        assertEquals("1,234,567", Counter.count(1_234_567).format());
    }
}
