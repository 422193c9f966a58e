package kmodel.fs.btrfs;

import java.util.List;
import kmodel.kernel.Kernel;
import kmodel.mm.AddressSpace;
import kmodel.mm.Page;
import kmodel.mm.PageCache;

/**
 * fs/btrfs/extent_io.c: {@code extent_readpages()} in the three forms of seed 000 (the
 * {@code ->readpages} entry point before v5.8). Each page on the list was allocated by read-ahead
 * with one reference, is not yet in the page cache, and is taken off the list here
 * ({@code list_del}); {@code add_to_page_cache_lru()} adds it locked with the cache's own
 * reference, or fails ({@code -EEXIST}: another reader's copy is cached) and leaves ours to us.
 * The page is read with the v5.10 {@code btrfs_do_readpage()} (without {@code em_cached} and
 * {@code prev_em_start}, which v3.6 did not have), into one bio chain per call; the last bio is
 * submitted at the end. v3.6 read without {@code REQ_RAHEAD}, and so does the model here.
 */
final class ExtentReadpages {
    private ExtentReadpages() {
    }

    /**
     * fs/btrfs/extent_io.c: {@code extent_readpages(tree, mapping, pages, nr_pages, get_extent)}
     * (v3.5 / seed 000 v2 / v3.6, by {@code form}).
     */
    static int extentReadpages(int form, AddressSpace mapping, List<Page> pages, int nrPages) {
        ExtentIo.BioRef bio = new ExtentIo.BioRef();
        if (form == BtrfsOptions.READPAGES_PAGEPOOL_V2 && Kernel.config().enabled(BtrfsOptions.BTRFS_PAGEPOOL_NOMEM)) {
            /* v2: "if we fail to make a allocation, just fall back to the old way to read page" */
            Kernel.event("extent_readpages: pagepool allocation failed, reading page by page");
            form = BtrfsOptions.READPAGES_VANILLA;
        }
        if (form == BtrfsOptions.READPAGES_VANILLA) {
            vanilla(mapping, pages, nrPages, bio);
        } else {
            pagepool(mapping, pages, nrPages, bio);
        }
        Kernel.BUG_ON(!pages.isEmpty(), "extent_readpages: BUG_ON(!list_empty(pages))");
        if (bio.bio != null) {
            return ExtentIo.submitOneBio(bio.bio, 0, bio.bioFlags);
        }
        return 0;
    }

    /**
     * The v3.5 loop (KERNEL-NOTES C.1): each page read as soon as {@code add_to_page_cache_lru()}
     * succeeds; {@code page_cache_release()} in both cases.
     */
    private static void vanilla(AddressSpace mapping, List<Page> pages, int nrPages, ExtentIo.BioRef bio) {
        for (int pageIdx = 0; pageIdx < nrPages; pageIdx++) {
            Page page = pages.remove(0);
            if (PageCache.addToPageCacheLru(page, mapping, page.index) == 0) {
                ExtentIo.btrfsDoReadpage(page, null, bio, 0, null);
            }
            Page.putPage(page);
        }
    }

    /**
     * The 16-page pool of seed 000 (v5, merged as 67c9684f48ea; KERNEL-NOTES C.2): add up to 16
     * pages back to back, then read them in order; a page that lost the race is released at once.
     */
    private static void pagepool(AddressSpace mapping, List<Page> pages, int nrPages, ExtentIo.BioRef bio) {
        Page[] pagepool = new Page[16];
        int nr = 0;
        for (int pageIdx = 0; pageIdx < nrPages; pageIdx++) {
            Page page = pages.remove(0);
            if (PageCache.addToPageCacheLru(page, mapping, page.index) != 0) {
                Page.putPage(page);
                if (Kernel.bug(BtrfsBugs.PAGEPOOL_DOUBLE_RELEASE)) {
                    /* the mutation: the vanilla loop's tail release, reached from the failure path too */
                    Page.putPage(page);
                }
                continue;
            }
            pagepool[nr++] = page;
            if (nr < pagepool.length) {
                continue;
            }
            flush(pagepool, nr, bio);
            nr = 0;
        }
        flush(pagepool, nr, bio);
    }

    private static void flush(Page[] pagepool, int nr, ExtentIo.BioRef bio) {
        for (int i = 0; i < nr; i++) {
            ExtentIo.btrfsDoReadpage(pagepool[i], null, bio, 0, null);
            if (!Kernel.bug(BtrfsBugs.PAGEPOOL_LEAK)) {
                Page.putPage(pagepool[i]);
            }
        }
    }
}
