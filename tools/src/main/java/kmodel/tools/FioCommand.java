package kmodel.tools;

import com.google.common.base.Ticker;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import kmodel.tools.fio.FioJob;
import kmodel.tools.fio.FioReport;
import kmodel.tools.fio.JobFile;
import kmodel.tools.fio.JobFileException;
import kmodel.tools.fio.WorkloadRunner;
import kmodel.tools.fio.WorkloadRunners;
import kmodel.tools.fio.WorkloadSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kmodel fio JOBFILE}: runs a fio job file ({@link JobFile}) on the virtual-time
 * simulation of the model and prints the result as fio prints its own ({@link FioReport}),
 * marked simulated. A bad job file is one line {@code kmodel: FILE:LINE: what is wrong} and exit
 * 2; without a simulator in the build, one line and exit 3.
 */
@Command(name = "fio",
        mixinStandardHelpOptions = true,
        versionProvider = Kmodel.Version.class,
        sortOptions = false,
        description = "Run a fio job file on the virtual-time simulation of the model; the report has fio's shape "
                + "and every figure is simulated.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the workload ran",
            "2:bad usage, a bad job file, or a job the model cannot run",
            "3:kmodel itself failed (or the simulator is not built)"
        })
final class FioCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--set", paramLabel = "NAME=VALUE",
            description = "Set a Kconfig option (repeatable; see: kmodel options): vanilla or patched forms.")
    List<String> sets = new ArrayList<>();

    @Option(names = "--scale", paramLabel = "auto|full|1/N", defaultValue = "auto",
            converter = WorkloadCli.ScaleConverter.class,
            description = "Run the whole workload (full), 1/N of it, or let the simulator choose (auto, the default); "
                    + "the report says what the run was scaled to.")
    long scale;

    @picocli.CommandLine.Mixin
    WorkloadCli.MachineOptions machine = new WorkloadCli.MachineOptions();

    @Parameters(index = "0", paramLabel = "JOBFILE", description = "A fio job file (at most 1 MiB).")
    String jobFile;

    /** The clock of the progress bar; tests inject a fake one. */
    Ticker ticker = Ticker.systemTicker();

    /** Whether stderr is a terminal (null: ask {@link ProgressLine#stderrIsTerminal()}); tests set it. */
    Boolean terminal;

    private final Supplier<WorkloadRunner> runners;

    FioCommand() {
        this(WorkloadRunners::get);
    }

    /** A command that runs workloads on what {@code runners} supplies (tests: a fake). */
    FioCommand(Supplier<WorkloadRunner> runners) {
        this.runners = runners;
    }

    @Override
    public Integer call() {
        WorkloadSettings settings = WorkloadCli.settings(spec, sets, scale, machine);
        List<FioJob> jobs;
        try {
            jobs = JobFile.read(path(jobFile), jobFile);
        } catch (JobFileException e) {
            throw WorkloadCli.refused(spec, e);
        }
        boolean tty = terminal != null ? terminal : ProgressLine.stderrIsTerminal();
        return WorkloadCli.run(spec, jobs, settings, runners, ticker, tty, "fio",
                results -> FioReport.fio(results, settings));
    }

    private static Path path(String name) {
        try {
            return Path.of(name);
        } catch (InvalidPathException e) {
            throw new JobFileException(name, 0, "not a valid file name");
        }
    }
}
