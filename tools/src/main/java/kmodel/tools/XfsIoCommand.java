package kmodel.tools;

import com.google.common.base.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import kmodel.tools.fio.FioJob;
import kmodel.tools.fio.FioReport;
import kmodel.tools.fio.JobFileException;
import kmodel.tools.fio.WorkloadRunner;
import kmodel.tools.fio.WorkloadRunners;
import kmodel.tools.fio.WorkloadSettings;
import kmodel.tools.fio.XfsIo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kmodel xfs_io [-d] [-f] -c CMD... FILE}: runs xfs_io's {@code pwrite}/{@code pread}
 * commands ({@link XfsIo}; seed 001: {@code -d -c "pwrite -b 128K 0 2G"}) on the virtual-time
 * simulation of the model and prints xfs_io's lines and a {@code time}-like block ({@link
 * FioReport#xfsIo}), marked simulated. A bad command is one line and exit 2; without a simulator
 * in the build, one line and exit 3.
 */
@Command(name = "xfs_io",
        sortOptions = false,
        description = "Run xfs_io pwrite/pread commands on the virtual-time simulation of the model; the report has "
                + "xfs_io's shape and every figure is simulated.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the commands ran",
            "2:bad usage, a bad command, or one the model cannot run",
            "3:kmodel itself failed (or the simulator is not built)"
        })
final class XfsIoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Option(names = "--set", paramLabel = "NAME=VALUE",
            description = "Set a Kconfig option (repeatable; see: kmodel options): vanilla or patched forms.")
    List<String> sets = new ArrayList<>();

    @Option(names = "--scale", paramLabel = "auto|full|1/N", defaultValue = "auto",
            converter = WorkloadCli.ScaleConverter.class,
            description = "Run the whole workload (full), 1/N of it, or let the simulator choose (auto, the default).")
    long scale;

    @picocli.CommandLine.Mixin
    WorkloadCli.MachineOptions machine = new WorkloadCli.MachineOptions();

    @Option(names = "-d", description = "O_DIRECT (xfs_io -d).")
    boolean direct;

    @Option(names = "-f", description = "Create the file if needed (xfs_io -f; the model's file always exists).")
    boolean create;

    @Option(names = "-c", paramLabel = "CMD",
            description = "A command: pwrite [-q] [-b bsize] off len, pread [-q] [-b bsize] off len, falloc [-k] off len "
                    + "(repeatable; run in order).")
    List<String> commands = new ArrayList<>();

    @Parameters(index = "0", paramLabel = "FILE", description = "The file.")
    String file;

    /** The clock of the progress bar; tests inject a fake one. */
    Ticker ticker = Ticker.systemTicker();

    /** Whether stderr is a terminal (null: ask {@link ProgressLine#stderrIsTerminal()}); tests set it. */
    Boolean terminal;

    private final Supplier<WorkloadRunner> runners;

    XfsIoCommand() {
        this(WorkloadRunners::get);
    }

    /** A command that runs workloads on what {@code runners} supplies (tests: a fake). */
    XfsIoCommand(Supplier<WorkloadRunner> runners) {
        this.runners = runners;
    }

    @Override
    public Integer call() {
        WorkloadSettings settings = WorkloadCli.settings(spec, sets, scale, machine);
        List<FioJob> jobs;
        try {
            jobs = XfsIo.parse(commands, file, direct);
        } catch (JobFileException e) {
            throw WorkloadCli.refused(spec, e);
        }
        if (jobs.isEmpty()) {
            spec.commandLine().getOut().print(FioReport.xfsIo(List.of(), settings));
            spec.commandLine().getOut().flush();
            return 0;
        }
        boolean tty = terminal != null ? terminal : ProgressLine.stderrIsTerminal();
        return WorkloadCli.run(spec, jobs, settings, runners, ticker, tty, "xfs_io",
                results -> FioReport.xfsIo(results, settings));
    }
}
