package kmodel.fs.btrfs;

/**
 * fs/btrfs/volumes.h: {@code struct map_lookup} (v5.10) together with the chunk's own extent map
 * ({@code em->start}, {@code em->len} of the chunk mapping tree): how one chunk of the logical
 * address space is laid on the devices. The model's volume has one data chunk.
 */
public final class MapLookup {
    /** fs/btrfs/ctree.h: {@code BTRFS_BLOCK_GROUP_DATA}. */
    public static final long BTRFS_BLOCK_GROUP_DATA = 1L << 0;
    /** fs/btrfs/ctree.h: {@code BTRFS_BLOCK_GROUP_RAID0}. */
    public static final long BTRFS_BLOCK_GROUP_RAID0 = 1L << 3;
    /** fs/btrfs/ctree.h: {@code BTRFS_BLOCK_GROUP_RAID1}. */
    public static final long BTRFS_BLOCK_GROUP_RAID1 = 1L << 4;
    /** fs/btrfs/ctree.h: {@code BTRFS_BLOCK_GROUP_PROFILE_MASK}, the profiles modelled (SINGLE has no bit). */
    public static final long BTRFS_BLOCK_GROUP_PROFILE_MASK = BTRFS_BLOCK_GROUP_RAID0 | BTRFS_BLOCK_GROUP_RAID1;
    /** fs/btrfs/volumes.h: {@code BTRFS_STRIPE_LEN}: 64 KiB. */
    public static final int BTRFS_STRIPE_LEN = 64 * 1024;

    /** The chunk's logical start ({@code em->start} of the chunk map). */
    public final long start;
    /** The chunk's logical length ({@code em->len}). */
    public final long len;
    /** {@code type}: {@code BTRFS_BLOCK_GROUP_DATA} and the profile bit. */
    public final long type;
    /** {@code stripe_len}. */
    public final int stripeLen;
    /** {@code num_stripes}. */
    public final int numStripes;
    /** {@code stripes[i].dev}. */
    public final BtrfsDevice[] dev;
    /** {@code stripes[i].physical}: byte offset of the stripe on its device. */
    public final long[] physical;

    public MapLookup(long start, long len, long type, int stripeLen, BtrfsDevice[] dev, long[] physical) {
        this.start = start;
        this.len = len;
        this.type = type;
        this.stripeLen = stripeLen;
        this.numStripes = dev.length;
        this.dev = dev;
        this.physical = physical;
    }

    /** The profile's name. */
    public String profile() {
        if ((type & BTRFS_BLOCK_GROUP_RAID0) != 0) {
            return "RAID0";
        }
        if ((type & BTRFS_BLOCK_GROUP_RAID1) != 0) {
            return "RAID1";
        }
        return "SINGLE";
    }
}
