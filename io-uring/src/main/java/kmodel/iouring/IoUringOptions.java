package kmodel.iouring;

import kmodel.kernel.KconfigOption;

/** Kconfig options read by io-uring. */
public final class IoUringOptions {
    private IoUringOptions() {
    }

    /**
     * {@code io_submit_state_start()} sets {@code state->plug.nowait = true}, as it did from
     * b63534c41e20 ("io_uring: re-issue block requests that failed because of resources",
     * v5.9-rc1, with f44268f81295's plug field) until "io_uring: don't unconditionally set
     * plug->nowait = true" (Message-ID 1e9b172d-7f00-b651-7615-313ac055a1d6@kernel.dk, 25 Sep 2020,
     * Fixes: b63534c41e20), which removed it before v5.9: n is v5.9/v5.10 (the stored v5.10
     * fs/io_uring.c has no such line). With y every bio submitted inside
     * {@code io_submit_sqes()} is {@code REQ_NOWAIT}.
     */
    public static final KconfigOption IO_URING_PLUG_NOWAIT = KconfigOption.bool("IO_URING_PLUG_NOWAIT", false,
            "io_submit_state_start() sets plug->nowait (v5.9-rc1 form; n: v5.9 final and v5.10)");

    /**
     * How the io_uring scenarios' workload reads ({@code UringWorld.readAll}): y (default) through
     * the reading task's ring; n: one {@code preadv(2)} after another by the same task, the first
     * baseline of seed 002's table ("preadv for comparison"). With y, {@code
     * ASYNC_BUFFERED_READS} picks the other two: io_uring with the series (y, the default) or
     * without it (n: every buffered read that would block is punted to io-wq, the seed's
     * "Mainline"). Not a kernel option: it chooses the system call a scenario makes.
     */
    public static final KconfigOption URING_READS = KconfigOption.bool("URING_READS", true,
            "scenario workloads read through io_uring (n: preadv(2) one after another, seed 002's baseline)");

    /**
     * {@code num_online_cpus()} as io_uring sees it: the bound io-wq workers are
     * {@code min(sq_entries, 4 * num_online_cpus())}. The checks use 1 (few worker tasks); the
     * simulation sets its CPU count.
     */
    public static final KconfigOption IO_URING_ONLINE_CPUS = KconfigOption.integer("IO_URING_ONLINE_CPUS", 1, 1, 1024,
            "num_online_cpus() for io_uring's io-wq sizing (bound workers: min(sq_entries, 4 * cpus))");

    /**
     * {@code task_rlimit(current, RLIMIT_NPROC)}: io-wq's limit of unbound workers (reads of a
     * block device are unbound work; over the limit {@code io_wq_can_queue()} cancels the work
     * unless the task is {@code CAP_SYS_ADMIN}/{@code CAP_SYS_RESOURCE}). The checks use 2 (few
     * worker tasks); the simulation raises it, as for a privileged benchmark.
     */
    public static final KconfigOption IO_WQ_RLIMIT_NPROC = KconfigOption.integer("IO_WQ_RLIMIT_NPROC", 2, 1, 4096,
            "RLIMIT_NPROC of the ring's task: io-wq's limit of unbound workers");

    /** Every option of this module. */
    public static KconfigOption[] all() {
        return new KconfigOption[] {IO_URING_PLUG_NOWAIT, URING_READS, IO_URING_ONLINE_CPUS, IO_WQ_RLIMIT_NPROC};
    }
}
