package kmodel.fs.btrfs;

import java.util.ArrayList;
import java.util.List;
import kmodel.block.BioChecks;
import kmodel.block.BlkTypes;
import kmodel.block.BlockLayer;
import kmodel.block.Disk;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.mm.File;
import kmodel.mm.Page;
import kmodel.mm.PageCache;
import kmodel.mm.PageFlags;
import kmodel.mm.Readahead;

/**
 * A btrfs volume for scenarios and tests: {@code mkfs.btrfs} and {@code mount} in one, not kernel
 * code. One or two simulated disks ({@link Disk}), one data chunk at logical 1 MiB with the chosen
 * profile (SINGLE on one disk; RAID0 with 64 KiB stripes or RAID1 over two disks, the stripes at
 * physical 1 MiB on each), and files whose extents are laid out with {@link FileBuilder}: the
 * device bytes are the disks' deterministic pattern, a file's contents follow from its extents,
 * and the data checksums are computed from mirror 1 as if the data had just been written.
 *
 * <p>Build it in a scenario's set-up (or a test task), never in a static initializer.
 */
public final class BtrfsVolume {
    /** The profiles modelled. */
    public enum Profile {
        /** One copy on one device. */
        SINGLE,
        /** Striped over two devices, 64 KiB stripes. */
        RAID0,
        /** Mirrored on two devices. */
        RAID1
    }

    /** Logical address of the data chunk. */
    public static final long CHUNK_START = 1L << 20;
    /** Length of the data chunk. */
    public static final long CHUNK_LEN = 16L << 20;
    /** Physical offset of each stripe on its device. */
    public static final long STRIPE_PHYSICAL = 1L << 20;

    /** The mount. */
    public final BtrfsFsInfo fsInfo;
    private final List<BtrfsInode> files = new ArrayList<>();
    private final int form;

    private BtrfsVolume(Profile profile, boolean nodatasum, int nrTags) {
        BlockLayer layer = new BlockLayer();
        int nrDevs = profile == Profile.SINGLE ? 1 : 2;
        BtrfsDevice[] devs = new BtrfsDevice[nrDevs];
        long[] physical = new long[nrDevs];
        long devSectors = (STRIPE_PHYSICAL + CHUNK_LEN) >> BlkTypes.SECTOR_SHIFT;
        for (int i = 0; i < nrDevs; i++) {
            devs[i] = new BtrfsDevice(i + 1, new Disk(layer, layer.nextDiskName(), devSectors, nrTags, true));
            physical[i] = STRIPE_PHYSICAL;
        }
        long type = MapLookup.BTRFS_BLOCK_GROUP_DATA | (profile == Profile.RAID0 ? MapLookup.BTRFS_BLOCK_GROUP_RAID0
                : profile == Profile.RAID1 ? MapLookup.BTRFS_BLOCK_GROUP_RAID1 : 0);
        long chunkLen = profile == Profile.RAID0 ? CHUNK_LEN * 2 : CHUNK_LEN;
        MapLookup chunk = new MapLookup(CHUNK_START, chunkLen, type, MapLookup.BTRFS_STRIPE_LEN, devs, physical);
        this.fsInfo = new BtrfsFsInfo(layer, devs, chunk, nodatasum);
        this.form = (int) Kernel.config().value(BtrfsOptions.BTRFS_READPAGES);
    }

    /** A volume of {@code profile}, mounted with or without {@code nodatasum}; 32 request tags per disk. */
    public static BtrfsVolume mkfs(Profile profile, boolean nodatasum) {
        return new BtrfsVolume(profile, nodatasum, 32);
    }

    /** Starts a file named {@code name}. */
    public FileBuilder file(String name) {
        return new FileBuilder(name);
    }

    /**
     * fs/btrfs/disk-io.c: {@code open_ctree()}'s read-ahead size: {@code sb->s_bdi->ra_pages =
     * VM_READAHEAD_PAGES * btrfs_super_num_devices()}, then at least {@code SZ_4M / PAGE_SIZE}
     * (the same rule, written {@code 4 * 1024 * 1024 / PAGE_CACHE_SIZE}, in the v3.5 of seed 000):
     * 4 MiB of read-ahead for one or two devices. The model-checking scenarios open their files
     * with a few pages instead, to stay small; the simulation's workloads use this.
     */
    public int bdiRaPages() {
        return Math.max(Readahead.VM_READAHEAD_PAGES * fsInfo.devices.length, SZ_4M / Page.PAGE_SIZE);
    }

    /** include/linux/sizes.h: {@code SZ_4M}. */
    public static final int SZ_4M = 4 << 20;

    /** fs/btrfs/file.c: {@code btrfs_file_open()}: a file on {@code inode} reading ahead up to {@code raPages}. */
    public File open(BtrfsInode inode, String name, int raPages) {
        return BtrfsAops.btrfsFileOpen(inode, name, raPages);
    }

    /** The devices' disks. */
    public Disk disk(int mirror) {
        return fsInfo.devices[mirror - 1].disk;
    }

    /** Reads {@code len} logical bytes from mirror {@code mirror} (set-up and checks; no scheduling point). */
    byte[] readLogical(long logical, int len, int mirror) {
        byte[] out = new byte[len];
        int done = 0;
        while (done < len) {
            long[] length = {len - done};
            BtrfsBio bbio = Volumes.btrfsMapBlock(fsInfo, Volumes.BTRFS_MAP_READ, logical + done, length, mirror);
            int n = (int) Math.min(length[0], len - done);
            bbio.dev[0].disk.copyOut(bbio.physical[0], out, done, n);
            done += n;
        }
        return out;
    }

    /** The device and physical byte of logical {@code logical} on mirror {@code mirror}. */
    private BtrfsBio where(long logical, int mirror) {
        long[] length = {1};
        return Volumes.btrfsMapBlock(fsInfo, Volumes.BTRFS_MAP_READ, logical, length, mirror);
    }

    /** The logical disk address of file byte {@code pos} of a plain (uncompressed) regular extent. */
    public long logicalOf(BtrfsInode inode, long pos) {
        FileExtentItem item = inode.items.floorEntry(pos).getValue();
        Kernel.BUG_ON(item.diskBytenr == 0 || item.compression != 0 || pos >= item.extentEnd(),
                "logicalOf: " + pos + " is not in a plain regular extent");
        return item.diskBytenr + item.offset + (pos - item.fileOffset);
    }

    /**
     * Set-up only: puts the extent map of each of {@code inode}'s regular items into its extent map
     * tree, holding the tree's reference, as an earlier read would have left them: the state after
     * the file was read and its pages dropped ({@code echo 1 > drop_caches} frees clean page-cache
     * pages, not the inode's extent maps). No lock is taken: nothing runs yet.
     */
    public void cacheExtentMaps(BtrfsInode inode) {
        for (FileExtentItem item : inode.items.values()) {
            if (item.type != FileExtentItem.BTRFS_FILE_EXTENT_REG) {
                continue;
            }
            ExtentMap em = inode.extentTree.allocExtentMap();
            BtrfsInodeOps.btrfsExtentItemToExtentMap(item, em);
            em.inTree = true;
            inode.extentTree.map.put(em.start, em);
        }
    }

    /** Silently corrupts the byte at logical {@code logical} on mirror {@code mirror} (set-up only). */
    public void corrupt(long logical, int mirror) {
        BtrfsBio b = where(logical, mirror);
        b.dev[0].disk.corruptByte(b.physical[0]);
    }

    /** Makes reads of the sector holding logical {@code logical} on mirror {@code mirror} fail (set-up only). */
    public void badSector(long logical, int mirror) {
        BtrfsBio b = where(logical, mirror);
        b.dev[0].disk.injectReadError(b.physical[0] >> BlkTypes.SECTOR_SHIFT);
    }

    /**
     * A reader got {@code len} bytes of {@code inode} at {@code pos} into {@code buf[off..]}: each
     * must equal the file's, else {@code data-corruption}.
     */
    public static void expectBytes(BtrfsInode inode, long pos, byte[] buf, int off, int len) {
        for (int i = 0; i < len; i++) {
            byte want = pos + i < inode.expected.length ? inode.expected[(int) (pos + i)] : 0;
            if (buf[off + i] != want) {
                Kernel.fail(ViolationKind.DATA_CORRUPTION, "byte " + (pos + i) + " of " + inode + " read as " + buf[off + i]
                        + ", the file holds " + want);
            }
        }
    }

    /**
     * Records that {@code len} bytes of {@code buf} from {@code off} were written at file byte
     * {@code pos} of {@code inode} (a direct write that returned): the file's bytes the checks
     * compare against change (model bookkeeping, no scheduling point).
     */
    public static void wrote(BtrfsInode inode, long pos, byte[] buf, int off, int len) {
        System.arraycopy(buf, off, inode.expected, (int) pos, len);
    }

    /** Every uptodate page cached for {@code inode} holds the file's bytes (zeros past EOF). */
    public static void expectCacheMatchesFile(BtrfsInode inode) {
        for (Page p : inode.vfsInode.iMapping.peekPages()) {
            if ((p.flags.peek() & (1L << PageFlags.PG_uptodate)) != 0) {
                expectBytes(inode, p.index << Page.PAGE_SHIFT, p.data, 0, Page.PAGE_SIZE);
            }
        }
    }

    /**
     * Every plain regular extent of {@code inode} holds the file's bytes on every mirror (after
     * direct writes; no scheduling point), else {@code data-corruption}.
     */
    public void expectDisksMatchFile(BtrfsInode inode) {
        int copies = Volumes.btrfsNumCopies(fsInfo, fsInfo.chunk.start, 1);
        for (FileExtentItem it : inode.items.values()) {
            if (it.type != FileExtentItem.BTRFS_FILE_EXTENT_REG || it.diskBytenr == 0 || it.compression != 0) {
                continue;
            }
            for (int m = 1; m <= copies; m++) {
                byte[] disk = readLogical(it.diskBytenr + it.offset, (int) it.numBytes, m);
                for (int i = 0; i < disk.length; i++) {
                    long pos = it.fileOffset + i;
                    if (pos < inode.expected.length && disk[i] != inode.expected[(int) pos]) {
                        Kernel.fail(ViolationKind.DATA_CORRUPTION, "byte " + pos + " of " + inode + " is " + disk[i]
                                + " on mirror " + m + ", the file holds " + inode.expected[(int) pos]);
                    }
                }
            }
        }
    }

    /**
     * End-of-run checks: per file the page cache's invariants and references, no page left locked,
     * the extent map tree's references; per disk every request tag free.
     */
    public void checkAtEnd() {
        for (BtrfsInode f : files) {
            PageCache.checkInvariants(f.vfsInode.iMapping);
            PageCache.expectCacheReferences(f.vfsInode.iMapping, Kernel.lifetimes());
            f.extentTree.expectTreeReferences(Kernel.lifetimes());
            expectCacheMatchesFile(f);
        }
        for (BtrfsDevice d : fsInfo.devices) {
            BioChecks.checkQueueQuiescent(d.disk.queue);
        }
    }

    /** Lays out a file's extents, left to right; {@link #create()} makes the inode. */
    public final class FileBuilder {
        private final String name;
        private final List<FileExtentItem> items = new ArrayList<>();
        private long size = -1;
        private boolean nodatasum = fsInfo.nodatasum;
        private boolean nodatacow;

        FileBuilder(String name) {
            this.name = name;
        }

        private long alloc(long bytes) {
            long at = fsInfo.nextLogical;
            fsInfo.nextLogical += (bytes + fsInfo.sectorsize - 1) / fsInfo.sectorsize * fsInfo.sectorsize;
            Kernel.BUG_ON(fsInfo.nextLogical > fsInfo.chunk.start + fsInfo.chunk.len, "volume full");
            return at;
        }

        /** A new plain extent of {@code len} bytes at file offset {@code off}; returns its item. */
        public FileExtentItem regular(long off, long len) {
            FileExtentItem it = new FileExtentItem(off, FileExtentItem.BTRFS_FILE_EXTENT_REG, 0, alloc(len), len, 0, len, len,
                    null);
            items.add(it);
            return it;
        }

        /** An explicit hole item ({@code disk_bytenr == 0}). */
        public FileExtentItem hole(long off, long len) {
            FileExtentItem it = new FileExtentItem(off, FileExtentItem.BTRFS_FILE_EXTENT_REG, 0, 0, 0, 0, len, len, null);
            items.add(it);
            return it;
        }

        /** An inline extent of {@code len} bytes (less than a page) at offset 0. */
        public FileExtentItem inline(int len) {
            byte[] data = new byte[len];
            for (int i = 0; i < len; i++) {
                data[i] = (byte) (i * 5 + 11);
            }
            FileExtentItem it = new FileExtentItem(0, FileExtentItem.BTRFS_FILE_EXTENT_INLINE, 0, 0, 0, 0, len, len, data);
            items.add(it);
            return it;
        }

        /** A compressed extent holding {@code ramLen} bytes (stored in half as many) at file offset {@code off}. */
        public FileExtentItem compressed(long off, long ramLen) {
            long disk = ramLen / 2;
            FileExtentItem it = new FileExtentItem(off, FileExtentItem.BTRFS_FILE_EXTENT_REG,
                    FileExtentItem.BTRFS_COMPRESS_MODEL, alloc(disk), disk, 0, ramLen, ramLen, null);
            items.add(it);
            return it;
        }

        /** A reflink: {@code len} bytes at file offset {@code off} sharing {@code src}'s extent from {@code srcOffset} into it. */
        public FileExtentItem reflink(long off, FileExtentItem src, long srcOffset, long len) {
            FileExtentItem it = new FileExtentItem(off, src.type, src.compression, src.diskBytenr, src.diskNumBytes,
                    src.offset + srcOffset, len, src.ramBytes, null);
            items.add(it);
            return it;
        }

        /** {@code i_size} (default: the end of the last item). */
        public FileBuilder size(long bytes) {
            this.size = bytes;
            return this;
        }

        /** {@code chattr +C}-style {@code BTRFS_INODE_NODATASUM} for this file. */
        public FileBuilder nodatasum() {
            this.nodatasum = true;
            return this;
        }

        /** {@code chattr +C}: {@code BTRFS_INODE_NODATACOW | BTRFS_INODE_NODATASUM} (direct writes overwrite in place). */
        public FileBuilder nodatacow() {
            this.nodatacow = true;
            this.nodatasum = true;
            return this;
        }

        /** Creates the inode, its contents and the checksums of its new extents. */
        public BtrfsInode create() {
            long end = 0;
            for (FileExtentItem it : items) {
                end = Math.max(end, it.extentEnd());
            }
            long isize = size >= 0 ? size : end;
            BtrfsInode inode = new BtrfsInode(fsInfo, name, isize, (nodatasum ? BtrfsInode.BTRFS_INODE_NODATASUM : 0)
                    | (nodatacow ? BtrfsInode.BTRFS_INODE_NODATACOW : 0),
                    new BtrfsAops(form));
            byte[] contents = new byte[(int) isize];
            for (FileExtentItem it : items) {
                inode.items.put(it.fileOffset, it);
                byte[] data;
                if (it.type == FileExtentItem.BTRFS_FILE_EXTENT_INLINE) {
                    data = it.inlineData;
                } else if (it.diskBytenr == 0) {
                    continue;
                } else {
                    byte[] disk = readLogical(it.diskBytenr, (int) it.diskNumBytes, 1);
                    data = it.compression != 0 ? Compression.decompress(disk) : disk;
                    for (long s = 0; s < it.diskNumBytes; s += fsInfo.sectorsize) {
                        fsInfo.csums.put(it.diskBytenr + s, BtrfsInodeOps.crc32c(disk, (int) s, fsInfo.sectorsize));
                    }
                }
                for (long i = 0; i < it.numBytes && it.fileOffset + i < isize; i++) {
                    contents[(int) (it.fileOffset + i)] = data[(int) (it.offset + i)];
                }
            }
            inode.expected = contents;
            files.add(inode);
            return inode;
        }
    }
}
