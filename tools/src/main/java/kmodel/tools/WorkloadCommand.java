package kmodel.tools;

import com.google.common.base.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;
import kmodel.tools.fio.FioJob;
import kmodel.tools.fio.JobResult;
import kmodel.tools.fio.WorkloadRunner;
import kmodel.tools.fio.WorkloadRunners;
import kmodel.tools.fio.WorkloadSettings;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * What {@code kmodel fio} and {@code kmodel xfs_io} have in common: {@code --set},
 * {@code --scale} and the simulated machine ({@link WorkloadCli.MachineOptions}), the runner the
 * jobs go to, and the progress bar's clock and terminal test (both injectable by tests).
 */
abstract class WorkloadCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--set", paramLabel = "NAME=VALUE",
            description = "Set a Kconfig option (repeatable; see: kmodel options): vanilla or patched forms.")
    List<String> sets = new ArrayList<>();

    @Option(names = "--kernel", paramLabel = "PROFILE",
            description = "Kernel profile under the --set forms: every option as that kernel had it, and its known bugs "
                    + "(see: kmodel options). Default: none, the options' declared defaults (the seeds' forms), as the "
                    + "documented figures were measured.")
    String kernel;

    @Option(names = "--scale", paramLabel = "auto|full|1/N", defaultValue = "auto",
            converter = WorkloadCli.ScaleConverter.class,
            description = "Run the whole workload (full), 1/N of it, or let the simulator choose (auto, the default); "
                    + "the report says what the run was scaled to.")
    long scale;

    @Mixin
    WorkloadCli.MachineOptions machine = new WorkloadCli.MachineOptions();

    /** The clock of the progress bar; tests inject a fake one. */
    Ticker ticker = Ticker.systemTicker();

    /** Whether stderr is a terminal (null: ask {@link ProgressLine#stderrIsTerminal()}); tests set it. */
    Boolean terminal;

    private final Supplier<WorkloadRunner> runners;

    WorkloadCommand() {
        this(WorkloadRunners::get);
    }

    /** A command that runs workloads on what {@code runners} supplies (tests: a fake). */
    WorkloadCommand(Supplier<WorkloadRunner> runners) {
        this.runners = runners;
    }

    /** The settings of this command line ({@code --kernel}, {@code --set}, {@code --scale}, the machine). */
    WorkloadSettings settings() {
        return WorkloadCli.settings(spec, kernel, sets, scale, machine);
    }

    /** Runs {@code jobs} with a progress bar named {@code what} and prints {@code report} of the results; the exit code. */
    int runJobs(List<FioJob> jobs, WorkloadSettings settings, String what, Function<List<JobResult>, String> report) {
        boolean tty = terminal != null ? terminal : ProgressLine.stderrIsTerminal();
        return WorkloadCli.run(spec, jobs, settings, runners, ticker, tty, what, report);
    }
}
