package kmodel.tools.fio;

import java.util.List;

/**
 * Runs workloads on the model: the virtual-time simulator ({@code kmodel.sim}),
 * plugged in through {@link WorkloadRunners#get()}; tests use fakes. {@code kmodel fio} and
 * {@code kmodel xfs_io} parse their input into {@link FioJob}s and hand them here.
 */
@FunctionalInterface
public interface WorkloadRunner {
    /**
     * Runs {@code jobs} (fio jobs side by side, all in one group; xfs_io jobs ({@link
     * FioJob.Origin#XFS_IO}) one after another) on the configuration of {@code settings}.
     *
     * @return one result per clone of each job ({@code numjobs} per job), jobs in order, clones
     *     in order; deterministic: the same jobs and settings give the same results
     * @throws JobFileException for a job the model cannot run ({@link JobFileException#notModelled});
     *     the command prints it as one line and exits 2
     */
    List<JobResult> run(List<FioJob> jobs, WorkloadSettings settings, ProgressSink progress);
}
