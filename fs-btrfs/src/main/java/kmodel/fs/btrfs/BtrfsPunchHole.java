package kmodel.fs.btrfs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import kmodel.kernel.Kernel;
import kmodel.kernel.locking.RwSemaphore;
import kmodel.kernel.locking.Spinlock;
import kmodel.mm.Truncate;

/**
 * fs/btrfs/file.c (v5.10), hole punching ({@code fallocate(FALLOC_FL_PUNCH_HOLE)}):
 * {@code btrfs_punch_hole()} truncates the page cache over the range, replaces the range's file
 * extent items with a hole ({@code btrfs_replace_file_extents()}: the items are dropped or trimmed,
 * NO_HOLES, so no hole item), drops the range's cached extent maps
 * ({@code btrfs_drop_extent_cache()}) and inserts a hole extent map ({@code fill_holes()}).
 *
 * <h2>Coarse parts</h2>
 * Page-aligned ranges only (no {@code btrfs_truncate_block()} of partial pages); no transaction,
 * no b-tree (the file-extent table is edited in place), no extent-state locking and no ordered
 * extents: {@code btrfs_punch_hole_lock_range()} is its {@code truncate_pagecache_range()} only,
 * so a punch must not run while a reader reads the range (the kernel's
 * {@code lock_extent_bits()} and its re-check of {@code filemap_range_has_page()} keep them
 * apart; scenarios order the two with completions). {@code btrfs_drop_extent_cache()} drops a
 * map that straddles the range whole instead of splitting it: the model's maps are a cache of
 * the file-extent table, rebuilt on the next lookup. The model's reference bytes
 * ({@link BtrfsInode#expectedContents()}) become zeros over the range.
 */
public final class BtrfsPunchHole {
    private BtrfsPunchHole() {
    }

    /**
     * fs/btrfs/file.c: {@code btrfs_punch_hole(inode, offset, len)} (v5.10) for a page-aligned range
     * inside {@code i_size}: {@code inode_lock()}, {@code truncate_pagecache_range()} (v5.10 reaches
     * it through {@code btrfs_punch_hole_lock_range()}; without mmap it is
     * {@code truncate_inode_pages_range()}), {@code btrfs_replace_file_extents()} and
     * {@code fill_holes()}, {@code inode_unlock()}.
     */
    public static int btrfsPunchHole(BtrfsInode inode, long offset, long len) {
        int sectorsize = inode.fsInfo.sectorsize;
        Kernel.BUG_ON(offset % sectorsize != 0 || len % sectorsize != 0 || len <= 0,
                "btrfs_punch_hole: partial blocks (btrfs_truncate_block) are not modelled");
        RwSemaphore.downWrite(inode.vfsInode.iRwsem);
        long lockstart = offset;
        long lockend = offset + len - 1;
        Kernel.event("btrfs_punch_hole(%s, %s, %s)", inode, offset, len);
        Truncate.truncateInodePagesRange(inode.vfsInode.iMapping, lockstart, lockend);
        btrfsReplaceFileExtents(inode, lockstart, lockend);
        fillHoles(inode, lockstart, lockend + 1);
        RwSemaphore.upWrite(inode.vfsInode.iRwsem);
        return 0;
    }

    /**
     * fs/btrfs/file.c: {@code btrfs_replace_file_extents(inode, path, start, end, NULL, &trans)}
     * (v5.10) with no extent to put in (a punch), over the model's file-extent table:
     * {@code btrfs_drop_extents()} removes the items inside {@code [start, end]} and trims those
     * that straddle an end (the part before keeps its offset, the part after starts at
     * {@code end + 1} with its {@code offset} moved on); with NO_HOLES no hole item is inserted.
     */
    static void btrfsReplaceFileExtents(BtrfsInode inode, long start, long end) {
        long stop = end + 1;
        List<FileExtentItem> out = new ArrayList<>();
        List<Long> drop = new ArrayList<>();
        for (FileExtentItem it : inode.items.values()) {
            if (it.extentEnd() <= start || it.fileOffset >= stop) {
                continue;
            }
            drop.add(it.fileOffset);
            if (it.fileOffset < start) {
                out.add(new FileExtentItem(it.fileOffset, it.type, it.compression, it.diskBytenr, it.diskNumBytes, it.offset,
                        start - it.fileOffset, it.ramBytes, it.inlineData));
            }
            if (it.extentEnd() > stop) {
                out.add(new FileExtentItem(stop, it.type, it.compression, it.diskBytenr, it.diskNumBytes,
                        it.offset + (stop - it.fileOffset), it.extentEnd() - stop, it.ramBytes, it.inlineData));
            }
        }
        for (Long k : drop) {
            inode.items.remove(k);
        }
        for (FileExtentItem it : out) {
            inode.items.put(it.fileOffset, it);
        }
        long to = Math.min(stop, inode.expected.length);
        if (start < to) {
            Arrays.fill(inode.expected, (int) start, (int) to, (byte) 0);
        }
    }

    /**
     * fs/btrfs/file.c: {@code btrfs_drop_extent_cache(inode, start, end, skip_pinned)} (v5.10):
     * under the tree's lock, take each map that intersects {@code [start, end]} out of the tree
     * ({@code remove_extent_mapping()}), then drop the lookup's reference and the tree's. Coarse:
     * a map that straddles the range is dropped whole, not split (see the class notes).
     */
    static void btrfsDropExtentCache(BtrfsInode inode, long start, long end) {
        ExtentMapTree emTree = inode.extentTree;
        long len = end - start + 1;
        while (true) {
            Spinlock.spinLock(emTree.lock);
            ExtentMap em = emTree.lookupExtentMapping(start, len);
            if (em == null) {
                Spinlock.spinUnlock(emTree.lock);
                break;
            }
            emTree.removeExtentMapping(em);
            Spinlock.spinUnlock(emTree.lock);
            /* once for us */
            ExtentMap.freeExtentMap(em);
            /* once for the tree */
            ExtentMap.freeExtentMap(em);
        }
    }

    /**
     * fs/btrfs/file.c: {@code fill_holes(trans, inode, path, offset, end)} (v5.10) with NO_HOLES:
     * no hole item; a hole extent map over {@code [offset, end)} replaces the cached maps there
     * ({@code btrfs_drop_extent_cache()} then {@code add_extent_mapping()}, again while
     * {@code -EEXIST}), and our reference to it is dropped.
     */
    static void fillHoles(BtrfsInode inode, long offset, long end) {
        ExtentMapTree emTree = inode.extentTree;
        ExtentMap holeEm = emTree.allocExtentMap();
        holeEm.start = offset;
        holeEm.len = end - offset;
        holeEm.ramBytes = holeEm.len;
        holeEm.origStart = offset;
        holeEm.blockStart = ExtentMap.EXTENT_MAP_HOLE;
        holeEm.blockLen = 0;
        holeEm.origBlockLen = 0;
        int ret;
        do {
            btrfsDropExtentCache(inode, offset, end - 1);
            Spinlock.spinLock(emTree.lock);
            ret = emTree.addExtentMapping(holeEm);
            Spinlock.spinUnlock(emTree.lock);
        } while (ret != 0);
        ExtentMap.freeExtentMap(holeEm);
    }
}
