package kmodel.block;

/**
 * The model's three kinds of device, as far as {@code REQ_NOWAIT} goes. Pass one to
 * {@link Disk#Disk(BlockLayer, String, long, int, DiskKind)} or
 * {@code kmodel.fs.blockdev.Bdev.create(int, int, int, DiskKind)}.
 */
public enum DiskKind {
    /**
     * A blk-mq device ({@code QUEUE_FLAG_NOWAIT} set, as every blk-mq queue has it in v5.10): a
     * {@code REQ_NOWAIT} bio that finds no free tag fails with {@code BLK_STS_AGAIN} in the
     * submitter's context ({@code bio_wouldblock_error()} in {@code blk_mq_submit_bio()}); any
     * other bio sleeps for a tag. Every model device before issue 9 was of this kind.
     */
    NOWAIT,
    /**
     * A device that does not support {@code REQ_NOWAIT} ({@code QUEUE_FLAG_NOWAIT} clear): in
     * v5.10 a bio-based queue whose driver does not set the flag (device mapper tables other than
     * dm-linear, md: {@code !blk_queue_nowait(q)}), whose
     * {@code submit_bio_checks()} fails every {@code REQ_NOWAIT} bio with
     * {@code BLK_STS_NOTSUPP} ({@code -EOPNOTSUPP}) at submission, in the submitter's context.
     * Bios without {@code REQ_NOWAIT} are served as on {@link #NOWAIT}.
     */
    NO_NOWAIT,
    /**
     * A blk-mq device whose driver accepts a {@code REQ_NOWAIT} request and then fails it with
     * {@code BLK_STS_AGAIN} in its completion interrupt, transferring nothing, as a driver that
     * runs out of resources after {@code ->queue_rq()} does; the caller learns of it only in
     * {@code bi_end_io}, in interrupt context (what io_uring's {@code io_rw_reissue()} handles).
     * Every {@code REQ_NOWAIT} request fails so; other requests complete normally. Tag exhaustion
     * behaves as on {@link #NOWAIT}.
     */
    AGAIN_AT_COMPLETION
}
