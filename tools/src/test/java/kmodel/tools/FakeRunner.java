package kmodel.tools;

import java.util.ArrayList;
import java.util.List;
import kmodel.tools.fio.Counter;
import kmodel.tools.fio.FioJob;
import kmodel.tools.fio.JobResult;
import kmodel.tools.fio.ProgressSink;
import kmodel.tools.fio.WorkloadRunner;
import kmodel.tools.fio.WorkloadSettings;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;

/**
 * A {@link WorkloadRunner} for the command's tests (never the simulator): every I/O takes 20
 * µs of virtual time and 5 µs of system CPU, instantly and deterministically, whatever the size;
 * it reports progress at each job's end and remembers what it was asked to run.
 */
final class FakeRunner implements WorkloadRunner {
    /** Virtual time of one I/O. */
    static final long IO_NANOS = 20_000;

    final List<List<FioJob>> runs = new ArrayList<>();
    final List<WorkloadSettings> settings = new ArrayList<>();

    @Override
    public List<JobResult> run(List<FioJob> jobs, WorkloadSettings s, ProgressSink progress) {
        runs.add(jobs);
        settings.add(s);
        List<JobResult> out = new ArrayList<>();
        long total = jobs.size();
        long done = 0;
        for (FioJob j : jobs) {
            long ios = (j.size() + j.bs() - 1) / j.bs();
            for (int c = 0; c < j.numjobs(); c++) {
                Histogram h = new Histogram(3);
                h.recordValueWithCount(IO_NANOS, ios);
                out.add(JobResult.builder(j, c).bytes(j.size()).ios(ios).runtimeNanos(ios * IO_NANOS).clatNanos(h)
                        .userCpuNanos(ios * 100).sysCpuNanos(ios * 5000)
                        .counter(Counter.BIOS, Counter.count(ios))
                        .counter(Counter.PAGES_PER_BIO, Counter.ratio(j.size() / 4096, ios))
                        .counter(Counter.CPU_UTILISATION, Counter.percent(ios * 5100, ios * IO_NANOS))
                        .scaleNote(s.scaleDivisor() > 1 ? "1/" + s.scaleDivisor() + " of the workload" : null)
                        .build());
            }
            progress.update(++done, total, ios * IO_NANOS);
        }
        return out;
    }

    /** A factory making fio and xfs_io commands that run on {@code runner}, with stderr not a terminal. */
    static CommandLine.IFactory factory(WorkloadRunner runner) {
        return new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> cls) throws Exception {
                if (cls == FioCommand.class) {
                    FioCommand c = new FioCommand(() -> runner);
                    c.terminal = false;
                    return cls.cast(c);
                }
                if (cls == XfsIoCommand.class) {
                    XfsIoCommand c = new XfsIoCommand(() -> runner);
                    c.terminal = false;
                    return cls.cast(c);
                }
                return CommandLine.defaultFactory().create(cls);
            }
        };
    }
}
