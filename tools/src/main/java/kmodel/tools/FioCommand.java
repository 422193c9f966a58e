package kmodel.tools;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import kmodel.tools.fio.FioJob;
import kmodel.tools.fio.FioReport;
import kmodel.tools.fio.JobFile;
import kmodel.tools.fio.JobFileException;
import kmodel.tools.fio.WorkloadRunner;
import kmodel.tools.fio.WorkloadSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code kmodel fio JOBFILE}: runs a fio job file ({@link JobFile}) on the virtual-time
 * simulation of the model and prints the result as fio prints its own ({@link FioReport}),
 * marked simulated. A bad job file, or a job the model cannot run, is one line
 * {@code kmodel: FILE:LINE: what is wrong} and exit 2; a failure of kmodel itself one line and exit 3.
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
            "3:kmodel itself failed"
        })
final class FioCommand extends WorkloadCommand {
    @Parameters(index = "0", paramLabel = "JOBFILE", description = "A fio job file (at most 1 MiB).")
    String jobFile;

    FioCommand() {
    }

    /** A command that runs workloads on what {@code runners} supplies (tests: a fake). */
    FioCommand(Supplier<WorkloadRunner> runners) {
        super(runners);
    }

    @Override
    public Integer call() {
        WorkloadSettings settings = settings();
        List<FioJob> jobs;
        try {
            jobs = JobFile.read(path(jobFile), jobFile);
        } catch (JobFileException e) {
            throw WorkloadCli.refused(spec, e);
        }
        return runJobs(jobs, settings, "fio", results -> FioReport.fio(results, settings));
    }

    private static Path path(String name) {
        try {
            return Path.of(name);
        } catch (InvalidPathException e) {
            throw new JobFileException(name, 0, "not a valid file name");
        }
    }
}
