package kmodel.tools;

import com.google.common.base.Ticker;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;
import kmodel.kernel.Kconfig;
import kmodel.tools.fio.FioJob;
import kmodel.tools.fio.JobFileException;
import kmodel.tools.fio.JobResult;
import kmodel.tools.fio.ProgressSink;
import kmodel.tools.fio.SimulatorNotBuiltException;
import kmodel.tools.fio.WorkloadRunner;
import kmodel.tools.fio.Machine;
import kmodel.tools.fio.WorkloadSettings;
import kmodel.verification.KconfigTable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What {@code kmodel fio} and {@code kmodel xfs_io} share: {@code --set} and {@code --scale}
 * into {@link WorkloadSettings}, the run through the {@link WorkloadRunner} with a progress bar,
 * and the exit codes (2 for input or a job the model cannot run, 3 when there is no simulator).
 */
final class WorkloadCli {
    /** The largest N of {@code --scale 1/N}. */
    static final long MAX_SCALE_DIVISOR = 1_000_000;

    private WorkloadCli() {
    }

    /** Parses {@code --scale}: {@code auto}, {@code full} (or 1), or {@code 1/N}. */
    static final class ScaleConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            String v = value.toLowerCase(Locale.ROOT); // as written (Values): no white space
            if (v.equals("auto")) {
                return WorkloadSettings.SCALE_AUTO;
            }
            if (v.equals("full") || v.equals("1") || v.equals("1/1")) {
                return 1L;
            }
            if (v.matches("1/[0-9]{1,7}")) {
                long n = Long.parseLong(v.substring(2));
                if (n >= 1 && n <= MAX_SCALE_DIVISOR) {
                    return n;
                }
            }
            throw new CommandLine.TypeConversionException("expected auto, full or 1/N with N from 1 to "
                    + MAX_SCALE_DIVISOR + ", got '" + value + "'");
        }
    }

    /** {@code --device}, {@code --cpus}, {@code --btrfs-profile}: the simulated machine. */
    static final class MachineOptions {
        @picocli.CommandLine.Option(names = "--device", paramLabel = "sata-ssd|nvme-ssd|pmem",
                description = "The device every disk is (default: the workload's own: sata-ssd for buffered reads of "
                        + "btrfs, nvme-ssd for random reads, pmem for direct writes).")
        String device;

        @picocli.CommandLine.Option(names = "--cpus", paramLabel = "N", defaultValue = "8",
                description = "CPUs of the simulated machine, 1 to 64 (default: ${DEFAULT-VALUE}).")
        int cpus;

        @picocli.CommandLine.Option(names = "--btrfs-profile", paramLabel = "single|raid0|raid1",
                description = "The btrfs volume's data profile (default: single for reads, raid0 over two devices for "
                        + "direct writes).")
        String profile;
    }

    /** The settings of {@code --set} (checked like {@code check --set}) and {@code --scale}. */
    static WorkloadSettings settings(CommandSpec spec, List<String> sets, long scale) {
        MachineOptions m = new MachineOptions();
        m.cpus = Machine.defaults().cpus();
        return settings(spec, null, sets, scale, m);
    }

    /** The same on kernel profile {@code kernel} (null: none) and the machine of {@code m}. */
    static WorkloadSettings settings(CommandSpec spec, String kernel, List<String> sets, long scale, MachineOptions m) {
        Kconfig config;
        Machine machine;
        try {
            config = KconfigTable.build(kernel, sets, List.of());
            // keywords ignore case (Values)
            machine = new Machine(m.device == null ? null : Values.lower(m.device), m.cpus,
                    m.profile == null ? null : Values.lower(m.profile));
        } catch (IllegalArgumentException e) {
            throw new Kmodel.OneLine(spec.commandLine(), e.getMessage());
        }
        return new WorkloadSettings(config, sets, scale, machine);
    }

    /** A refused input or job as the one-line usage error. */
    static Kmodel.OneLine refused(CommandSpec spec, JobFileException e) {
        return new Kmodel.OneLine(spec.commandLine(), e.getMessage());
    }

    /**
     * Runs {@code jobs} on the runner {@code runners} supplies and prints {@code report} of the
     * results; the exit code.
     */
    static int run(CommandSpec spec, List<FioJob> jobs, WorkloadSettings settings, Supplier<WorkloadRunner> runners,
            Ticker ticker, boolean terminal, String label, Function<List<JobResult>, String> report) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        WorkloadRunner runner;
        try {
            runner = runners.get();
        } catch (SimulatorNotBuiltException e) {
            err.println("kmodel: " + Kmodel.oneLine(e.getMessage()));
            err.flush();
            return Kmodel.EXIT_INTERNAL;
        }
        List<JobResult> results;
        ProgressBar bar = new ProgressBar(err, terminal, ticker, label);
        try {
            results = runner.run(jobs, settings, bar);
        } catch (JobFileException e) {
            bar.clear();
            throw refused(spec, e);
        } catch (RuntimeException e) {
            // Anything else is the runner failing, not the input (Kmodel would print an
            // IllegalArgumentException as a usage error): one line, exit 3.
            throw new IllegalStateException("the workload runner failed: " + e, e);
        } finally {
            bar.clear();
        }
        if (results == null) {
            throw new IllegalStateException("the workload runner returned no results");
        }
        out.print(report.apply(results));
        out.flush();
        return 0;
    }

    /**
     * The progress bar of a run on a terminal: drawn on stderr through {@link ProgressLine}, only
     * once the run has taken a second, at most four times a second, erased before the report.
     */
    static final class ProgressBar implements ProgressSink {
        static final long DELAY_NANOS = 1_000_000_000L;
        static final int WIDTH = 30;

        private final boolean terminal;
        private final Ticker ticker;
        private final String label;
        private final ProgressLine line;
        private final long start;
        private long last = Long.MIN_VALUE;

        ProgressBar(PrintWriter err, boolean terminal, Ticker ticker, String label) {
            this.terminal = terminal;
            this.ticker = ticker;
            this.label = label;
            this.line = new ProgressLine(err);
            this.start = ticker.read();
        }

        @Override
        public synchronized void update(long done, long total, long simulatedNanos) {
            if (!terminal) {
                return;
            }
            long now = ticker.read();
            if (now - start < DELAY_NANOS || (last != Long.MIN_VALUE && now - last < ProgressLine.PERIOD_NANOS)) {
                return;
            }
            last = now;
            line.show(render(done, total, simulatedNanos, now - start));
        }

        /** {@code fio [##########          ]  33%  simulated 1.234 s  wall 0:02}. */
        String render(long done, long total, long simulatedNanos, long wallNanos) {
            double f = total <= 0 ? 0 : Math.max(0, Math.min(1, (double) done / total));
            int fill = (int) Math.round(f * WIDTH);
            long wall = wallNanos / 1_000_000_000L;
            return String.format(Locale.ROOT, "%s [%s%s] %3d%%  simulated %.3f s  wall %d:%02d", label,
                    "#".repeat(fill), " ".repeat(WIDTH - fill), Math.round(f * 100), simulatedNanos / 1e9, wall / 60,
                    wall % 60);
        }

        synchronized void clear() {
            line.clear();
        }
    }
}
