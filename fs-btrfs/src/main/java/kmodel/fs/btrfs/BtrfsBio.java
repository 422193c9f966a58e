package kmodel.fs.btrfs;

import kmodel.block.Bio;
import kmodel.block.BioEndIo;
import kmodel.kernel.atomic.AtomicT;

/**
 * fs/btrfs/volumes.h: {@code struct btrfs_bio} (v5.10; "bbio"): the result of
 * {@code __btrfs_map_block()} (where each stripe of a logical range lives) and, once
 * {@code btrfs_map_bio()} sent it, the bookkeeping of the per-stripe bios: {@code stripes_pending},
 * {@code error}, and the original bio's {@code bi_private}/{@code bi_end_io}, restored before it is
 * completed.
 */
public final class BtrfsBio {
    /** {@code stripes_pending}: stripe bios still in flight. */
    public final AtomicT stripesPending;
    /** {@code error}: stripe bios that failed. */
    public final AtomicT error;
    /** {@code orig_bio}. */
    public Bio origBio;
    /** {@code private}: the original bio's {@code bi_private}. */
    public Object private_;
    /** {@code end_io}: the original bio's {@code bi_end_io}. */
    public BioEndIo endIo;
    /** {@code map_type}. */
    public long mapType;
    /** {@code num_stripes}. */
    public int numStripes;
    /** {@code max_errors}: stripe failures tolerated (a RAID1 write survives one). */
    public int maxErrors;
    /** {@code mirror_num}. */
    public int mirrorNum;
    /** {@code stripes[i].dev}. */
    public final BtrfsDevice[] dev;
    /** {@code stripes[i].physical}. */
    public final long[] physical;

    BtrfsBio(String name, int numStripes) {
        this.stripesPending = new AtomicT(name + ".stripes_pending", 0);
        this.error = new AtomicT(name + ".error", 0);
        this.numStripes = numStripes;
        this.dev = new BtrfsDevice[numStripes];
        this.physical = new long[numStripes];
    }
}
