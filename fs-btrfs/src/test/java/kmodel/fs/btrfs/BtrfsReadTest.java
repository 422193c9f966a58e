package kmodel.fs.btrfs;

import static kmodel.fs.btrfs.BtrfsTesting.read;
import static kmodel.fs.btrfs.BtrfsTesting.runClean;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.kernel.Errno;
import kmodel.kernel.Kconfig;
import kmodel.mm.File;
import kmodel.mm.Page;
import org.junit.jupiter.api.Test;

/** Deterministic reads through the btrfs read path on the non-preemptive schedule. */
class BtrfsReadTest {
    static final int P = Page.PAGE_SIZE;

    static Kconfig form(int f) {
        return Kconfig.defaults().with(BtrfsOptions.BTRFS_READPAGES, f);
    }

    /** A SINGLE volume with one regular file of {@code pages} pages, read ahead up to {@code ra} pages. */
    static BtrfsTesting.World plain(BtrfsTesting.World w, BtrfsVolume.Profile profile, int pages, int ra) {
        w.vol = BtrfsVolume.mkfs(profile, false);
        BtrfsVolume.FileBuilder b = w.vol.file("f");
        b.regular(0, (long) pages * P);
        w.inode = b.create();
        w.file = w.vol.open(w.inode, "f.f0", ra);
        return w;
    }

    @Test
    void everyFormReadsTheFileCorrectlyAndMergesPagesIntoBios() {
        for (int f = 0; f <= 3; f++) {
            final BtrfsStats[] stats = new BtrfsStats[1];
            runClean(form(f), w -> plain(w, BtrfsVolume.Profile.SINGLE, 8, 8), w -> {
                assertEquals(8L * P, read(w, 0, 8 * P));
                stats[0] = w.vol.fsInfo.stats;
            });
            final int ff = f;
            assertTrue(stats[0].meanPagesPerBio() > 1, () -> "form " + ff + ": " + stats[0]);
        }
    }

    /** Seed 000 v2: when the pool cannot be allocated, the vanilla loop reads the pages. */
    @Test
    void thePagepoolV2FallsBackToTheVanillaLoopWhenItsAllocationFails() {
        final BtrfsStats[] stats = new BtrfsStats[1];
        runClean(form(BtrfsOptions.READPAGES_PAGEPOOL_V2).with(BtrfsOptions.BTRFS_PAGEPOOL_NOMEM, true),
                w -> plain(w, BtrfsVolume.Profile.SINGLE, 8, 8), w -> {
                    assertEquals(8L * P, read(w, 0, 8 * P));
                    stats[0] = w.vol.fsInfo.stats;
                });
        assertTrue(stats[0].meanPagesPerBio() > 1, stats[0]::toString);
    }

    @Test
    void raid0ReadsAreCutAtTheStripeBoundary() {
        final BtrfsStats[] stats = new BtrfsStats[1];
        runClean(Kconfig.defaults(), w -> plain(w, BtrfsVolume.Profile.RAID0, 24, 32), w -> {
            assertEquals(24L * P, read(w, 0, 24 * P));
            stats[0] = w.vol.fsInfo.stats;
        });
        /* 96 KiB from logical 1 MiB: the first 64 KiB stripe holds 16 pages, the next one 8 */
        assertTrue(stats[0].pagesPerBio().keySet().stream().allMatch(n -> n <= 16), stats[0]::toString);
        assertTrue(stats[0].bios >= 2, stats[0]::toString);
    }

    /** Holes, a compressed extent, a reflink of part of it right after it, a reflink of a plain extent. */
    static BtrfsTesting.World mixed(BtrfsTesting.World w) {
        w.vol = BtrfsVolume.mkfs(BtrfsVolume.Profile.SINGLE, false);
        BtrfsVolume.FileBuilder b = w.vol.file("f");
        FileExtentItem reg = b.regular(0, 2L * P);
        b.hole(2L * P, P);
        FileExtentItem comp = b.compressed(3L * P, 4L * P);
        b.reflink(7L * P, comp, P, 2L * P);
        b.reflink(9L * P, reg, P, P);
        w.inode = b.size(10L * P - 100).create();
        w.file = w.vol.open(w.inode, "f.f0", 16);
        return w;
    }

    @Test
    void holesInlineCompressedAndSharedExtentsReadAsTheirBytes() {
        runClean(Kconfig.defaults(), BtrfsReadTest::mixed, w -> assertEquals(10L * P - 100, read(w, 0, 10 * P)));
    }

    /**
     * The older read-ahead loops have no {@code prev_em_start}: a compressed extent and a reflink of
     * it right after share one bio, decompressed for the first range only, and the second range
     * reads zeros: the corruption 8e928218780e ("Btrfs: fix corruption reading shared and
     * compressed extents after hole punching", v4.3) fixed with {@code force_bio_submit}.
     */
    @Test
    void withoutPrevEmStartASharedCompressedExtentReadsAsZeros() {
        for (int f = 0; f <= 2; f++) {
            kmodel.kernel.Violation v = BtrfsTesting.runViolating(form(f), kmodel.kernel.ViolationKind.DATA_CORRUPTION,
                    BtrfsReadTest::mixed, w -> read(w, 0, 10 * P));
            assertTrue(v.getMessage().contains("byte 28672 of f read as 0"), v::summary);
        }
    }

    @Test
    void anInlineExtentIsCopiedAndTheRestOfThePageZeroed() {
        runClean(Kconfig.defaults(), w -> {
            w.vol = BtrfsVolume.mkfs(BtrfsVolume.Profile.SINGLE, false);
            BtrfsVolume.FileBuilder b = w.vol.file("f");
            b.inline(300);
            w.inode = b.create();
            w.file = w.vol.open(w.inode, "f.f0", 4);
            return w;
        }, w -> assertEquals(300L, read(w, 0, P)));
    }

    @Test
    void raid1RepairsACorruptedBlockFromTheOtherMirror() {
        for (int mirror = 1; mirror <= 2; mirror++) {
            final int bad = mirror;
            final BtrfsStats[] stats = new BtrfsStats[1];
            runClean(Kconfig.defaults(), w -> {
                plain(w, BtrfsVolume.Profile.RAID1, 4, 4);
                w.vol.corrupt(w.vol.logicalOf(w.inode, P + 10), bad);
                return w;
            }, w -> {
                assertEquals(4L * P, read(w, 0, 4 * P));
                stats[0] = w.vol.fsInfo.stats;
            });
            assertEquals(0, stats[0].pageErrors, stats[0]::toString);
        }
    }

    @Test
    void raid1RepairsABadSectorFromTheOtherMirror() {
        for (int mirror = 1; mirror <= 2; mirror++) {
            final int bad = mirror;
            final BtrfsStats[] stats = new BtrfsStats[1];
            runClean(Kconfig.defaults(), w -> {
                plain(w, BtrfsVolume.Profile.RAID1, 4, 4);
                w.vol.badSector(w.vol.logicalOf(w.inode, 2L * P), bad);
                return w;
            }, w -> {
                assertEquals(4L * P, read(w, 0, 4 * P));
                stats[0] = w.vol.fsInfo.stats;
            });
            assertEquals(0, stats[0].pageErrors, stats[0]::toString);
        }
    }

    @Test
    void raid1WithBothCopiesBadReturnsEio() {
        runClean(Kconfig.defaults(), w -> {
            plain(w, BtrfsVolume.Profile.RAID1, 4, 4);
            long l = w.vol.logicalOf(w.inode, P);
            w.vol.corrupt(l, 1);
            w.vol.corrupt(l, 2);
            return w;
        }, w -> {
            assertEquals((long) P, read(w, 0, 4 * P));
            assertEquals(-Errno.EIO, read(w, P, P));
        });
    }

    /** A corrupt block of a SINGLE volume: with checksums the read fails; with {@code nodatasum} the bad bytes reach the reader. */
    @Test
    void nodatasumReadsCorruptDataWithoutNoticing() {
        for (int nodatasum = 0; nodatasum <= 1; nodatasum++) {
            final boolean off = nodatasum == 1;
            java.util.function.Function<BtrfsTesting.World, BtrfsTesting.World> setup = w -> {
                w.vol = BtrfsVolume.mkfs(BtrfsVolume.Profile.SINGLE, off);
                BtrfsVolume.FileBuilder b = w.vol.file("f");
                b.regular(0, 2L * P);
                w.inode = b.create();
                w.file = w.vol.open(w.inode, "f.f0", 2);
                w.vol.corrupt(w.vol.logicalOf(w.inode, 5), 1);
                return w;
            };
            if (off) {
                kmodel.kernel.Violation v = BtrfsTesting.runViolating(Kconfig.defaults(),
                        kmodel.kernel.ViolationKind.DATA_CORRUPTION, setup, w -> read(w, 0, 2 * P));
                assertTrue(v.getMessage().contains("byte 5 of f read as"), v::summary);
            } else {
                runClean(Kconfig.defaults(), setup, w -> assertEquals(-Errno.EIO, read(w, 0, 2 * P)));
            }
        }
    }

    /** The end-of-run check counts extent map references: one taken and never dropped is a ref-leak. */
    @Test
    void anExtentMapReferenceNeverDroppedIsARefLeak() {
        kmodel.kernel.Violation v = BtrfsTesting.runViolating(Kconfig.defaults(), kmodel.kernel.ViolationKind.REF_LEAK,
                w -> plain(w, BtrfsVolume.Profile.SINGLE, 2, 2), w -> {
                    assertEquals(2L * P, read(w, 0, 2 * P));
                    BtrfsInodeOps.btrfsGetExtent(w.inode, null, 0, 0, P);
                });
        assertTrue(v.getMessage().contains("extent_map f.extent_tree.em0 holds 2 reference(s) at the end, expected 1"),
                v::summary);
    }

    @Test
    void btrfsFileOpenSetsFmodeBufRasync() {
        runClean(Kconfig.defaults(), w -> plain(w, BtrfsVolume.Profile.SINGLE, 1, 1),
                w -> assertTrue((w.file.fMode & File.FMODE_BUF_RASYNC) != 0));
    }
}
