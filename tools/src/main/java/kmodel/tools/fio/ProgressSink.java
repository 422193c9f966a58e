package kmodel.tools.fio;

/**
 * Where a {@link WorkloadRunner} reports how far a run has got, for a progress bar: any thread,
 * as often as it likes (the command draws at most four times a second, and only on a terminal,
 * for runs longer than a second).
 */
@FunctionalInterface
public interface ProgressSink {
    /** A sink that ignores everything (tests, reports). */
    ProgressSink NONE = (done, total, simulatedNanos) -> { };

    /**
     * {@code done} of {@code total} units of work (bytes, I/Os: the runner's choice) are finished,
     * and the virtual clock reads {@code simulatedNanos}.
     */
    void update(long done, long total, long simulatedNanos);
}
