/**
 * Workload inputs people already have, and output in the shape they know: {@link
 * kmodel.tools.fio.JobFile} parses fio job files and {@link kmodel.tools.fio.XfsIo} the
 * {@code xfs_io -c} command lines of the seeds into immutable {@link kmodel.tools.fio.FioJob}s; a
 * {@link kmodel.tools.fio.WorkloadRunner} (the virtual-time simulator, found through {@link
 * kmodel.tools.fio.WorkloadRunners}) turns them into {@link kmodel.tools.fio.JobResult}s, and
 * {@link kmodel.tools.fio.FioReport} prints those as fio 3.x and xfs_io print theirs, every figure
 * marked simulated. Bad input is one {@link kmodel.tools.fio.JobFileException}: one line naming
 * the file and line.
 */
package kmodel.tools.fio;
