package kmodel.fs.btrfs;

import static kmodel.fs.btrfs.BtrfsTesting.read;
import static kmodel.fs.btrfs.BtrfsTesting.runClean;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Map;
import java.util.TreeMap;
import kmodel.block.Bio;
import kmodel.block.BlkTypes;
import kmodel.kernel.Errno;
import kmodel.kernel.Kconfig;
import kmodel.mm.Page;
import kmodel.mm.PageCache;
import org.junit.jupiter.api.Test;

/**
 * The merge rule of {@code submit_extent_page()}, one case per condition (ExtentIo's class notes
 * (a)-(e)), each against the merge it would otherwise make, and its allocation-failure return.
 * Pages are put in the page cache locked, as read-ahead leaves them; the bios are really submitted,
 * so the end-of-run checks also see the bytes each page got.
 */
class SubmitExtentPageTest {
    static final int P = Page.PAGE_SIZE;

    static BtrfsTesting.World file(BtrfsTesting.World w, BtrfsVolume.Profile profile, int pages, boolean compressed) {
        w.vol = BtrfsVolume.mkfs(profile, false);
        BtrfsVolume.FileBuilder b = w.vol.file("f");
        if (compressed) {
            b.compressed(0, (long) pages * P);
        } else {
            b.regular(0, (long) pages * P);
        }
        w.inode = b.create();
        w.file = w.vol.open(w.inode, "f.f0", 0);
        return w;
    }

    /** Page {@code index} of the file, locked in the page cache; the caller holds a reference. */
    static Page cached(BtrfsTesting.World w, long index) {
        Page p = PageCache.pageCacheAlloc(w.inode.vfsInode.iMapping);
        assertEquals(0, PageCache.addToPageCacheLru(p, w.inode.vfsInode.iMapping, index));
        return p;
    }

    /** Adds page {@code index} at its own disk address with {@code flags}; returns the bio after. */
    static Bio add(BtrfsTesting.World w, ExtentIo.BioRef ref, Page p, int prevFlags, int flags, boolean force) {
        long disk = w.vol.logicalOf(w.inode, p.index * (long) P);
        assertEquals(0, ExtentIo.submitExtentPage(BlkTypes.REQ_OP_READ, p, disk, P, 0, ref,
                ExtentIo.END_BIO_EXTENT_READPAGE, 0, prevFlags, flags, force));
        ref.bioFlags = flags;
        return ref.bio;
    }

    /** Submits what is left and drops the test's page references. */
    static void finish(ExtentIo.BioRef ref, Page... pages) {
        if (ref.bio != null) {
            ExtentIo.submitOneBio(ref.bio, 0, ref.bioFlags);
        }
        for (Page p : pages) {
            Page.putPage(p);
        }
    }

    @Test
    void aContiguousBlockWithTheSameFlagsJoinsTheBio() {
        runClean(Kconfig.defaults(), w -> file(w, BtrfsVolume.Profile.SINGLE, 2, false), w -> {
            ExtentIo.BioRef ref = new ExtentIo.BioRef();
            Page p0 = cached(w, 0);
            Page p1 = cached(w, 1);
            Bio b0 = add(w, ref, p0, 0, 0, false);
            assertSame(b0, add(w, ref, p1, 0, 0, false));
            assertEquals(2, b0.biVcnt);
            finish(ref, p0, p1);
        });
    }

    @Test
    void aDifferentBioFlagsStartsANewBio() {
        runClean(Kconfig.defaults(), w -> file(w, BtrfsVolume.Profile.SINGLE, 2, false), w -> {
            ExtentIo.BioRef ref = new ExtentIo.BioRef();
            Page p0 = cached(w, 0);
            Page p1 = cached(w, 1);
            Bio b0 = add(w, ref, p0, 0, 0, false);
            /* a compress type without EXTENT_BIO_COMPRESSED: only the flags differ */
            assertNotSame(b0, add(w, ref, p1, 0, 1 << ExtentIo.EXTENT_BIO_FLAG_SHIFT, false));
            finish(ref, p0, p1);
        });
    }

    @Test
    void aBlockThatDoesNotFollowTheBioStartsANewBio() {
        runClean(Kconfig.defaults(), w -> file(w, BtrfsVolume.Profile.SINGLE, 3, false), w -> {
            ExtentIo.BioRef ref = new ExtentIo.BioRef();
            Page p0 = cached(w, 0);
            Page p2 = cached(w, 2);
            Bio b0 = add(w, ref, p0, 0, 0, false);
            assertNotSame(b0, add(w, ref, p2, 0, 0, false));
            finish(ref, p0, p2);
        });
    }

    @Test
    void blocksOfOneCompressedExtentShareTheBioByItsStartSector() {
        final BtrfsStats[] stats = new BtrfsStats[1];
        runClean(Kconfig.defaults(), w -> file(w, BtrfsVolume.Profile.SINGLE, 4, true), w -> {
            ExtentIo.BioRef ref = new ExtentIo.BioRef();
            Page[] p = new Page[4];
            ExtentMap[] emCached = new ExtentMap[1];
            long[] prevEmStart = {-1L};
            for (int i = 0; i < 4; i++) {
                p[i] = cached(w, i);
                ExtentIo.btrfsDoReadpage(p[i], emCached, ref, 0, prevEmStart);
            }
            assertEquals(4, ref.bio.biVcnt);
            ExtentMap.freeExtentMap(emCached[0]);
            finish(ref, p);
            stats[0] = w.vol.fsInfo.stats;
        });
        assertEquals(1L, stats[0].compressedReads);
    }

    @Test
    void aBlockBeyondTheStripeStartsANewBio() {
        /* RAID1 bios are cut at 64 KiB stripes too: page 16 of a chunk-aligned file starts the next one */
        runClean(Kconfig.defaults(), w -> file(w, BtrfsVolume.Profile.RAID1, 17, false), w -> {
            ExtentIo.BioRef ref = new ExtentIo.BioRef();
            Page[] p = new Page[17];
            Bio first = null;
            for (int i = 0; i < 16; i++) {
                p[i] = cached(w, i);
                Bio b = add(w, ref, p[i], 0, 0, false);
                first = first == null ? b : first;
                assertSame(first, b);
            }
            p[16] = cached(w, 16);
            assertNotSame(first, add(w, ref, p[16], 0, 0, false));
            finish(ref, p);
        });
    }

    @Test
    void forceBioSubmitStartsANewBio() {
        runClean(Kconfig.defaults(), w -> file(w, BtrfsVolume.Profile.SINGLE, 2, false), w -> {
            ExtentIo.BioRef ref = new ExtentIo.BioRef();
            Page p0 = cached(w, 0);
            Page p1 = cached(w, 1);
            Bio b0 = add(w, ref, p0, 0, 0, false);
            assertNotSame(b0, add(w, ref, p1, 0, 0, true));
            finish(ref, p0, p1);
        });
    }

    @Test
    void aFullBioIsSubmittedAndTheBlockStartsANewOne() {
        final BtrfsStats[] stats = new BtrfsStats[1];
        int n = BlkTypes.BIO_MAX_PAGES + 1;
        runClean(Kconfig.defaults(), w -> file(w, BtrfsVolume.Profile.SINGLE, n, false), w -> {
            ExtentIo.BioRef ref = new ExtentIo.BioRef();
            Page[] p = new Page[n];
            for (int i = 0; i < n; i++) {
                p[i] = cached(w, i);
                add(w, ref, p[i], 0, 0, false);
            }
            finish(ref, p);
            stats[0] = w.vol.fsInfo.stats;
        });
        Map<Integer, Long> want = new TreeMap<>();
        want.put(1, 1L);
        want.put(BlkTypes.BIO_MAX_PAGES, 1L);
        assertEquals(want, stats[0].pagesPerBio());
    }

    @Test
    void aFailedBioAllocationReturnsEnomemAndForgetsTheBio() {
        runClean(Kconfig.defaults().with(BtrfsOptions.BTRFS_BIO_ALLOC_FAIL, 2), w -> file(w, BtrfsVolume.Profile.SINGLE, 3, false),
                w -> {
                    ExtentIo.BioRef ref = new ExtentIo.BioRef();
                    Page p0 = cached(w, 0);
                    Page p2 = cached(w, 2);
                    add(w, ref, p0, 0, 0, false);
                    long disk = w.vol.logicalOf(w.inode, 2L * P);
                    assertEquals(-Errno.ENOMEM, ExtentIo.submitExtentPage(BlkTypes.REQ_OP_READ, p2, disk, P, 0, ref,
                            ExtentIo.END_BIO_EXTENT_READPAGE, 0, 0, 0, false));
                    assertNull(ref.bio);
                    kmodel.mm.Filemap.unlockPage(p2);
                    finish(ref, p0, p2);
                });
    }

    @Test
    void aReaderGetsItsBytesWhenABioAllocationFailsUnderReadahead() {
        for (int f = 0; f <= 3; f++) {
            final BtrfsStats[] stats = new BtrfsStats[1];
            runClean(Kconfig.defaults().with(BtrfsOptions.BTRFS_READPAGES, f).with(BtrfsOptions.BTRFS_BIO_ALLOC_FAIL, 1),
                    w -> {
                        file(w, BtrfsVolume.Profile.SINGLE, 4, false);
                        w.file = w.vol.open(w.inode, "f.f1", 4);
                        return w;
                    }, w -> {
                        /* read-ahead's first page fails (PG_error, unlocked); the read path re-reads it with ->readpage */
                        assertEquals(4L * P, read(w, 0, 4 * P));
                        stats[0] = w.vol.fsInfo.stats;
                    });
            assertEquals(1L, stats[0].allocFailures);
        }
    }
}
