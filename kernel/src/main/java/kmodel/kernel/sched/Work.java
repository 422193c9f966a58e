package kmodel.kernel.sched;

/**
 * CPU work that model code reports to a virtual-time simulation ({@link Timing}) beyond its
 * scheduling points: the things that cost time in the kernel but are plain Java in the model
 * (copying a page to user space, building a bio, copying a bvec table). Under every other runtime
 * and strategy reporting work does nothing. The cost of each unit is the simulation's
 * (kmodel.sim.CostModel), not the model's.
 */
public enum Work {
    /** Entering and leaving a system call ({@code read(2)}, {@code pwrite(2)}, {@code io_uring_enter(2)}): one unit per call. */
    SYSCALL,
    /** {@code copy_page_to_iter()} / {@code copy_page_from_iter()}: one unit per byte copied. */
    COPY_BYTES,
    /** {@code __page_cache_alloc()} plus {@code add_to_page_cache_lru()}: one unit per page inserted. */
    PAGE_CACHE_ADD,
    /** {@code bio_alloc_bioset()} / {@code btrfs_bio_alloc()}: one unit per bio allocated. */
    BIO_ALLOC,
    /** {@code bio_add_page()}: one unit per page added to a bio. */
    BIO_ADD_PAGE,
    /** {@code bio_clone_fast()} / {@code bio_clone_bioset()}: one unit per clone (its bvec table copy is {@link #BVEC_COPY_BYTES}). */
    BIO_CLONE,
    /** A bvec table copied ({@code bio_clone_bioset()}'s {@code bvec_alloc()} + copy): one unit per byte. */
    BVEC_COPY_BYTES,
    /** {@code blk_mq_submit_bio()}: getting a request and dispatching it: one unit per request. */
    REQUEST,
    /** A completion interrupt: the irq entry and {@code blk_mq_complete_request()}: one unit per request. */
    IRQ,
    /** {@code task_work_run()}: one unit per callback run. */
    TASK_WORK,
    /** io_uring: one SQE consumed or one CQE posted: one unit each. */
    URING_ENTRY,
    /** A checksum verified over a page ({@code btrfs} {@code check_data_csum()}): one unit per page. */
    CSUM_PAGE
}
