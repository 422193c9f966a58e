package kmodel.fs.blockdev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import kmodel.block.Bio;
import kmodel.block.BlkCore;
import kmodel.block.BlkTypes;
import kmodel.block.BlockBio;
import kmodel.block.BlockOptions;
import kmodel.kernel.sched.Completion;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.DeterministicRuntime;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Program;
import kmodel.kernel.sched.Run;
import kmodel.kernel.sched.Runtime;
import kmodel.kernel.sched.Strategy;
import kmodel.mm.AddressSpace;
import kmodel.mm.File;
import kmodel.mm.Filemap;
import kmodel.mm.Page;
import kmodel.mm.PageAllocator;
import kmodel.mm.PageCache;
import kmodel.mm.PageFlags;
import kmodel.mm.ReadaheadControl;
import org.junit.jupiter.api.Test;

/**
 * def_blk_aops end to end: pages read through bios into the disk, completed in interrupt
 * context, unlocked with {@code Filemap.unlockPage()}.
 */
class BlockDevEndToEndTest {

    static void runClean(Kconfig config, Runnable body) {
        ExecutionResult r = Run.task(config, body);
        assertNull(r.violation(), () -> r.violation().summary() + (r.oops() != null ? " " + r.oops() : ""));
        assertNull(r.stepBound());
    }

    /** Pages {@code first..first+n-1} allocated and added to the cache (locked), in a rac. */
    static ReadaheadControl rac(File f, long first, int n) {
        AddressSpace mapping = f.fMapping;
        ReadaheadControl rac = new ReadaheadControl(f, mapping, first);
        for (int i = 0; i < n; i++) {
            Page p = PageCache.pageCacheAlloc(mapping);
            assertEquals(0, PageCache.addToPageCacheLru(p, mapping, first + i));
            rac.pages.add(p);
        }
        rac.nrPages = n;
        return rac;
    }

    static boolean uptodate(Page p) {
        return PageFlags.PageUptodate(p);
    }

    @Test
    void readpageReadsOnePageWithOneBioThatIsNotReadAhead() {
        runClean(Kconfig.defaults(), () -> {
            Bdev b = Bdev.create(8, 2, 4);
            File f = b.open();
            Page p = PageCache.pageCacheAlloc(b.mapping());
            assertEquals(0, PageCache.addToPageCacheLru(p, b.mapping(), 3));
            assertEquals(0, b.mapping().aOps.readpage(f, p));
            Filemap.waitOnPageLocked(p);
            assertTrue(uptodate(p));
            assertFalse(PageFlags.PageError(p));
            b.expectBytes(3L * Page.PAGE_SIZE, p.data, 0, Page.PAGE_SIZE);
            assertEquals(1, b.stats().biosSubmitted);
            assertEquals(0, b.stats().raheadBios);
            Page.putPage(p);
            b.checkAtEnd();
        });
    }

    @Test
    void readaheadMergesContiguousPagesIntoOneReadAheadBio() {
        runClean(Kconfig.defaults().with(BlockOptions.REQ_RAHEAD_NOWAIT, true), () -> {
            Bdev b = Bdev.create(8, 2, 4);
            File f = b.open();
            ReadaheadControl rac = rac(f, 2, 4);
            List<Page> pages = new ArrayList<>(rac.pages);
            b.mapping().aOps.readahead(rac);
            for (Page p : pages) {
                Filemap.waitOnPageLocked(p);
                assertTrue(uptodate(p));
            }
            b.expectCacheMatchesDisk();
            assertEquals(1, b.stats().biosSubmitted);
            assertEquals(Map.of(4, 1L), b.stats().pagesPerBio());
            assertEquals(1, b.stats().raheadBios);
            assertEquals(1, b.stats().nowaitBios, "seed 002 patch 01: REQ_RAHEAD implies REQ_NOWAIT");
            b.checkAtEnd();
        });
    }

    @Test
    void readaheadWithNoFreeTagFailsItsPagesAtOnceUnderTheSeedPatchAndWaitsWithoutIt() {
        for (boolean patch : new boolean[] {true, false}) {
            runClean(Kconfig.defaults().with(BlockOptions.REQ_RAHEAD_NOWAIT, patch), () -> {
                Bdev b = Bdev.create(8, 1, 4);
                File f = b.open();
                // Occupy the only tag with an unrelated read.
                Page own = new PageAllocator().allocPage();
                Bio busy = BlockBio.bioAlloc(b.layer, 1);
                Bio.bioSetDev(busy, b.bdev);
                busy.biIter.biSector = 56;
                BlockBio.bioAddPage(busy, own, Page.PAGE_SIZE, 0);
                Completion done = new Completion("busy");
                busy.biPrivate = done;
                busy.biEndIo = bio -> Completion.complete((Completion) bio.biPrivate);
                BlkCore.submitBio(busy);
                ReadaheadControl rac = rac(f, 0, 2);
                List<Page> pages = new ArrayList<>(rac.pages);
                b.mapping().aOps.readahead(rac);
                if (patch) {
                    for (Page p : pages) {
                        assertFalse(PageFlags.PageLocked(p), "unlocked by mpage_end_io in the reader");
                        assertFalse(uptodate(p));
                        assertTrue(PageFlags.PageError(p), "page_endio: ClearPageUptodate + SetPageError");
                    }
                    assertEquals(1, b.stats().again);
                } else {
                    for (Page p : pages) {
                        Filemap.waitOnPageLocked(p);
                        assertTrue(uptodate(p));
                    }
                    assertEquals(1, b.stats().tagWaits);
                }
                Completion.waitForCompletionIo(done);
                BlockBio.bioPut(busy);
                Page.putPage(own);
                b.checkAtEnd();
            });
        }
    }

    @Test
    void aReadErrorFailsEveryPageOfTheBioAndUnlocksThem() {
        runClean(Kconfig.defaults(), () -> {
            Bdev b = Bdev.create(8, 2, 4);
            b.injectReadError(1);
            File f = b.open();
            ReadaheadControl rac = rac(f, 0, 3);
            List<Page> pages = new ArrayList<>(rac.pages);
            b.mapping().aOps.readahead(rac);
            for (Page p : pages) {
                Filemap.waitOnPageLocked(p);
                assertFalse(uptodate(p));
                assertTrue(PageFlags.PageError(p));
            }
            Page p = PageCache.pageCacheAlloc(b.mapping());
            assertEquals(0, PageCache.addToPageCacheLru(p, b.mapping(), 5));
            b.injectReadError(5);
            b.mapping().aOps.readpage(f, p);
            Filemap.waitOnPageLocked(p);
            assertFalse(uptodate(p));
            assertTrue(PageFlags.PageError(p), "end_buffer_async_read: SetPageError");
            Page.putPage(p);
            b.checkAtEnd();
        });
    }

    @Test
    void readAheadToADeviceWithoutNowaitSupportFailsOnlyUnderTheSeedPatch() {
        for (boolean patch : new boolean[] {true, false}) {
            runClean(Kconfig.defaults().with(BlockOptions.REQ_RAHEAD_NOWAIT, patch), () -> {
                Bdev b = Bdev.create(new kmodel.block.BlockLayer(), 8, 2, 4, false);
                ReadaheadControl rac = rac(b.open(), 0, 2);
                List<Page> pages = new ArrayList<>(rac.pages);
                b.mapping().aOps.readahead(rac);
                for (Page p : pages) {
                    Filemap.waitOnPageLocked(p);
                    assertEquals(!patch, uptodate(p));
                }
                assertEquals(patch ? 1 : 0, b.stats().notsupp);
                b.checkAtEnd();
            });
        }
    }

    @Test
    void readpagePastTheEndOfTheDeviceZeroesThePageWithoutIo() {
        runClean(Kconfig.defaults(), () -> {
            Bdev b = Bdev.create(4, 2, 4);
            Page p = PageCache.pageCacheAlloc(b.mapping());
            p.data[7] = 42;
            assertEquals(0, PageCache.addToPageCacheLru(p, b.mapping(), 4));
            b.mapping().aOps.readpage(b.open(), p);
            assertFalse(PageFlags.PageLocked(p));
            assertTrue(uptodate(p));
            assertEquals(0, p.data[7]);
            assertEquals(0, b.stats().biosSubmitted);
            Page.putPage(p);
            b.checkAtEnd();
        });
    }

    /**
     * Readers doing read-ahead of disjoint windows and readpage, under random schedules: three
     * bios for two request tags, so in some schedules a read-ahead bio ({@code REQ_NOWAIT} with
     * seed 002 patch 01, set here) finds no free tag and fails its pages with {@code BLK_STS_AGAIN}. Every
     * page ends uptodate with the disk's bytes or in error; both outcomes are reached.
     */
    @Test
    void concurrentReadAheadAndReadpageUnderRandomSchedulesFillTheCacheWithTheDisksBytes() {
        final int runs = 200;
        /* executions in which a read-ahead bio found no free tag */
        int[] again = new int[1];
        Program program = new Program() {
            Bdev b;

            @Override
            public void boot(Runtime rt) {
                b = Bdev.create(8, 2, 4);
                File f = b.open();
                for (int t = 0; t < 2; t++) {
                    final long first = 4L * t;
                    rt.spawn("ra" + t, null, false, false, () -> {
                        ReadaheadControl rac = rac(f, first, 3);
                        List<Page> pages = new ArrayList<>(rac.pages);
                        b.mapping().aOps.readahead(rac);
                        for (Page p : pages) {
                            Filemap.waitOnPageLocked(p);
                        }
                    });
                }
                rt.spawn("rp", null, false, false, () -> {
                    Page p = PageCache.pageCacheAlloc(b.mapping());
                    if (PageCache.addToPageCacheLru(p, b.mapping(), 7) == 0) {
                        b.mapping().aOps.readpage(f, p);
                        Filemap.waitOnPageLocked(p);
                    }
                    Page.putPage(p);
                });
            }

            @Override
            public String finish() {
                b.expectCacheMatchesDisk();
                for (Page p : b.mapping().peekPages()) {
                    if (!PageFlags.PageUptodate(p) && !PageFlags.PageError(p)) {
                        Kernel.fail(ViolationKind.BUG_ON, p.describe() + " neither uptodate nor in error");
                    }
                }
                b.checkAtEnd();
                if (b.stats().again > 0) {
                    again[0]++;
                }
                return b.stats().pagesPerBio().toString();
            }
        };
        DeterministicRuntime.callOnRuntimeThread(() -> {
            try (DeterministicRuntime rt = new DeterministicRuntime()) {
                Strategy s = kmodel.kernel.sched.Run.seededRandom(3);
                for (int i = 0; i < runs; i++) {
                    ExecutionResult res = rt.execute(program, s,
                            Kconfig.defaults().with(BlockOptions.REQ_RAHEAD_NOWAIT, true), 200_000, false, false);
                    assertNull(res.violation(), () -> res.violation().summary());
                    assertNull(res.stepBound());
                }
            }
            return null;
        });
        assertTrue(again[0] > 0, "no schedule ran out of request tags");
        assertTrue(again[0] < runs, "every schedule ran out of request tags");
    }
}
