package kmodel.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import kmodel.tools.fio.FioJob;
import kmodel.tools.fio.FioReport;
import kmodel.tools.fio.JobFileException;
import kmodel.tools.fio.WorkloadRunner;
import kmodel.tools.fio.WorkloadSettings;
import kmodel.tools.fio.XfsIo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kmodel xfs_io [-d] [-f] -c CMD... FILE}: runs xfs_io's {@code pwrite}/{@code pread}
 * commands ({@link XfsIo}; seed 001: {@code -d -c "pwrite -b 128K 0 2G"}) on the virtual-time
 * simulation of the model and prints xfs_io's lines and a {@code time}-like block ({@link
 * FioReport#xfsIo}), marked simulated. A bad command, or one the model cannot run, is one line
 * and exit 2; a failure of kmodel itself one line and exit 3.
 */
@Command(name = "xfs_io",
        sortOptions = false,
        description = "Run xfs_io pwrite/pread commands on the virtual-time simulation of the model; the report has "
                + "xfs_io's shape and every figure is simulated.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the commands ran",
            "2:bad usage, a bad command, or one the model cannot run",
            "3:kmodel itself failed"
        })
final class XfsIoCommand extends WorkloadCommand {
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

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

    XfsIoCommand() {
    }

    /** A command that runs workloads on what {@code runners} supplies (tests: a fake). */
    XfsIoCommand(Supplier<WorkloadRunner> runners) {
        super(runners);
    }

    @Override
    public Integer call() {
        WorkloadSettings settings = settings();
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
        return runJobs(jobs, settings, "xfs_io", results -> FioReport.xfsIo(results, settings));
    }
}
