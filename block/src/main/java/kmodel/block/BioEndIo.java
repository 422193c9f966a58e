package kmodel.block;

/**
 * include/linux/blk_types.h: {@code typedef void (bio_end_io_t) (struct bio *)}. Called by
 * {@link BlockBio#bioEndio}, usually in interrupt context (a disk completion task, which must not
 * sleep), but synchronously in the submitter's context when {@code submit_bio()} fails a bio
 * early ({@code BLK_STS_AGAIN}, {@code BLK_STS_NOTSUPP}, end of device).
 *
 * <p>At that point the block layer has consumed {@code bio->bi_iter} ({@code bi_size == 0}): an
 * end_io that walks the data must use a saved iterator or {@code bio_for_each_segment_all()} on a
 * bio it owns (seed 001, "Btrfs: change how we iterate bios in endio").
 */
public interface BioEndIo {
    /** {@code bio->bi_end_io(bio)}. */
    void endIo(Bio bio);
}
