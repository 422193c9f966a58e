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

    /**
     * {@code io_ring_ctx_wait_and_kill()} cancels the ring's io-wq with {@code io_wq_cancel_all()}
     * (y: v5.10.0 to 5.10.3): {@code IO_WQ_BIT_CANCEL} is set for good, so every work a worker
     * takes from then on, queued before the close or after it, ends {@code -ECANCELED}; n (the
     * default, 5.10.4 on): {@code io_wq_cancel_cb(io_cancel_ctx_cb, ctx, true)} cancels the
     * ring's pending work once, at the close ("io_uring: make ctx cancel on exit targeted to
     * actual ctx", 00c18640c243, Fixes: 24369c2e3bb0; "[PATCH 5.10 521/717]" of the 5.10.4-rc1
     * review, Message-Id 20201228125045.924030517@linuxfoundation.org). The kernel's reason for
     * the fix, an io-wq shared by rings ({@code IORING_SETUP_ATTACH_WQ}), is not in the model.
     */
    public static final KconfigOption URING_CLOSE_CANCEL_ALL = KconfigOption.bool("URING_CLOSE_CANCEL_ALL", false,
            "ring close cancels io-wq with io_wq_cancel_all(), a bit that stays set (v5.10.0-5.10.3; n: 00c18640c243, 5.10.4)");

    /**
     * A forced {@code io_cqring_overflow_flush()} sets {@code cq_overflow_flushed} (y: v5.10.0 to
     * 5.10.3), so the flush at task exit ({@code io_uring_cancel_task_requests()}) switches the
     * ring to dropping every CQE that does not fit, even while the ring lives on; n (the default,
     * 5.10.4 on): only {@code io_ring_ctx_wait_and_kill()} sets it ("io_uring: cancel reqs
     * shouldnt kill overflow list", cda286f0715c, Fixes: 0f2122045b94; "[PATCH 5.10 507/717]" of
     * the 5.10.4-rc1 review, Message-Id 20201228125045.251872226@linuxfoundation.org).
     */
    public static final KconfigOption URING_FORCE_FLUSH_DROPS = KconfigOption.bool("URING_FORCE_FLUSH_DROPS", false,
            "a forced overflow flush (task exit) makes the ring drop overflowing CQEs for good (v5.10.0-5.10.3; n: cda286f0715c, 5.10.4)");

    /**
     * {@code do_exit()} cancels io_uring in {@code exit_files()}, after {@code exit_signals()} has
     * set {@code PF_EXITING} (y: v5.10.0 to 5.10.4); n (the default, 5.10.5 on): before it
     * ("kernel/io_uring: cancel io_uring before task works", b1b6b5a30dce, v5.11-rc2;
     * "[PATCH 5.10 21/63]" of the 5.10.5 review, Message-Id
     * 20210104155709.846535201@linuxfoundation.org).
     */
    public static final KconfigOption URING_CANCEL_AFTER_EXITING = KconfigOption.bool("URING_CANCEL_AFTER_EXITING", false,
            "do_exit() cancels io_uring in exit_files(), after PF_EXITING (v5.10.0-5.10.4; n: b1b6b5a30dce, 5.10.5)");

    /** Every option of this module. */
    public static KconfigOption[] all() {
        return new KconfigOption[] {IO_URING_PLUG_NOWAIT, URING_READS, IO_URING_ONLINE_CPUS, IO_WQ_RLIMIT_NPROC,
            URING_CLOSE_CANCEL_ALL, URING_FORCE_FLUSH_DROPS, URING_CANCEL_AFTER_EXITING};
    }
}
