package kmodel.fs.blockdev;

import kmodel.block.BioChecks;
import kmodel.block.BlkTypes;
import kmodel.block.BlockDevice;
import kmodel.block.BlockLayer;
import kmodel.block.Disk;
import kmodel.block.DiskKind;
import kmodel.block.DiskStats;
import kmodel.block.RequestQueue;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.mm.AddressSpace;
import kmodel.mm.File;
import kmodel.mm.Inode;
import kmodel.mm.Page;
import kmodel.mm.PageCache;
import kmodel.mm.PageFlags;

/**
 * A block device node for scenarios and tests: a {@link Disk} of whole pages with deterministic
 * contents ({@link Disk#pattern}), its {@link BlockDevice}, the bdev inode whose page cache uses
 * {@code def_blk_aops} ({@code i_blkbits = PAGE_SHIFT}, {@code i_size} = the capacity), and
 * {@link #open()} ({@code blkdev_open()}). Not a kernel structure: the world a scenario's setup
 * builds, as {@code k.blockDevice(8).open()} in DESIGN.md.
 *
 * <p>Build it in the program's boot (or inside a task), never in a static initializer.
 */
public final class Bdev {
    /** The block layer (bio naming, {@code fs_bio_set}). */
    public final BlockLayer layer;
    /** The disk (media, tags, error injection, statistics). */
    public final Disk disk;
    /** {@code struct block_device}. */
    public final BlockDevice bdev;
    /** The bdev inode. */
    public final Inode inode;
    /** {@code ra_pages} of the files {@link #open()} returns. */
    public final int raPages;
    private int opened;

    private Bdev(BlockLayer layer, String name, long nrSectors, int nrTags, int raPages, DiskKind kind) {
        this.layer = layer;
        this.raPages = raPages;
        this.disk = new Disk(layer, name, nrSectors, nrTags, kind);
        this.bdev = new BlockDevice(disk.gendisk);
        this.inode = new Inode("bdev:" + name, nrSectors << BlkTypes.SECTOR_SHIFT, new BlockDev.DefBlkAops(bdev),
                Page.PAGE_SHIFT);
        this.bdev.bdInode = inode;
    }

    /**
     * A device of {@code nrPages} pages with {@code nrTags} request tags and
     * {@code QUEUE_FLAG_NOWAIT}, whose files read ahead up to {@code raPages} pages (0 disables
     * read-ahead).
     */
    public static Bdev create(int nrPages, int nrTags, int raPages) {
        return create(new BlockLayer(), nrPages, nrTags, raPages, true);
    }

    /** As {@link #create(int, int, int)}, in an existing block layer, choosing NOWAIT support. */
    public static Bdev create(BlockLayer layer, int nrPages, int nrTags, int raPages, boolean nowait) {
        return create(layer, nrPages, nrTags, raPages, nowait ? DiskKind.NOWAIT : DiskKind.NO_NOWAIT);
    }

    /**
     * As {@link #create(int, int, int)}, on a device of the given kind: {@link DiskKind#NOWAIT}
     * (the default), {@link DiskKind#NO_NOWAIT} ({@code REQ_NOWAIT} fails with
     * {@code BLK_STS_NOTSUPP} at submission) or {@link DiskKind#AGAIN_AT_COMPLETION}
     * ({@code REQ_NOWAIT} fails with {@code BLK_STS_AGAIN} in the completion interrupt).
     */
    public static Bdev create(int nrPages, int nrTags, int raPages, DiskKind kind) {
        return create(new BlockLayer(), nrPages, nrTags, raPages, kind);
    }

    /** As {@link #create(int, int, int, DiskKind)}, in an existing block layer. */
    public static Bdev create(BlockLayer layer, int nrPages, int nrTags, int raPages, DiskKind kind) {
        return new Bdev(layer, layer.nextDiskName(), (long) nrPages << (Page.PAGE_SHIFT - BlkTypes.SECTOR_SHIFT),
                nrTags, raPages, kind);
    }

    /**
     * A device of {@code nrSectors} 512-byte sectors, which need not make whole pages, with
     * {@code nrTags} request tags and {@code QUEUE_FLAG_NOWAIT}, read ahead up to {@code raPages}
     * pages. Its inode keeps {@code i_blkbits = PAGE_SHIFT} (4 KiB blocks, as after
     * {@code set_blocksize(bdev, 4096)}: a mounted file system's {@code sb_set_blocksize()} or
     * {@code BLKBSZSET}), so the last block runs past the end of the device: the case
     * {@code guard_bio_eod()} truncates ({@code i_size} is the capacity in bytes).
     */
    public static Bdev createSectors(long nrSectors, int nrTags, int raPages) {
        BlockLayer layer = new BlockLayer();
        return new Bdev(layer, layer.nextDiskName(), nrSectors, nrTags, raPages, DiskKind.NOWAIT);
    }

    /** fs/block_dev.c: {@code blkdev_open()}: a new file on the device ("sda.f0", "sda.f1", ...). */
    public File open() {
        return BlockDev.blkdevOpen(bdev, disk.gendisk.diskName + ".f" + opened++, raPages);
    }

    /** The page cache of the device ({@code bd_inode->i_mapping}). */
    public AddressSpace mapping() {
        return inode.iMapping;
    }

    /** The request queue. */
    public RequestQueue queue() {
        return disk.queue;
    }

    /** The disk's counters. */
    public DiskStats stats() {
        return disk.stats();
    }

    /** Makes reads of the page at {@code index} fail (its first sector). Set-up only. */
    public void injectReadError(long index) {
        disk.injectReadError(index << (Page.PAGE_SHIFT - BlkTypes.SECTOR_SHIFT));
    }

    /** The device's byte at {@code pos} now (the reference for data checks). */
    public byte byteAt(long pos) {
        return disk.byteAt(pos);
    }

    /**
     * A reader got {@code len} bytes of the device at {@code pos} into {@code buf[off..]}: each
     * must equal the device's, else {@code data-corruption}.
     */
    public void expectBytes(long pos, byte[] buf, int off, int len) {
        int i = disk.firstMismatch(pos, buf, off, len);
        if (i >= 0) {
            Kernel.fail(ViolationKind.DATA_CORRUPTION, "byte " + (pos + i) + " of " + disk + " read as "
                    + buf[off + i] + ", the device holds " + disk.byteAt(pos + i));
        }
    }

    /** Every uptodate page in the cache holds the device's bytes, else {@code data-corruption}. */
    public void expectCacheMatchesDisk() {
        long size = inode.iSize.plain();
        for (Page p : mapping().peekPages()) {
            if ((p.flags.peek() & (1L << PageFlags.PG_uptodate)) != 0) {
                long pos = p.index << Page.PAGE_SHIFT;
                int inside = (int) Math.max(0, Math.min(Page.PAGE_SIZE, size - pos));
                expectBytes(pos, p.data, 0, inside);
                /* block_read_full_page() zero-fills the blocks past i_size of a page it reads. */
                for (int i = inside; i < Page.PAGE_SIZE; i++) {
                    if (p.data[i] != 0) {
                        Kernel.fail(ViolationKind.DATA_CORRUPTION, "byte " + (pos + i) + " of " + p.describe()
                                + " lies past the end of " + disk + " but is " + p.data[i] + ", not 0");
                    }
                }
            }
        }
    }

    /**
     * End-of-run checks: the page cache's references are expected and no cached page is still
     * locked ({@code lock-leak}); every request tag is free again.
     */
    public void checkAtEnd() {
        PageCache.checkInvariants(mapping());
        PageCache.expectCacheReferences(mapping(), Kernel.lifetimes());
        BioChecks.checkQueueQuiescent(disk.queue);
    }

    @Override
    public String toString() {
        return disk.toString();
    }
}
