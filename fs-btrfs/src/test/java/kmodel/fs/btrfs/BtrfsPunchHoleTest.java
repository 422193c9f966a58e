package kmodel.fs.btrfs;

import static kmodel.fs.btrfs.BtrfsTesting.read;
import static kmodel.fs.btrfs.BtrfsTesting.runClean;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import kmodel.mm.Page;
import kmodel.mm.PageCache;
import org.junit.jupiter.api.Test;

/** {@code btrfs_punch_hole()}: items, extent maps and page cache after a punch; reads after it. */
class BtrfsPunchHoleTest {
    static final int P = Page.PAGE_SIZE;

    /** [C0 C1][plain][C1'] with the read-ahead of 4 pages. */
    static BtrfsTesting.World file(BtrfsTesting.World w) {
        w.vol = BtrfsVolume.mkfs(BtrfsVolume.Profile.SINGLE, false);
        BtrfsVolume.FileBuilder b = w.vol.file("f");
        FileExtentItem c = b.compressed(0, 2L * P);
        b.regular(2L * P, P);
        b.reflink(3L * P, c, P, P);
        w.inode = b.create();
        w.file = w.vol.open(w.inode, "f.f0", 4);
        return w;
    }

    @Test
    void aPunchTruncatesTheRangeReplacesTheItemsAndLeavesAHoleMap() {
        runClean(Kconfig.defaults(), BtrfsPunchHoleTest::file, w -> {
            assertEquals(4L * P, read(w, 0, 4 * P));
            int mapsBefore = w.inode.extentTree.peek().size();
            assertEquals(0, BtrfsPunchHole.btrfsPunchHole(w.inode, 2L * P, P));
            assertNull(PageCache.findGetPage(w.inode.vfsInode.iMapping, 2), "page 2 still cached");
            Page p3 = PageCache.findGetPage(w.inode.vfsInode.iMapping, 3);
            assertTrue(p3 != null, "the punch truncated page 3 too");
            Page.putPage(p3);
            assertEquals(List.of(0L, 3L * P), offsets(w.inode.items()));
            List<ExtentMap> maps = w.inode.extentTree.peek();
            assertEquals(mapsBefore, maps.size(), maps::toString);
            ExtentMap hole = null;
            for (ExtentMap em : maps) {
                if (em.start == 2L * P) {
                    hole = em;
                }
            }
            assertTrue(hole != null && hole.blockStart == ExtentMap.EXTENT_MAP_HOLE && hole.len == P
                    && hole.origStart == 2L * P, maps::toString);
            /* a re-read: page 2 is zero-filled without a bio */
            assertEquals(4L * P, read(w, 0, 4 * P));
            assertEquals(0, w.inode.expectedContents()[2 * P + 17]);
        });
    }

    @Test
    void aPunchTrimsTheItemsItCutsAndReadsAfterItSeeTheHole() {
        runClean(Kconfig.defaults(), w -> {
            w.vol = BtrfsVolume.mkfs(BtrfsVolume.Profile.SINGLE, false);
            BtrfsVolume.FileBuilder b = w.vol.file("f");
            b.regular(0, 4L * P);
            w.inode = b.create();
            w.file = w.vol.open(w.inode, "f.f0", 4);
            return w;
        }, w -> {
            assertEquals(4L * P, read(w, 0, 4 * P));
            BtrfsPunchHole.btrfsPunchHole(w.inode, P, 2L * P);
            List<FileExtentItem> items = w.inode.items();
            assertEquals(List.of(0L, 3L * P), offsets(items));
            assertEquals((long) P, items.get(0).numBytes);
            assertEquals(3L * P, items.get(1).offset);
            assertEquals((long) P, items.get(1).numBytes);
            /* with the maps dropped and the page cache emptied, a read comes from disk */
            kmodel.mm.Truncate.truncateInodePages(w.inode.vfsInode.iMapping, 0);
            assertEquals(4L * P, read(w, 0, 4 * P));
        });
    }

    /**
     * 8e928218780e undone ({@code btrfs-prev-em-orig-start}): after the punch, the hole's map and
     * the reflinked range's have the same {@code orig_start}, C1' joins C's compressed bio and reads
     * zeros; with the fix (the model's default) the same read is correct (the test above).
     */
    @Test
    void withPrevEmStartOnOrigStartTheRangeAfterTheHoleReadsZeros() {
        kmodel.kernel.Violation v = BtrfsTesting.runViolating(Kconfig.defaults().withBug(BtrfsBugs.PREV_EM_ORIG_START),
                ViolationKind.DATA_CORRUPTION, BtrfsPunchHoleTest::file, w -> {
                    assertEquals(4L * P, read(w, 0, 4 * P));
                    BtrfsPunchHole.btrfsPunchHole(w.inode, 2L * P, P);
                    kmodel.mm.Truncate.truncateInodePages(w.inode.vfsInode.iMapping, 0);
                    read(w, 0, 4 * P);
                });
        assertTrue(v.getMessage().contains("byte 12288 of f read as 0"), v::summary);
    }

    private static List<Long> offsets(List<FileExtentItem> items) {
        List<Long> out = new java.util.ArrayList<>();
        for (FileExtentItem it : items) {
            out.add(it.fileOffset);
        }
        return out;
    }
}
