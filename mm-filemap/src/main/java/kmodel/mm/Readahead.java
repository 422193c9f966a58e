package kmodel.mm;

import java.util.ArrayList;
import java.util.List;
import kmodel.kernel.Kernel;

/**
 * mm/readahead.c (v5.10) and the {@code page_cache_sync_readahead()} /
 * {@code page_cache_async_readahead()} wrappers of include/linux/pagemap.h.
 *
 * <h2>The window</h2>
 * {@link FileRaState} holds the last read-ahead: {@code start}, {@code size}, and
 * {@code async_size}; the page at {@code start + size - async_size} is marked PG_readahead, and a
 * reader that finds the marker starts the next window asynchronously:
 * <pre>
 *                        |&lt;----- async_size ---------|
 *     |------------------- size --------------------&gt;|
 *     |==================#===========================|
 *     ^start             ^page marked with PG_readahead
 * </pre>
 *
 * <h2>Read-ahead I/O is marked as read-ahead</h2>
 * Pages reach the file system in one of three ways ({@link #readPages}): {@code ->readahead(rac)},
 * {@code ->readpages(...)}, or, when it has neither, {@code ->readpage()} per page. Everything
 * submitted from {@code ->readahead} or {@code ->readpages} is read-ahead: the block layer marks
 * those bios {@code REQ_RAHEAD} ({@code mpage_readahead()} sets {@code is_readahead}; btrfs'
 * readpages does the same). {@code ->readpage()} I/O, including this fallback loop and the
 * read path's own {@code ->readpage()} call, is not read-ahead, as in v5.10. So a file system
 * model needs no flag: a {@link ReadaheadControl} in hand means read-ahead.
 *
 * <h2>Read-ahead disabled</h2>
 * With {@code ra_pages == 0}, v5.10 still issues the page the reader needs <em>as read-ahead</em>:
 * {@code page_cache_sync_ra()} forces a one-page {@code force_page_cache_ra()} ("Even if
 * read-ahead is disabled, issue this request as read-ahead as we'll need it to satisfy the
 * requested range"); asynchronous read-ahead is off. v5.9 ({@link MmOptions#READ_PATH_V59})
 * issued nothing: the read path then read the page itself at {@code no_cached_page}.
 *
 * <p>Concurrency: {@code f_ra} is touched without scheduling points (see {@link File}); page cache
 * lookups and inserts go through {@link PageCache}. Pages added by read-ahead are locked and not
 * uptodate until the file system's completion unlocks them.
 */
public final class Readahead {
    /** include/linux/mm.h: {@code VM_READAHEAD_PAGES}: 128 KiB in pages. */
    public static final int VM_READAHEAD_PAGES = (128 * 1024) / Page.PAGE_SIZE;

    private Readahead() {
    }

    // ------------------------------------------------------------------ pagemap.h wrappers

    /** include/linux/pagemap.h: {@code page_cache_sync_readahead()} (v5.10): {@code DEFINE_READAHEAD} + sync_ra. */
    public static void pageCacheSyncReadahead(AddressSpace mapping, FileRaState ra, File file, long index,
            long reqCount) {
        ReadaheadControl ractl = new ReadaheadControl(file, mapping, index);
        pageCacheSyncRa(ractl, ra, reqCount);
    }

    /** include/linux/pagemap.h: {@code page_cache_async_readahead()} (v5.10). */
    public static void pageCacheAsyncReadahead(AddressSpace mapping, FileRaState ra, File file, Page page,
            long index, long reqCount) {
        ReadaheadControl ractl = new ReadaheadControl(file, mapping, index);
        pageCacheAsyncRa(ractl, ra, page, reqCount);
    }

    // ------------------------------------------------------------------ entry points

    /**
     * mm/readahead.c: {@code page_cache_sync_ra()} (v5.10): a cache miss. Read-ahead disabled (or
     * a congested cgroup, never in the model): force a one-page read-ahead of the needed page;
     * otherwise {@code ondemand_readahead()}.
     *
     * <p>With {@link MmOptions#READ_PATH_V59}: mm/readahead.c {@code page_cache_sync_readahead()}
     * (v5.9) instead, which returns at once when read-ahead is disabled ("no read-ahead"), before
     * 324bcf54c449 ("mm: use limited read-ahead to satisfy read") made it force one page.
     */
    public static void pageCacheSyncRa(ReadaheadControl ractl, FileRaState ra, long reqCount) {
        boolean doForcedRa = false; /* ractl->file && (f_mode & FMODE_RANDOM): not modelled */
        Kernel.accessRead(ra);

        if (Kernel.config().enabled(MmOptions.READ_PATH_V59)) {
            /* v5.9: no read-ahead */
            if (ra.raPages == 0) {
                return;
            }
            /* blk_cgroup_congested(), FMODE_RANDOM: not modelled */
            ondemandReadahead(ractl, ra, false, reqCount);
            return;
        }
        if (ra.raPages == 0) {
            if (ractl.file == null) {
                return;
            }
            reqCount = 1;
            doForcedRa = true;
        }
        /* be dumb */
        if (doForcedRa) {
            forcePageCacheRa(ractl, ra, reqCount);
            return;
        }
        ondemandReadahead(ractl, ra, false, reqCount);
    }

    /**
     * mm/readahead.c: {@code page_cache_async_ra()} (v5.10): the reader hit a PG_readahead page.
     * Nothing if read-ahead is off or the page is under writeback (PG_readahead is PG_reclaim's
     * bit); else clear the marker and ramp the window up.
     */
    public static void pageCacheAsyncRa(ReadaheadControl ractl, FileRaState ra, Page page, long reqCount) {
        Kernel.accessRead(ra);
        /* no read-ahead */
        if (ra.raPages == 0) {
            return;
        }
        /* Same bit is used for PG_readahead and PG_reclaim. */
        if (PageFlags.PageWriteback(page)) {
            return;
        }
        PageFlags.ClearPageReadahead(page);
        /* inode_read_congested(), blk_cgroup_congested(): never in the model */
        ondemandReadahead(ractl, ra, true, reqCount);
    }

    // ------------------------------------------------------------------ the window

    /** mm/readahead.c: {@code get_init_ra_size()}: round up to a power of two; x4 small, x2 medium, else max. */
    static long getInitRaSize(long size, long max) {
        long newsize = roundupPowOfTwo(size);
        if (newsize <= max / 32) {
            newsize = newsize * 4;
        } else if (newsize <= max / 4) {
            newsize = newsize * 2;
        } else {
            newsize = max;
        }
        return newsize;
    }

    /** mm/readahead.c: {@code get_next_ra_size()}: ramp the previous window up (x4, x2, then max). */
    static long getNextRaSize(FileRaState ra, long max) {
        long cur = ra.size;
        if (cur < max / 16) {
            return 4 * cur;
        }
        if (cur <= max / 2) {
            return 2 * cur;
        }
        return max;
    }

    private static long roundupPowOfTwo(long n) {
        long p = 1;
        while (p < n) {
            p <<= 1;
        }
        return p;
    }

    /** mm/readahead.c: {@code count_history_pages()}: contiguously cached pages before {@code index}. */
    static long countHistoryPages(AddressSpace mapping, long index, long max) {
        long head = PageCache.pageCachePrevMiss(mapping, index - 1, max);
        return index - 1 - head;
    }

    /** mm/readahead.c: {@code try_context_readahead()}: size a window from the cached history. */
    static boolean tryContextReadahead(AddressSpace mapping, FileRaState ra, long index, long reqSize, long max) {
        long size = countHistoryPages(mapping, index, max);
        Kernel.access(ra); // the lookup had scheduling points: this step writes the window
        /* not enough history pages: it could be a random read */
        if (size <= reqSize) {
            return false;
        }
        /* starts from beginning of file: a strong indication of long-run stream */
        if (size >= index) {
            size *= 2;
        }
        ra.start = index;
        ra.size = (int) Math.min(size + reqSize, max);
        ra.asyncSize = 1;
        return true;
    }

    /**
     * mm/readahead.c: {@code ondemand_readahead()} (v5.10): start of file or oversize or a
     * sequential miss: the initial window ({@code get_init_ra_size}, async_size = size - req);
     * the expected marker index: push the window forward and ramp it up; a marker without
     * valid state (interleaved readers): size the window from the cached run after
     * {@code index}; else the history of cached pages, or a small random read as is. Then, if
     * the read would hit its own marker at once, merge the next window.
     */
    static void ondemandReadahead(ReadaheadControl ractl, FileRaState ra, boolean hitReadaheadMarker, long reqSize) {
        Kernel.access(ra);
        long maxPages = ra.raPages;
        long ioPages = ractl.mapping.ioPages;
        long index = ractl.readaheadIndex();

        /* If the request exceeds the readahead window, allow the read to be up to the optimal hardware IO size */
        if (reqSize > maxPages && ioPages > maxPages) {
            maxPages = Math.min(reqSize, ioPages);
        }

        boolean initial = false;
        boolean readit = false;
        if (index == 0) {
            /* start of file */
            initial = true;
        } else if (index == ra.start + ra.size - ra.asyncSize || index == ra.start + ra.size) {
            /* It's the expected callback index, assume sequential access. */
            ra.start += ra.size;
            ra.size = (int) getNextRaSize(ra, maxPages);
            ra.asyncSize = ra.size;
            readit = true;
        } else if (hitReadaheadMarker) {
            /* Hit a marked page without valid readahead state, e.g. interleaved reads. */
            long start = PageCache.pageCacheNextMiss(ractl.mapping, index + 1, maxPages);
            Kernel.access(ra); // the lookup had scheduling points: this step writes the window
            if (start == 0 || start - index > maxPages) {
                return;
            }
            ra.start = start;
            ra.size = (int) (start - index); /* old async_size */
            ra.size += (int) reqSize;
            ra.size = (int) getNextRaSize(ra, maxPages);
            ra.asyncSize = ra.size;
            readit = true;
        } else if (reqSize > maxPages) {
            /* oversize read */
            initial = true;
        } else {
            /* sequential cache miss: (index - prev_index) <= 1 (unsigned in the kernel) */
            long prevIndex = ra.prevPos >> Page.PAGE_SHIFT;
            long delta = index - prevIndex;
            if (ra.prevPos >= 0 && delta >= 0 && delta <= 1) {
                initial = true;
            } else if (tryContextReadahead(ractl.mapping, ra, index, reqSize, maxPages)) {
                readit = true;
            } else {
                /* standalone, small random read: read as is, and do not pollute the readahead state */
                doPageCacheRa(ractl, reqSize, 0);
                return;
            }
        }

        if (initial) {
            ra.start = index;
            ra.size = (int) getInitRaSize(reqSize, maxPages);
            ra.asyncSize = ra.size > reqSize ? (int) (ra.size - reqSize) : ra.size;
        }
        /*
         * readit: Will this read hit the readahead marker made by itself? If so, trigger the
         * readahead marker hit now, and merge the resulted next readahead window into the
         * current one.
         */
        if (index == ra.start && ra.size == ra.asyncSize) {
            long addPages = getNextRaSize(ra, maxPages);
            if (ra.size + addPages <= maxPages) {
                ra.asyncSize = (int) addPages;
                ra.size += (int) addPages;
            } else {
                ra.size = (int) maxPages;
                ra.asyncSize = (int) (maxPages >> 1);
            }
        }
        Kernel.event("readahead window start %s size %s async %s", ra.start, ra.size, ra.asyncSize);
        ractl.index = ra.start;
        doPageCacheRa(ractl, ra.size, ra.asyncSize);
    }

    // ------------------------------------------------------------------ issuing

    /**
     * mm/readahead.c: {@code force_page_cache_ra()} (v5.10): read {@code nrToRead} pages from the
     * control's index, at most {@code max(bdi->io_pages, ra_pages)}, in 2 MiB chunks, with no
     * marker ({@code lookahead_size} 0).
     */
    public static void forcePageCacheRa(ReadaheadControl ractl, FileRaState ra, long nrToRead) {
        AddressSpace mapping = ractl.mapping;
        long index = ractl.readaheadIndex();
        Kernel.accessRead(ra);
        long maxPages = Math.max(mapping.ioPages, ra.raPages);
        nrToRead = Math.min(nrToRead, maxPages);
        while (nrToRead > 0) {
            long thisChunk = (2L * 1024 * 1024) / Page.PAGE_SIZE;
            if (thisChunk > nrToRead) {
                thisChunk = nrToRead;
            }
            ractl.index = index;
            doPageCacheRa(ractl, thisChunk, 0);
            index += thisChunk;
            nrToRead -= thisChunk;
        }
    }

    /**
     * mm/readahead.c: {@code do_page_cache_ra()} (v5.10): clamp to the page holding the last
     * byte of the file ({@code i_size_read()}), as the kernel does (including its off-by-one
     * clamp, which can read one page fewer than asked but never past EOF), then read.
     */
    public static void doPageCacheRa(ReadaheadControl ractl, long nrToRead, long lookaheadSize) {
        Inode inode = ractl.mapping.host;
        long index = ractl.readaheadIndex();
        long isize = inode.iSizeRead();

        if (isize == 0) {
            return;
        }
        long endIndex = (isize - 1) >> Page.PAGE_SHIFT;
        if (index > endIndex) {
            return;
        }
        /* Don't read past the page containing the last byte of the file */
        if (nrToRead > endIndex - index) {
            nrToRead = endIndex - index + 1;
        }
        pageCacheRaUnbounded(ractl, nrToRead, lookaheadSize);
    }

    /**
     * mm/readahead.c: {@code page_cache_ra_unbounded()} (v5.10). For each index: a page already
     * cached ends the current batch ({@code read_pages(..., skip_page = true)}); otherwise a new
     * page ({@code page_cache_alloc()}, one reference): with {@code ->readpages} it is only put
     * on the pool, else {@code add_to_page_cache_lru()} locks it into the cache (losing that
     * race to another reader drops it and ends the batch). The page at
     * {@code nr_to_read - lookahead_size} gets PG_readahead. Allocation failure stops. Then the
     * last batch is read; "We ignore I/O errors - if the page is not uptodate then the caller
     * will launch readpage again, and will then handle the error."
     */
    public static void pageCacheRaUnbounded(ReadaheadControl ractl, long nrToRead, long lookaheadSize) {
        AddressSpace mapping = ractl.mapping;
        long index = ractl.readaheadIndex();
        List<Page> pagePool = new ArrayList<>();
        boolean readpages = !mapping.aOps.hasReadahead() && mapping.aOps.hasReadpages();

        /* memalloc_nofs_save(): no reclaim in the model */
        for (long i = 0; i < nrToRead; i++) {
            Page page = PageCache.xaLoad(mapping, index + i);

            Kernel.BUG_ON(index + i != ractl.index + ractl.nrPages, "read-ahead batch out of step");
            if (page != null) {
                /* Page already present? Kick off the current batch of contiguous pages. */
                readPages(ractl, pagePool, true);
                continue;
            }
            page = PageCache.__pageCacheAlloc(mapping, "page_cache_ra_unbounded");
            if (page == null) {
                if (Kernel.bug(FilemapBugs.READAHEAD_NOMEM_DROPS_BATCH)) {
                    return; /* the mutation: the batch is never read (its pages stay locked) */
                }
                break;
            }
            if (readpages) {
                page.index = index + i;
                pagePool.add(page);
            } else if (PageCache.addToPageCacheLru(page, mapping, index + i) < 0) {
                Page.putPage(page);
                readPages(ractl, pagePool, true);
                continue;
            } else {
                ractl.pages.add(page);
            }
            if (i == nrToRead - lookaheadSize) {
                PageFlags.SetPageReadahead(page);
            }
            ractl.nrPages++;
        }
        /* Now start the IO. */
        readPages(ractl, pagePool, false);
    }

    /**
     * mm/readahead.c: {@code read_pages()} (v5.10): hand the batch to the file system under a
     * plug (not modelled): {@code ->readahead(rac)}, then unlock and put whatever it did not
     * take; or {@code ->readpages(pages)}, then {@code put_pages_list()} on what it left on the
     * list; or {@code ->readpage()} and {@code put_page()} per page. Both lists must end empty.
     * {@code skipPage} steps over the cached page that ended the batch.
     */
    static void readPages(ReadaheadControl rac, List<Page> pages, boolean skipPage) {
        AddressSpaceOperations aops = rac.mapping.aOps;

        if (rac.readaheadCount() != 0) {
            if (aops.hasReadahead()) {
                aops.readahead(rac);
                /* Clean up the remaining pages */
                Page page;
                while ((page = rac.readaheadPage()) != null) {
                    Filemap.unlockPage(page);
                    Page.putPage(page);
                }
            } else if (aops.hasReadpages()) {
                aops.readpages(rac.file, rac.mapping, pages, rac.readaheadCount());
                /* Clean up the remaining pages: put_pages_list() */
                for (int i = 0; i < pages.size(); i++) {
                    Page.putPage(pages.get(i));
                }
                pages.clear();
                rac.index += rac.nrPages;
                rac.nrPages = 0;
            } else {
                Page page;
                while ((page = rac.readaheadPage()) != null) {
                    aops.readpage(rac.file, page);
                    Page.putPage(page);
                }
            }
            Kernel.BUG_ON(!pages.isEmpty(), "read_pages: page list not empty");
            Kernel.BUG_ON(rac.readaheadCount() != 0, "read_pages: " + rac.readaheadCount() + " pages not read");
        }
        if (skipPage) {
            rac.index++;
        }
    }
}
