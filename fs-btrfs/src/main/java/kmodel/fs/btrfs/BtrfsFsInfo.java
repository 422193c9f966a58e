package kmodel.fs.btrfs;

import java.util.TreeMap;
import kmodel.block.BioSet;
import kmodel.block.BlockLayer;
import kmodel.kernel.locking.Spinlock;

/**
 * fs/btrfs/ctree.h: {@code struct btrfs_fs_info} (v5.10), the parts the data path needs: the
 * devices, the chunk mapping (one data chunk, {@link MapLookup}), {@code btrfs_bioset}, the
 * {@code sectorsize} (= {@code PAGE_SIZE}), the {@code nodatasum} mount option, and the data
 * checksums.
 *
 * <h2>The checksum tree</h2>
 * Not a b-tree: a map from the logical byte address of each data sector to its crc32c, filled at
 * set-up (as if the data had been written), looked up by {@code btrfs_lookup_bio_sums()}. Lock
 * rule: changed only at set-up; read without a lock (the kernel searches the csum root under its
 * own path locks, which no reader here contends).
 */
public final class BtrfsFsInfo {
    /** The block layer the devices belong to. */
    public final BlockLayer layer;
    /** {@code fs_devices->devices}. */
    public final BtrfsDevice[] devices;
    /** The data chunk. */
    public final MapLookup chunk;
    /** fs/btrfs/extent_io.c: {@code btrfs_bioset} (front pad {@code struct btrfs_io_bio}). */
    public final BioSet btrfsBioset;
    /** {@code sectorsize}. */
    public final int sectorsize = kmodel.mm.Page.PAGE_SIZE;
    /** Mount option {@code nodatasum}: new inodes get {@code BTRFS_INODE_NODATASUM}. */
    public final boolean nodatasum;
    /** The csum tree: logical sector address -> crc32c. Set-up only. */
    final TreeMap<Long, Integer> csums = new TreeMap<>();
    /** Counters. */
    public final BtrfsStats stats = new BtrfsStats();
    /** Calls of {@code btrfs_bio_alloc()} so far, for {@code BTRFS_BIO_ALLOC_FAIL}; under {@link #allocLock}. */
    int bioAllocs;
    final Spinlock allocLock = new Spinlock("btrfs_bioset.lock");
    /** Next free logical byte of the data chunk (set-up allocator for file extents). */
    long nextLogical;

    BtrfsFsInfo(BlockLayer layer, BtrfsDevice[] devices, MapLookup chunk, boolean nodatasum) {
        this.layer = layer;
        this.devices = devices;
        this.chunk = chunk;
        this.nodatasum = nodatasum;
        this.nextLogical = chunk.start;
        this.btrfsBioset = new BioSet(layer, "btrfs_bioset", BtrfsIoBio::new);
    }
}
