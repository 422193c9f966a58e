package kmodel.fs.blockdev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.block.Bio;
import kmodel.block.BlockBio;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Kernel;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Run;
import kmodel.mm.AddressSpace;
import kmodel.mm.File;
import kmodel.mm.MmOptions;
import kmodel.mm.Page;
import kmodel.mm.PageCache;
import org.junit.jupiter.api.Test;

/** fs/block_dev.c and fs/mpage.c checks that need no page unlock (so no Filemap). */
class BlockDevTest {

    static void runClean(Kconfig config, Runnable body) {
        ExecutionResult r = Run.task(config, body);
        assertNull(r.violation(), () -> r.violation().summary() + (r.oops() != null ? " " + r.oops() : ""));
    }

    @Test
    void blkdevOpenSetsFmodeNowaitAndFmodeBufRasync() {
        runClean(Kconfig.defaults(), () -> {
            Bdev b = Bdev.create(8, 2, 4);
            File f = b.open();
            assertEquals(File.FMODE_NOWAIT, f.fMode & File.FMODE_NOWAIT);
            assertEquals(File.FMODE_BUF_RASYNC, f.fMode & File.FMODE_BUF_RASYNC);
            assertSame(b.mapping(), f.fMapping);
            assertEquals(4, f.fRa.raPages);
            assertNotSame(f, b.open());
        });
    }

    @Test
    void withoutTheAsyncBufferedReadSeriesOnlyFmodeNowaitIsSet() {
        runClean(Kconfig.defaults().with(MmOptions.ASYNC_BUFFERED_READS, false), () -> {
            File f = Bdev.create(8, 2, 4).open();
            assertEquals(File.FMODE_NOWAIT, f.fMode & File.FMODE_NOWAIT);
            assertEquals(0, f.fMode & File.FMODE_BUF_RASYNC);
        });
    }

    @Test
    void theBdevInodeHasTheDisksSizeWholePageBlocksAndDefBlkAops() {
        runClean(Kconfig.defaults(), () -> {
            Bdev b = Bdev.create(6, 2, 0);
            assertEquals(6L * Page.PAGE_SIZE, (long) b.inode.iSize.plain());
            assertEquals(Page.PAGE_SHIFT, b.inode.iBlkbits);
            assertTrue(b.mapping().aOps instanceof BlockDev.DefBlkAops);
            assertTrue(b.mapping().aOps.hasReadahead());
            assertEquals(48, b.disk.gendisk.capacity());
            assertEquals("sda", b.toString());
        });
    }

    @Test
    void doMpageReadpageMergesPagesWithContiguousBlocksIntoOneBio() {
        runClean(Kconfig.defaults(), () -> {
            Bdev b = Bdev.create(8, 2, 4);
            AddressSpace mapping = b.mapping();
            BlockDev.DefBlkAops aops = (BlockDev.DefBlkAops) mapping.aOps;
            Mpage.MpageReadpageArgs args = new Mpage.MpageReadpageArgs(
                    (inode, iblock, bh, create) -> BlockDev.blkdevGetBlock(aops.bdev(), inode, iblock, bh, create), true);
            for (int i = 0; i < 3; i++) {
                Page p = PageCache.pageCacheAlloc(mapping);
                assertEquals(0, PageCache.addToPageCacheLru(p, mapping, 2 + i));
                Kernel.lifetimes().expect(p, 2, "allocation + page cache (left locked: never submitted)");
                args.page = p;
                args.nrPages = 3 - i;
                args.bio = Mpage.doMpageReadpage(args);
            }
            Bio bio = args.bio;
            assertEquals(3, bio.biVcnt, "one bio for three contiguous blocks");
            assertEquals(3, bio.biMaxVecs, "sized min(nr_pages, BIO_MAX_PAGES) at the first page");
            assertEquals(16, bio.biIter.biSector);
            assertEquals(3 * Page.PAGE_SIZE, bio.biIter.biSize);
            assertEquals(4, args.lastBlockInBio);
            assertEquals(0, b.stats().biosSubmitted, "nothing submitted yet");
            BlockBio.bioPut(bio);
        });
    }

    @Test
    void aReadAheadBioHasAtMostBioMaxPagesVecs() {
        runClean(Kconfig.defaults(), () -> {
            Bdev b = Bdev.create(8, 2, 4);
            AddressSpace mapping = b.mapping();
            BlockDev.DefBlkAops aops = (BlockDev.DefBlkAops) mapping.aOps;
            Mpage.MpageReadpageArgs args = new Mpage.MpageReadpageArgs(
                    (inode, iblock, bh, create) -> BlockDev.blkdevGetBlock(aops.bdev(), inode, iblock, bh, create), true);
            Page p = PageCache.pageCacheAlloc(mapping);
            assertEquals(0, PageCache.addToPageCacheLru(p, mapping, 0));
            Kernel.lifetimes().expect(p, 2, "allocation + page cache");
            args.page = p;
            args.nrPages = 300;
            Bio bio = Mpage.doMpageReadpage(args);
            assertEquals(256, bio.biMaxVecs);
            BlockBio.bioPut(bio);
        });
    }
}
