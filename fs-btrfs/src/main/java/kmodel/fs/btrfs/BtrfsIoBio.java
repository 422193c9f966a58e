package kmodel.fs.btrfs;

import kmodel.block.Bio;
import kmodel.block.BvecIter;

/**
 * fs/btrfs/volumes.h: {@code struct btrfs_io_bio} (v5.10): the front pad of every bio btrfs
 * allocates from {@code btrfs_bioset}, reached with {@code btrfs_io_bio(bio)} (a
 * {@code container_of}; a cast here).
 */
public final class BtrfsIoBio extends Bio {
    /** {@code mirror_num}: the copy the data came from, set by {@code btrfs_end_bio()}. */
    public int mirrorNum;
    /** {@code csum}: one crc32c per sector of the bio, or null ({@code nodatasum}, compressed). */
    public int[] csum;
    /**
     * Where {@link #csum} starts in that array: a split direct-read piece points into its
     * original bio's checksums ({@code orig_csum + (file_offset - logical_offset) >> blocksize_bits},
     * v4.13 {@code btrfs_lookup_and_bind_dio_csum()}); 0 otherwise.
     */
    public int csumOffset;
    /** {@code iter}: {@code bi_iter} saved at submit time (seed 001, 17347cec15f9). */
    public final BvecIter iter = new BvecIter();
    /** {@code logical}: the file offset of a direct I/O piece (unused by buffered reads). */
    public long logical;
    /** {@code device}: the device a stripe bio was sent to. */
    public BtrfsDevice device;
    /** {@code stripe_index}. */
    public int stripeIndex;

    public BtrfsIoBio(String name) {
        super(name);
    }

    /** fs/btrfs/volumes.h: {@code btrfs_io_bio(bio)}. */
    public static BtrfsIoBio btrfsIoBio(Bio bio) {
        return (BtrfsIoBio) bio;
    }
}
