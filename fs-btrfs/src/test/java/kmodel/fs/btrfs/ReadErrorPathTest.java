package kmodel.fs.btrfs;

import static kmodel.fs.btrfs.BtrfsTesting.read;
import static kmodel.fs.btrfs.BtrfsTesting.runClean;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import kmodel.mm.Filemap;
import kmodel.mm.Page;
import kmodel.mm.PageCache;
import kmodel.mm.PageFlags;
import kmodel.mm.Readahead;
import org.junit.jupiter.api.Test;

/**
 * A {@code btrfs_bio_alloc()} failure in the middle of a read-ahead batch
 * ({@code BTRFS_BIO_ALLOC_FAIL}, the pre-v4.13 {@code -ENOMEM} return of
 * {@code submit_extent_page()}), in every {@code BTRFS_READPAGES} form: exactly the page that met
 * the failure ends with {@code PG_error}, not uptodate, and unlocked; the pages before it (in the
 * bio already built, submitted) and after it (in a new bio) are read; a later read retries the page
 * with {@code ->readpage()} and gets every byte; nothing leaked.
 */
class ReadErrorPathTest {
    static final int P = Page.PAGE_SIZE;

    /** A 3-page file whose page 0 lies on disk after pages 1 and 2: a batch of the three needs two bios. */
    static BtrfsTesting.World split(BtrfsTesting.World w) {
        w.vol = BtrfsVolume.mkfs(BtrfsVolume.Profile.SINGLE, false);
        BtrfsVolume.FileBuilder b = w.vol.file("f");
        b.regular(P, 2L * P);
        b.regular(0, P);
        w.inode = b.create();
        w.file = w.vol.open(w.inode, "f.f0", 3);
        return w;
    }

    static Kconfig config(int form) {
        return Kconfig.defaults().with(BtrfsOptions.BTRFS_READPAGES, form).with(BtrfsOptions.BTRFS_BIO_ALLOC_FAIL, 2);
    }

    @Test
    void theFailedPageAloneIsErroredAndUnlockedAndALaterReadRetriesIt() {
        for (int f = 0; f <= 3; f++) {
            final int form = f;
            final BtrfsStats[] stats = new BtrfsStats[1];
            runClean(config(form), ReadErrorPathTest::split, w -> {
                Readahead.pageCacheSyncReadahead(w.inode.vfsInode.iMapping, w.file.fRa, w.file, 0, 3);
                for (long i = 0; i < 3; i++) {
                    Page p = PageCache.findGetPage(w.inode.vfsInode.iMapping, i);
                    Filemap.waitOnPageLocked(p);
                    boolean failed = i == 1;
                    final long idx = i;
                    assertEquals(failed, PageFlags.PageError(p), () -> "form " + form + ", page " + idx + " PG_error");
                    assertEquals(!failed, PageFlags.PageUptodate(p), () -> "form " + form + ", page " + idx + " PG_uptodate");
                    assertFalse(PageFlags.PageLocked(p));
                    Page.putPage(p);
                }
                assertEquals(3L * P, read(w, 0, 3 * P));
                stats[0] = w.vol.fsInfo.stats;
            });
            assertEquals(1L, stats[0].allocFailures, stats[0]::toString);
            /* page 0's bio, page 2's bio, then page 1's ->readpage() retry */
            assertEquals(3L, stats[0].bios, stats[0]::toString);
        }
    }

    /** The mutation {@code btrfs-readpage-error-keeps-lock} leaves the failed page locked: its reader sleeps for good. */
    @Test
    void withTheErrorPathMutatedTheFailedPageStaysLocked() {
        kmodel.kernel.Violation v = BtrfsTesting.runViolating(config(BtrfsOptions.READAHEAD_V510)
                .withBug(BtrfsBugs.READPAGE_ERROR_KEEPS_LOCK), ViolationKind.MISSED_WAKEUP, ReadErrorPathTest::split,
                w -> read(w, 0, 3 * P));
        assertTrue(v.getMessage().contains("P1 (PG_locked) held by t1 itself"), v::summary);
    }
}
