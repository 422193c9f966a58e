package kmodel.fs.btrfs;

/**
 * fs/btrfs/extent_io.h: {@code struct io_failure_record} (v5.10): a block being repaired, kept in the
 * inode's {@code io_failure_tree} until a copy verifies or every mirror failed.
 */
final class IoFailureRecord {
    /** {@code page}. */
    kmodel.mm.Page page;
    /** {@code start}: file offset. */
    long start;
    /** {@code len}. */
    long len;
    /** {@code logical}: disk address. */
    long logical;
    /** {@code bio_flags}. */
    int bioFlags;
    /** {@code this_mirror}: the mirror being tried. */
    int thisMirror;
    /** {@code failed_mirror}. */
    int failedMirror;
    /** {@code in_validation}. */
    boolean inValidation;
}
