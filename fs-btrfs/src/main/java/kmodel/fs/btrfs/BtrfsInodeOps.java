package kmodel.fs.btrfs;

import kmodel.kernel.sched.Work;
import static kmodel.block.BlkTypes.SECTOR_SHIFT;
import static kmodel.fs.btrfs.ExtentMap.EXTENT_FLAG_COMPRESSED;
import static kmodel.fs.btrfs.ExtentMap.EXTENT_MAP_HOLE;
import static kmodel.fs.btrfs.ExtentMap.EXTENT_MAP_INLINE;

import java.util.Arrays;
import java.util.Map;
import java.util.zip.CRC32C;
import kmodel.block.Bio;
import kmodel.block.BioVec;
import kmodel.block.BlkTypes;
import kmodel.block.BlockBio;
import kmodel.block.BvecIter;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.locking.Spinlock;
import kmodel.mm.File;
import kmodel.mm.Page;

/**
 * fs/btrfs/inode.c (v5.10), the read side: {@code btrfs_get_extent()} over the model's file-extent
 * table, {@code btrfs_readpage()}, {@code btrfs_submit_data_bio()}, {@code btrfs_bio_fits_in_stripe()},
 * checksum verification ({@code btrfs_verify_data_csum()}, {@code check_data_csum()}); and
 * fs/btrfs/file-item.c's {@code btrfs_lookup_bio_sums()} over the model's checksum map.
 *
 * <p>Checksums are crc32c ({@code java.util.zip.CRC32C}) of each 4 KiB sector, as btrfs' default
 * {@code BTRFS_CSUM_TYPE_CRC32}; the seed is the JDK's (not btrfs' {@code ~0} seed and final
 * inversion), which is the same function up to constants.
 */
public final class BtrfsInodeOps {
    private BtrfsInodeOps() {
    }

    /** The crc32c of {@code len} bytes of {@code data} from {@code off}. */
    static int crc32c(byte[] data, int off, int len) {
        CRC32C c = new CRC32C();
        c.update(data, off, len);
        return (int) c.getValue();
    }

    /** include/linux/pagemap.h: {@code page_offset(page)}. */
    static long pageOffset(Page page) {
        return page.index << Page.PAGE_SHIFT;
    }

    /**
     * fs/btrfs/inode.c: {@code btrfs_get_extent(inode, page, pg_offset, start, len)} (v5.10): the
     * cached map covering {@code start} (not an inline one when a page is given), else one built
     * from the file-extent item covering {@code start} (a hole between items gets a hole map up to
     * the next item), inserted with {@code btrfs_add_extent_mapping()} ({@code -EEXIST}: another task
     * inserted it first; use that one). An inline extent is copied into {@code page} here, the rest
     * of the page zeroed, and its range marked {@code EXTENT_UPTODATE} in the io_tree. Returns the
     * map with a reference.
     */
    public static ExtentMap btrfsGetExtent(BtrfsInode inode, Page page, int pgOffset, long start, long len) {
        ExtentMapTree emTree = inode.extentTree;
        Spinlock.spinLock(emTree.lock);
        ExtentMap em = emTree.lookupExtentMapping(start, len);
        Spinlock.spinUnlock(emTree.lock);
        if (em != null) {
            if (em.start > start || em.start + em.len <= start) {
                ExtentMap.freeExtentMap(em);
            } else if (em.blockStart == EXTENT_MAP_INLINE && page != null) {
                ExtentMap.freeExtentMap(em);
            } else {
                return em;
            }
        }
        em = emTree.allocExtentMap();
        Map.Entry<Long, FileExtentItem> e = inode.items.floorEntry(start);
        FileExtentItem item = e != null && e.getValue().extentEnd() > start ? e.getValue() : null;
        if (item == null) {
            /* not_found: a hole up to the next item (NO_HOLES) */
            Map.Entry<Long, FileExtentItem> next = inode.items.ceilingEntry(start);
            em.start = start;
            em.origStart = start;
            em.len = next != null && next.getKey() < start + len ? next.getKey() - start : len;
            em.blockStart = EXTENT_MAP_HOLE;
            em.blockLen = -1L;
        } else if (item.type == FileExtentItem.BTRFS_FILE_EXTENT_INLINE) {
            long extentStart = item.fileOffset;
            long size = item.ramBytes;
            long extentOffset = pageOffset(page) + pgOffset - extentStart;
            int copySize = (int) Math.min(Page.PAGE_SIZE - pgOffset, size - extentOffset);
            em.start = extentStart + extentOffset;
            em.len = align(copySize, inode.fsInfo.sectorsize);
            em.origBlockLen = em.len;
            em.origStart = em.start;
            em.blockStart = EXTENT_MAP_INLINE;
            em.blockLen = -1L;
            page.touch();
            System.arraycopy(item.inlineData, (int) extentOffset, page.data, pgOffset, copySize);
            if (pgOffset + copySize < Page.PAGE_SIZE) {
                Arrays.fill(page.data, pgOffset + copySize, Page.PAGE_SIZE, (byte) 0);
            }
            /* set_extent_uptodate(io_tree, em->start, extent_map_end(em) - 1) */
            Spinlock.spinLock(inode.ioTreeLock);
            for (long s = em.start; s < ExtentMap.extentMapEnd(em); s += inode.fsInfo.sectorsize) {
                inode.ioTreeUptodate.add(s);
            }
            Spinlock.spinUnlock(inode.ioTreeLock);
        } else {
            btrfsExtentItemToExtentMap(item, em);
        }
        Kernel.BUG_ON(em.start > start || ExtentMap.extentMapEnd(em) <= start,
                "btrfs_get_extent: " + em + " does not cover " + start);
        Spinlock.spinLock(emTree.lock);
        em = btrfsAddExtentMapping(emTree, em, start);
        Spinlock.spinUnlock(emTree.lock);
        return em;
    }

    private static long align(long v, long a) {
        return (v + a - 1) / a * a;
    }

    /**
     * fs/btrfs/file-item.c: {@code btrfs_extent_item_to_extent_map()} (v5.10) for a regular item: a
     * hole ({@code disk_bytenr == 0}); a compressed extent (the map points at the whole on-disk
     * extent, {@code block_len = disk_num_bytes}); or a plain one (at {@code disk_bytenr + offset}).
     */
    static void btrfsExtentItemToExtentMap(FileExtentItem item, ExtentMap em) {
        em.start = item.fileOffset;
        em.len = item.numBytes;
        em.origStart = item.fileOffset - item.offset;
        em.origBlockLen = item.diskNumBytes;
        em.ramBytes = item.ramBytes;
        if (item.diskBytenr == 0) {
            em.blockStart = EXTENT_MAP_HOLE;
            return;
        }
        if (item.compression != FileExtentItem.BTRFS_COMPRESS_NONE) {
            em.flags |= 1 << EXTENT_FLAG_COMPRESSED;
            em.compressType = item.compression;
            em.blockStart = item.diskBytenr;
            em.blockLen = em.origBlockLen;
        } else {
            em.blockStart = item.diskBytenr + item.offset;
            em.blockLen = em.len;
        }
    }

    /**
     * fs/btrfs/inode.c: {@code btrfs_add_extent_mapping(fs_info, em_tree, em_in, start, len)}
     * (v5.10): insert; on {@code -EEXIST} take the existing map if it covers {@code start} (another
     * task read the same item), freeing ours. Caller holds the tree's lock.
     */
    static ExtentMap btrfsAddExtentMapping(ExtentMapTree emTree, ExtentMap em, long start) {
        int ret = emTree.addExtentMapping(em);
        if (ret == -Errno.EEXIST) {
            ExtentMap existing = emTree.lookupExtentMapping(start, 1);
            Kernel.BUG_ON(existing == null || existing.start > start || ExtentMap.extentMapEnd(existing) <= start,
                    "btrfs_add_extent_mapping: merge_extent_mapping() is not modelled");
            ExtentMap.freeExtentMap(em);
            return existing;
        }
        return em;
    }

    /**
     * fs/btrfs/file-item.c: {@code btrfs_lookup_bio_sums(inode, bio, offset, dst)} (v5.10), for reads:
     * one checksum per sector of the bio, looked up by its logical disk address; into
     * {@code dst[dstOff..]}, or a new {@code io_bio->csum}. A sector without a checksum gets 0.
     */
    static void btrfsLookupBioSums(BtrfsInode inode, Bio bio, int[] dst, int dstOff) {
        int sectorsize = inode.fsInfo.sectorsize;
        int nblocks = bio.biIter.biSize / sectorsize;
        int[] csum = dst;
        if (csum == null) {
            csum = new int[nblocks];
            BtrfsIoBio.btrfsIoBio(bio).csum = csum;
            dstOff = 0;
        }
        long diskBytenr = bio.biIter.biSector << SECTOR_SHIFT;
        for (int i = 0; i < nblocks; i++) {
            Integer c = inode.fsInfo.csums.get(diskBytenr + (long) i * sectorsize);
            csum[dstOff + i] = c == null ? 0 : c;
        }
    }

    /**
     * fs/btrfs/inode.c: {@code btrfs_submit_data_bio(inode, bio, mirror_num, bio_flags)} (v5.10) for
     * reads: a compressed bio goes to {@code btrfs_submit_compressed_read()}; otherwise, unless the
     * inode is {@code NODATASUM}, look the checksums up (a repair bio already carries the one it
     * was given), then {@code btrfs_map_bio()}. On failure the bio is ended with the status. The
     * end_io workqueue ({@code btrfs_bio_wq_end_io()}) is not modelled: completions run in the
     * disk's interrupt task.
     */
    static int btrfsSubmitDataBio(BtrfsInode inode, Bio bio, int mirrorNum, int bioFlags) {
        boolean skipSum = (inode.flags & BtrfsInode.BTRFS_INODE_NODATASUM) != 0;
        int ret;
        if ((bioFlags & ExtentIo.EXTENT_BIO_COMPRESSED) != 0) {
            ret = Compression.btrfsSubmitCompressedRead(inode, bio, mirrorNum, bioFlags);
        } else {
            if (!skipSum && BtrfsIoBio.btrfsIoBio(bio).csum == null) {
                btrfsLookupBioSums(inode, bio, null, 0);
            }
            ret = Volumes.btrfsMapBio(inode.fsInfo, bio, mirrorNum);
        }
        if (ret != BlkTypes.BLK_STS_OK) {
            bio.biStatus = ret;
            BlockBio.bioEndio(bio);
        }
        return ret;
    }

    /**
     * fs/btrfs/inode.c: {@code btrfs_bio_fits_in_stripe(page, size, bio, bio_flags)} (v5.10): 1 if
     * adding {@code size} bytes to {@code bio} would cross a stripe ({@code geom.len < length + size}),
     * 0 if not; always 0 for a compressed bio (its disk range is read separately).
     */
    public static int btrfsBioFitsInStripe(BtrfsFsInfo fsInfo, int size, Bio bio, int bioFlags) {
        if ((bioFlags & ExtentIo.EXTENT_BIO_COMPRESSED) != 0) {
            return 0;
        }
        long logical = bio.biIter.biSector << SECTOR_SHIFT;
        long length = Integer.toUnsignedLong(bio.biIter.biSize);
        MapLookup map = Volumes.btrfsGetChunkMap(fsInfo, logical, length);
        Volumes.BtrfsIoGeometry geom = Volumes.btrfsGetIoGeometry(map, Volumes.btrfsOp(bio), logical, length);
        return geom.len < length + size ? 1 : 0;
    }

    /**
     * fs/btrfs/inode.c: {@code btrfs_verify_data_csum(io_bio, phy_offset, page, start, end, mirror)}
     * (v5.10): a page whose data was already checked (the compressed path sets {@code PG_checked})
     * passes, and so does a {@code NODATASUM} inode; else {@code check_data_csum()} against the
     * checksum at {@code phy_offset >> blocksize_bits} in {@code io_bio->csum}.
     */
    static int btrfsVerifyDataCsum(BtrfsInode inode, BtrfsIoBio ioBio, long phyOffset, Page page, long start, long end,
            int mirror) {
        int offset = (int) (start - pageOffset(page));
        if (ExtentIo.TestClearPageChecked(page)) {
            return 0;
        }
        if ((inode.flags & BtrfsInode.BTRFS_INODE_NODATASUM) != 0) {
            return 0;
        }
        int icsum = (int) (phyOffset >> Page.PAGE_SHIFT);
        return checkDataCsum(inode, ioBio, icsum, page, offset, start, (int) (end - start + 1));
    }

    /**
     * fs/btrfs/inode.c: {@code check_data_csum()} (v5.10): compare; on a mismatch count it, fill the
     * range with 1s ({@code memset(kaddr + pgoff, 1, len)}) and return {@code -EIO}.
     */
    static int checkDataCsum(BtrfsInode inode, BtrfsIoBio ioBio, int icsum, Page page, int pgoff, long start, int len) {
        page.touch();
        Kernel.rt().work(Work.CSUM_PAGE, 1);
        int expected = ioBio.csum != null && icsum < ioBio.csum.length ? ioBio.csum[icsum] : 0;
        int csum = crc32c(page.data, pgoff, len);
        if (csum == expected) {
            return 0;
        }
        inode.fsInfo.stats.csumErrors++;
        Kernel.event("csum failed ino %s off %s mirror " + ioBio.mirrorNum, inode, start);
        Arrays.fill(page.data, pgoff, pgoff + len, (byte) 1);
        return -Errno.EIO;
    }

    /**
     * fs/btrfs/inode.c: {@code btrfs_readpage(file, page)} (v5.10): read one locked page through
     * {@code btrfs_do_readpage()} into a bio of its own and submit it (not read-ahead).
     */
    public static int btrfsReadpage(File file, Page page) {
        ExtentIo.BioRef bio = new ExtentIo.BioRef();
        int ret = ExtentIo.btrfsDoReadpage(page, null, bio, 0, null);
        if (bio.bio != null) {
            ret = ExtentIo.submitOneBio(bio.bio, 0, bio.bioFlags);
        }
        return ret;
    }

    /** Copies the saved iterator of a bio into {@code iter} and returns it (endio walks). */
    static BvecIter savedIter(BtrfsIoBio ioBio) {
        return ioBio.iter.copy();
    }

    /** The first page of a bio that owns its table ({@code bio_first_page_all()}). */
    static Page firstPage(Bio bio) {
        BioVec bv = Bio.bioFirstBvecAll(bio);
        return bv.bvPage;
    }
}
