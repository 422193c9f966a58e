package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.base.Ticker;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import kmodel.fs.btrfs.BtrfsOptions;
import kmodel.tools.fio.Examples;
import kmodel.tools.fio.FioJob;
import kmodel.tools.fio.FioReport;
import kmodel.tools.fio.JobFileException;
import kmodel.tools.fio.SimulatorNotBuiltException;
import kmodel.tools.fio.WorkloadRunner;
import kmodel.tools.fio.WorkloadSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code kmodel fio} and {@code kmodel xfs_io} on a {@link FakeRunner}: the good paths, the exit codes, the progress bar. */
class FioCliTest {
    private final FakeRunner fake = new FakeRunner();

    private CliRun kmodel(String... args) {
        return CliRun.kmodel(FakeRunner.factory(fake), false, args);
    }

    private static String seed000() {
        return Examples.path(Examples.SEED000).toString();
    }

    @Test
    void fioRunsTheSeedJobFileAndPrintsAReportMarkedSimulated() {
        CliRun r = kmodel("fio", "--set", "BTRFS_READPAGES=0", seed000());
        CliOracle.assertSound(r);
        assertEquals(0, r.code, r::toString);
        List<String> lines = CliRun.lines(r.out);
        assertEquals(FioReport.FIO_HEADER, lines.get(0));
        assertEquals("configuration: BTRFS_READPAGES=0", lines.get(1));
        assertTrue(r.out.contains("READ: (groupid=0, jobs=4): err= 0: simulated\n"), r::toString);
        assertTrue(r.out.contains("Run status group 0 (all jobs):\n   READ: bw="), r::toString);
        assertEquals(1, fake.runs.size());
        FioJob job = fake.runs.get(0).get(0);
        assertEquals(4, job.numjobs());
        assertEquals(0, fake.settings.get(0).config().value(BtrfsOptions.BTRFS_READPAGES));
        assertEquals(List.of("BTRFS_READPAGES=0"), fake.settings.get(0).assignments());
        assertEquals(WorkloadSettings.SCALE_AUTO, fake.settings.get(0).scaleDivisor());
    }

    @Test
    void scaleIsPassedOnAndTheReportSaysWhatTheRunWasScaledTo() {
        CliRun r = kmodel("fio", "--scale", "1/16", seed000());
        assertEquals(0, r.code, r::toString);
        assertEquals(16, fake.settings.get(0).scaleDivisor());
        assertTrue(r.out.contains("\nscaled: 1/16 of the workload\n"), r::toString);
        assertEquals(1, kmodel("fio", "--scale", "full", seed000()).code == 0 ? fake.settings.get(1).scaleDivisor() : -1);
        for (String bad : new String[] {"0", "1/0", "2", "1/99999999", "half", "-1", ""}) {
            CliRun b = kmodel("fio", "--scale", bad, seed000());
            CliOracle.assertSound(b);
            assertEquals(Kmodel.EXIT_USAGE, b.code, b::toString);
        }
    }

    @Test
    void xfsIoRunsSeed001sCommandLine() {
        CliRun r = kmodel("xfs_io", "--set", "BTRFS_DIO_CLONE=0", "-d", "-c", "pwrite -b 128K 0 2G", "foo");
        CliOracle.assertSound(r);
        assertEquals(0, r.code, r::toString);
        List<String> lines = CliRun.lines(r.out);
        assertEquals(FioReport.XFS_IO_HEADER, lines.get(0));
        assertEquals("configuration: BTRFS_DIO_CLONE=0", lines.get(1));
        assertEquals("wrote 2147483648/2147483648 bytes at offset 0", lines.get(2));
        // 16384 ops of 20 us: 0.327680 s.
        assertEquals("2.000 GiB, 16384 ops; 0.3276 sec (6.104 GiB/sec and 50000.0000 ops/sec)", lines.get(3));
        assertEquals("", lines.get(4));
        assertEquals("real\t0m0.327s", lines.get(5));
        assertEquals("user\t0m0.001s", lines.get(6));
        assertEquals("sys\t0m0.081s", lines.get(7));
        FioJob job = fake.runs.get(0).get(0);
        assertTrue(job.direct());
        assertEquals(131072, job.bs());
    }

    @Test
    void xfsIoWithOnlyFallocRunsNothing() {
        CliRun r = kmodel("xfs_io", "-f", "-c", "falloc 0 2G", "foo");
        assertEquals(0, r.code, r::toString);
        assertTrue(fake.runs.isEmpty());
        assertEquals(FioReport.XFS_IO_HEADER + "\nconfiguration: default\n"
                + "no I/O to run (falloc is accepted and does nothing in the model)\n", r.out);
    }

    @Test
    void badInputIsOneLineNamingTheFileAndLine(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("bad.fio");
        Files.writeString(f, "[global]\nbs=3x\n[j]\nsize=1m\n");
        CliRun r = kmodel("fio", f.toString());
        CliOracle.assertSound(r);
        assertEquals(Kmodel.EXIT_USAGE, r.code);
        assertEquals("kmodel: " + f + ":2: bs='3x': not a size (a whole number with an optional suffix: k, m, g, t; "
                + "e.g. 32k)\n", r.err);
        CliRun x = kmodel("xfs_io", "-c", "pwrite -b 3x 0 2G", "foo");
        CliOracle.assertSound(x);
        assertEquals("kmodel: xfs_io -c:1: 'pwrite -b 3x 0 2G': non-numeric bsize argument -- '3x'\n", x.err);
        CliRun set = kmodel("fio", "--set", "NO_SUCH_OPTION=1", seed000());
        CliOracle.assertSound(set);
        assertEquals(Kmodel.EXIT_USAGE, set.code);
        assertTrue(set.err.startsWith("kmodel: --set: unknown option 'NO_SUCH_OPTION'"), set::toString);
        CliRun range = kmodel("xfs_io", "--set", "BTRFS_DIO_CLONE=7", "-c", "pwrite 0 1m", "foo");
        CliOracle.assertSound(range);
        assertEquals(Kmodel.EXIT_USAGE, range.code);
        assertTrue(fake.runs.isEmpty(), "nothing ran");
        CliRun missing = kmodel("fio", dir.resolve("nope.fio").toString());
        assertEquals("kmodel: " + dir.resolve("nope.fio") + ": no such file\n", missing.err);
    }

    @Test
    void aJobTheModelCannotRunIsOneLineAndExit2() {
        WorkloadRunner refusing = (jobs, s, p) -> {
            throw JobFileException.notModelled(jobs.get(0), "rw=read with thread=1 on ext4");
        };
        CliRun r = CliRun.kmodel(FakeRunner.factory(refusing), false, "fio", seed000());
        CliOracle.assertSound(r);
        assertEquals(Kmodel.EXIT_USAGE, r.code);
        assertEquals("kmodel: " + seed000() + ":20: job 'READ': rw=read with thread=1 on ext4: not modelled\n", r.err);
    }

    @Test
    void aRunnerThatFailsIsAnInternalErrorNotAUsageError() {
        WorkloadRunner crashing = (jobs, s, p) -> {
            throw new NumberFormatException("boom");
        };
        CliRun r = CliRun.kmodel(FakeRunner.factory(crashing), false, "fio", seed000());
        assertEquals(Kmodel.EXIT_INTERNAL, r.code, r::toString);
        assertEquals(List.of("kmodel: internal error: java.lang.IllegalStateException: the workload runner failed: "
                + "java.lang.NumberFormatException: boom (set KMODEL_DEBUG=1 for the stack trace)"), r.errLines());
        assertFalse(CliOracle.problems(r).isEmpty(), "the fuzz oracle would flag it");
    }

    @Test
    void withoutTheSimulatorItIsOneLineAndExit3() {
        CommandLine.IFactory noSimulator = new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> cls) throws Exception {
                if (cls == FioCommand.class) {
                    return cls.cast(new FioCommand(() -> {
                        throw new SimulatorNotBuiltException();
                    }));
                }
                return CommandLine.defaultFactory().create(cls);
            }
        };
        CliRun r = CliRun.kmodel(noSimulator, false, "fio", seed000());
        assertEquals(Kmodel.EXIT_INTERNAL, r.code, r::toString);
        assertEquals("", r.out);
        assertEquals(List.of("kmodel: the simulator is not built (kmodel.sim is not in this build): "
                + "the workload was parsed but cannot run"), r.errLines());
        // A bad job file is still exit 2: the input is checked before the simulator is looked for.
        CliRun bad = CliRun.kmodel(noSimulator, false, "fio", "--set", "X=1", seed000());
        assertEquals(Kmodel.EXIT_USAGE, bad.code, bad::toString);
    }

    /** A ticker that advances 300 ms each time it is read. */
    private static final class SteppingTicker extends Ticker {
        long now;

        @Override
        public long read() {
            long t = now;
            now += 300_000_000L;
            return t;
        }
    }

    @Test
    void theProgressBarShowsOnATerminalAfterASecondAndIsErased() {
        StringWriter err = new StringWriter();
        SteppingTicker ticker = new SteppingTicker();
        WorkloadCli.ProgressBar bar = new WorkloadCli.ProgressBar(new PrintWriter(err, true), true, ticker, "fio");
        bar.update(1, 4, 1_000_000_000L); // 0.3 s: too early
        bar.update(2, 4, 2_000_000_000L); // 0.6 s
        bar.update(3, 4, 3_000_000_000L); // 0.9 s
        assertEquals("", err.toString(), "nothing in the first second");
        bar.update(3, 4, 3_000_000_000L); // 1.2 s: drawn
        assertTrue(err.toString().contains("fio [#######################       ]  75%  simulated 3.000 s  wall 0:01"),
                err::toString);
        bar.clear();
        assertTrue(err.toString().endsWith("\r\u001b[K"), "erased");
        StringWriter quiet = new StringWriter();
        WorkloadCli.ProgressBar off = new WorkloadCli.ProgressBar(new PrintWriter(quiet, true), false, new SteppingTicker(), "fio");
        for (int i = 0; i < 10; i++) {
            off.update(i, 10, i);
        }
        off.clear();
        assertEquals("", quiet.toString(), "no bar when stderr is not a terminal");
    }

    @Test
    void theRealCommandLineListsFioAndXfsIo() {
        CliRun r = CliRun.kmodel("fio", "--help");
        assertEquals(0, r.code, r::toString);
        assertTrue(r.out.contains("JOBFILE"), r::toString);
        CliRun x = CliRun.kmodel("xfs_io", "--help");
        assertEquals(0, x.code, x::toString);
        assertFalse(x.out.isEmpty());
    }
}
