package kmodel.mm;

import static kmodel.mm.AddressSpace.PAGECACHE_TAG_DIRTY;
import static kmodel.mm.AddressSpace.PAGECACHE_TAG_TOWRITE;
import static kmodel.mm.AddressSpace.PAGECACHE_TAG_WRITEBACK;
import static kmodel.mm.Page.PAGE_SHIFT;
import static kmodel.mm.WritebackControl.WB_SYNC_ALL;
import static kmodel.mm.WritebackControl.WB_SYNC_NONE;

import java.util.ArrayList;
import java.util.List;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.atomic.Bitops;
import kmodel.kernel.locking.Spinlock;

/**
 * mm/page-writeback.c (v5.10): dirtying pages, and writing them back: {@code do_writepages()} ->
 * {@code generic_writepages()} -> {@code write_cache_pages()} -> {@code ->writepage}, with the
 * page-cache marks that let {@code filemap_fdatawait_range()} find pages under writeback.
 *
 * <h2>Implementation notes</h2>
 *
 * <h3>The page states and who changes them</h3>
 * <ul>
 *   <li>PG_dirty is set by {@code set_page_dirty()} (the writer's {@code ->write_end}, with the
 *       page locked), and cleared by {@code clear_page_dirty_for_io()} (writeback, page locked)
 *       or {@code cancel_dirty_page()} (truncation, page locked). {@code PAGECACHE_TAG_DIRTY}
 *       follows it under the {@code i_pages} lock: set when the page is dirtied, cleared by
 *       {@code set_page_writeback()} only if the page is not dirty again by then.</li>
 *   <li>PG_writeback is set by {@code ->writepage} with the page locked and still in the
 *       mapping ({@code set_page_writeback()}, which also sets {@code PAGECACHE_TAG_WRITEBACK}
 *       and clears {@code PAGECACHE_TAG_TOWRITE}) and cleared by the I/O completion
 *       ({@code end_page_writeback()}, interrupt context, page lock not held), which wakes
 *       the PG_writeback waiters.</li>
 *   <li>Writeback holds no page reference of its own: once PG_writeback is clear, truncation
 *       (which waits for it) may free the page. {@code end_page_writeback()} therefore takes
 *       a reference around its wake-up (073861ed77b6).</li>
 * </ul>
 *
 * <h3>Why write_cache_pages() re-checks after each wait</h3>
 * Each page is found by a tagged lookup without its lock, then locked (sleeping), so anything may
 * have happened meanwhile: (a) truncation removed it ({@code page->mapping != mapping}: skip);
 * (b) another writeback cleaned it ({@code !PageDirty}: skip); (c) it is under writeback again
 * (WB_SYNC_ALL waits, WB_SYNC_NONE skips). After the wait the kernel asserts
 * {@code BUG_ON(PageWriteback(page))}: with the page locked nobody can start writeback anew, and
 * a wake-up for PG_writeback must mean it is clear (the assertion 073861ed77b6's missing
 * reference broke: a freed and reused page woken by a stale {@code end_page_writeback()}).
 *
 * <h3>Coarse parts</h3>
 * No dirty accounting or throttling ({@code account_page_dirtied()},
 * {@code balance_dirty_pages_ratelimited()}), no memcg, no {@code page_mkclean()} (no mmap), no
 * errseq ({@code mapping_set_error()} sets AS_EIO/AS_ENOSPC only), no inode dirty lists
 * ({@code __mark_inode_dirty()}), no {@code sb_mark_inode_writeback()}; the tag operations of
 * {@code tag_pages_for_writeback()} are one step under the lock (the kernel drops it every
 * {@code XA_CHECK_SCHED} pages).
 *
 * <h3>References</h3>
 * <ol>
 *   <li>torvalds/linux mm/page-writeback.c and mm/filemap.c at v5.10 (the stored copy of the
 *       search index is older; the v5.10 functions were followed as they read at v5.10).</li>
 *   <li>073861ed77b6 "mm: fix VM_BUG_ON(PageTail) and BUG_ON(PageWriteback)" (v5.10-rc6).</li>
 *   <li>f446daaea9d4 "mm: implement writeback livelock avoidance using page tagging" (v2.6.35).</li>
 * </ol>
 */
public final class PageWriteback {
    private PageWriteback() {
    }

    // ------------------------------------------------------------------ errors

    /**
     * include/linux/pagemap.h: {@code mapping_set_error()} (v5.10) without errseq: record an async
     * write error in {@code mapping->flags} ({@code AS_ENOSPC} for {@code -ENOSPC}, else
     * {@code AS_EIO}) for {@code filemap_check_errors()}.
     */
    public static void mappingSetError(AddressSpace mapping, int error) {
        if (error == 0) {
            return;
        }
        Bitops.setBit(error == -Errno.ENOSPC ? AddressSpace.AS_ENOSPC : AddressSpace.AS_EIO, mapping.flags);
    }

    // ------------------------------------------------------------------ dirtying

    /**
     * mm/page-writeback.c: {@code __set_page_dirty_nobuffers()} (v5.10): if PG_dirty was clear,
     * set it and, if the page is still in a mapping, mark its index {@code PAGECACHE_TAG_DIRTY}
     * under the {@code i_pages} lock ({@code BUG_ON(page_mapping(page) != mapping)}). A page
     * truncated meanwhile ({@code mapping == NULL}) only gets the bit. Returns 1 if it dirtied it.
     */
    public static int __setPageDirtyNobuffers(Page page) {
        if (!PageFlags.TestSetPageDirty(page)) {
            AddressSpace mapping = page.mapping;
            if (mapping == null) {
                return 1;
            }
            Spinlock.spinLockIrq(mapping.iPagesLock);
            Kernel.BUG_ON(page.mapping != mapping, "__set_page_dirty_nobuffers: page_mapping(page) != mapping");
            Kernel.WARN_ON(!PageFlags.PagePrivate(page) && !PageFlags.PageUptodate(page),
                    "__set_page_dirty_nobuffers: dirtying a page that is not uptodate");
            mapping.tagDirty.add(page.index);
            Spinlock.spinUnlockIrq(mapping.iPagesLock);
            Kernel.event("set_page_dirty(%s)", page);
            return 1;
        }
        return 0;
    }

    /**
     * fs/buffer.c: {@code __set_page_dirty(page, mapping, warn)} (v5.10), kept beside its twin
     * because the marks are mm's: the caller has set PG_dirty; under the {@code i_pages} lock, if
     * the page is still in a mapping ("race with truncate?"), mark its index
     * {@code PAGECACHE_TAG_DIRTY} ({@code WARN_ON_ONCE(warn && !PageUptodate(page))}).
     */
    public static void __setPageDirty(Page page, AddressSpace mapping, int warn) {
        long flags = Spinlock.spinLockIrqsave(mapping.iPagesLock);
        if (page.mapping != null) { /* Race with truncate? */
            Kernel.WARN_ON(warn != 0 && !PageFlags.PageUptodate(page), "__set_page_dirty: dirtying a page that is not uptodate");
            mapping.tagDirty.add(page.index);
        }
        Spinlock.spinUnlockIrqrestore(mapping.iPagesLock, flags);
        Kernel.event("set_page_dirty(%s)", page);
    }

    /**
     * mm/page-writeback.c: {@code set_page_dirty_lock()} (v5.10): {@code set_page_dirty()} under the
     * page lock, for a caller that holds only a reference (a pinned page after a direct read into
     * it, {@code bio_check_pages_dirty()}), so that it cannot race with truncation's
     * {@code cancel_dirty_page()}: it may still dirty a page truncation has just removed.
     */
    public static int setPageDirtyLock(Page page) {
        Filemap.lockPage(page);
        int ret = setPageDirty(page);
        Filemap.unlockPage(page);
        return ret;
    }

    /**
     * mm/page-writeback.c: {@code set_page_dirty()} (v5.10): the mapping's
     * {@code ->set_page_dirty}; a page with no mapping (truncated) just gets PG_dirty
     * ({@code if (!PageDirty(page)) return !TestSetPageDirty(page)}).
     */
    public static int setPageDirty(Page page) {
        AddressSpace mapping = page.mapping;
        if (mapping != null) {
            return mapping.aOps.setPageDirty(page);
        }
        if (!PageFlags.PageDirty(page)) {
            if (!PageFlags.TestSetPageDirty(page)) {
                return 1;
            }
        }
        return 0;
    }

    /**
     * mm/page-writeback.c: {@code redirty_page_for_writepage()} (v5.10): a {@code ->writepage}
     * that cannot write the page now puts the dirty bit back ({@code __set_page_dirty_nobuffers()}).
     */
    public static int redirtyPageForWritepage(WritebackControl wbc, Page page) {
        wbc.nrToWrite += 1;
        return __setPageDirtyNobuffers(page);
    }

    /**
     * mm/page-writeback.c: {@code clear_page_dirty_for_io()} (v5.10), with no mmap (no
     * {@code page_mkclean()}): {@code VM_BUG_ON_PAGE(!PageLocked(page))}, then
     * {@code TestClearPageDirty()}. The DIRTY mark stays until {@code set_page_writeback()}.
     * Returns 1 if the page was dirty.
     */
    public static int clearPageDirtyForIo(Page page) {
        PageFlags.VM_BUG_ON_PAGE(!PageFlags.PageLocked(page), page, "!PageLocked(page)");
        return PageFlags.TestClearPageDirty(page) ? 1 : 0;
    }

    // ------------------------------------------------------------------ PG_writeback

    /**
     * mm/page-writeback.c: {@code __test_set_page_writeback(page, keep_write)} (v5.10): under the
     * {@code i_pages} lock when the mapping keeps writeback marks, {@code TestSetPageWriteback()}
     * and, if newly set, mark {@code PAGECACHE_TAG_WRITEBACK}; clear {@code PAGECACHE_TAG_DIRTY}
     * unless the page is dirty again, and {@code PAGECACHE_TAG_TOWRITE} unless
     * {@code keep_write}. Returns the old bit.
     */
    public static boolean __testSetPageWriteback(Page page, boolean keepWrite) {
        AddressSpace mapping = page.mapping;
        boolean ret;
        if (mapping != null && mapping.canWriteback) {
            Spinlock.spinLockIrq(mapping.iPagesLock);
            ret = PageFlags.TestSetPageWriteback(page);
            if (!ret) {
                mapping.tagWriteback.add(page.index);
            }
            if (!PageFlags.PageDirty(page)) {
                mapping.tagDirty.remove(page.index);
            }
            if (!keepWrite) {
                mapping.tagTowrite.remove(page.index);
            }
            Spinlock.spinUnlockIrq(mapping.iPagesLock);
            Kernel.event("set_page_writeback(%s)", page);
        } else {
            ret = PageFlags.TestSetPageWriteback(page);
        }
        return ret;
    }

    /**
     * mm/page-writeback.c: {@code test_clear_page_writeback()} (v5.10): {@code TestClearPageWriteback()}
     * and, when the mapping keeps writeback marks, clear {@code PAGECACHE_TAG_WRITEBACK} under the
     * {@code i_pages} lock. Returns the old bit. Called from interrupt context; the page may have
     * been truncated meanwhile only after this returns (truncation waits for PG_writeback).
     */
    public static boolean testClearPageWriteback(Page page) {
        AddressSpace mapping = page.mapping;
        boolean ret;
        if (mapping != null && mapping.canWriteback) {
            long flags = Spinlock.spinLockIrqsave(mapping.iPagesLock);
            ret = PageFlags.TestClearPageWriteback(page);
            if (ret) {
                mapping.tagWriteback.remove(page.index);
            }
            Spinlock.spinUnlockIrqrestore(mapping.iPagesLock, flags);
        } else {
            ret = PageFlags.TestClearPageWriteback(page);
        }
        return ret;
    }

    /**
     * mm/page-writeback.c: {@code tag_pages_for_writeback()} (v5.10): mark every DIRTY page of
     * {@code [start, end]} TOWRITE, so that a WB_SYNC_ALL pass writes what was dirty when it
     * began and is not livelocked by pages dirtied behind it. One step under the lock.
     */
    public static void tagPagesForWriteback(AddressSpace mapping, long start, long end) {
        Spinlock.spinLockIrq(mapping.iPagesLock);
        for (Long index : mapping.tagDirty.subSet(start, true, end, true)) {
            mapping.tagTowrite.add(index);
        }
        Spinlock.spinUnlockIrq(mapping.iPagesLock);
    }

    // ------------------------------------------------------------------ writing back

    /**
     * mm/page-writeback.c: {@code write_cache_pages()} (v5.10), with {@code ->writepage} as the
     * {@code writepage_t} ({@code __writepage()}, whose {@code mapping_set_error()} is done here).
     * For each page of the range carrying the TOWRITE mark (WB_SYNC_ALL or
     * {@code tagged_writepages}, after {@code tag_pages_for_writeback()}) or the DIRTY mark:
     * lock it; skip it if truncated meanwhile ({@code page->mapping != mapping}; bug
     * {@code write-cache-pages-no-mapping-recheck} leaves the test out) or clean; if under
     * writeback, wait (WB_SYNC_ALL) or skip; {@code BUG_ON(PageWriteback(page))};
     * {@code clear_page_dirty_for_io()}; {@code ->writepage}, which unlocks. Errors: WB_SYNC_ALL
     * goes on and returns the first; WB_SYNC_NONE stops. The pages' lookup references are dropped
     * by {@code pagevec_release()}.
     */
    public static int writeCachePages(AddressSpace mapping, WritebackControl wbc) {
        int ret = 0;
        boolean done = false;
        List<Page> pvec = new ArrayList<>(PageCache.PAGEVEC_SIZE);
        long[] index = new long[1];
        long end;
        long doneIndex;
        boolean rangeWhole = false;
        int tag;
        boolean noRecheck = Kernel.bug(FilemapBugs.WRITE_CACHE_PAGES_NO_MAPPING_RECHECK);

        if (wbc.rangeCyclic) {
            index[0] = mapping.writebackIndex; /* prev offset */
            end = Long.MAX_VALUE;
        } else {
            index[0] = wbc.rangeStart >> PAGE_SHIFT;
            end = wbc.rangeEnd >> PAGE_SHIFT;
            if (wbc.rangeStart == 0 && wbc.rangeEnd == WritebackControl.LLONG_MAX) {
                rangeWhole = true;
            }
        }
        if (wbc.syncMode == WB_SYNC_ALL || wbc.taggedWritepages) {
            tagPagesForWriteback(mapping, index[0], end);
            tag = PAGECACHE_TAG_TOWRITE;
        } else {
            tag = PAGECACHE_TAG_DIRTY;
        }
        doneIndex = index[0];
        while (!done && index[0] <= end) {
            int nrPages = PageCache.findGetPagesRangeTag(mapping, index, end, tag, PageCache.PAGEVEC_SIZE, pvec);
            if (nrPages == 0) {
                break;
            }
            for (int i = 0; i < nrPages; i++) {
                Page page = pvec.get(i);
                doneIndex = page.index;

                Filemap.lockPage(page);

                /*
                 * Page truncated or invalidated. We can freely skip it then, even for data
                 * integrity operations: the page has disappeared concurrently, so there could be
                 * no real expectation of this data integrity operation even if there is now a
                 * new, dirty page at the same pagecache address.
                 */
                if (!noRecheck && page.mapping != mapping) {
                    Kernel.event("write_cache_pages: %s was truncated, skip", page);
                    Filemap.unlockPage(page); /* continue_unlock */
                    continue;
                }

                if (!PageFlags.PageDirty(page)) {
                    /* someone wrote it for us */
                    Filemap.unlockPage(page);
                    continue;
                }

                if (PageFlags.PageWriteback(page)) {
                    if (wbc.syncMode != WB_SYNC_NONE) {
                        Filemap.waitOnPageWriteback(page);
                    } else {
                        Filemap.unlockPage(page);
                        continue;
                    }
                }

                if (PageFlags.PageWriteback(page)) {
                    // the message only when it fires: describe() peeks at the page's refcount,
                    // a read no footprint of this step reports (the footprint audit found it)
                    Kernel.BUG_ON(true, "write_cache_pages: BUG_ON(PageWriteback(" + page.describe()
                            + ")) after wait_on_page_writeback");
                }
                if (clearPageDirtyForIo(page) == 0) {
                    Filemap.unlockPage(page);
                    continue;
                }

                int error = writepage(page, wbc, page.mapping);
                if (error != 0) {
                    /*
                     * Integrity writeback must process the entire dirty set regardless of
                     * errors, returning the first; background writeback stops here.
                     */
                    if (wbc.syncMode != WB_SYNC_ALL) {
                        ret = error;
                        doneIndex = page.index + 1;
                        done = true;
                        break;
                    }
                    if (ret == 0) {
                        ret = error;
                    }
                }

                /*
                 * We stop writing back only if we are not doing integrity sync. In case of
                 * integrity sync we have to keep going until we have written all the pages we
                 * tagged for writeback prior to entering this loop.
                 */
                if (--wbc.nrToWrite <= 0 && wbc.syncMode == WB_SYNC_NONE) {
                    done = true;
                    break;
                }
            }
            PageCache.pagevecRelease(pvec);
        }

        if (wbc.rangeCyclic && !done) {
            doneIndex = 0;
        }
        if (wbc.rangeCyclic || (rangeWhole && wbc.nrToWrite > 0)) {
            mapping.writebackIndex = doneIndex;
        }
        return ret;
    }

    /**
     * mm/page-writeback.c: {@code __writepage()} (v5.10): {@code ->writepage} and
     * {@code mapping_set_error()} of its result. {@code mapping} is the page's mapping as
     * {@code write_cache_pages()} sees it after the lock (null only under bug
     * {@code write-cache-pages-no-mapping-recheck}).
     */
    static int writepage(Page page, WritebackControl wbc, AddressSpace mapping) {
        AddressSpace as = mapping;
        if (as == null) {
            /*
             * Only with the recheck left out: the kernel's __writepage() dereferences
             * page->mapping (NULL for a truncated page) to find ->writepage and oopses; the
             * model reports the NULL dereference as the bug-on it is.
             */
            Kernel.BUG_ON(true, "__writepage(" + page.describe() + "): page->mapping is NULL (truncated page)");
        }
        int ret = as.aOps.writepage(page, wbc);
        mappingSetError(as, ret);
        return ret;
    }

    /**
     * mm/page-writeback.c: {@code generic_writepages()} (v5.10): nothing to do without
     * {@code ->writepage} ("deal with chardevs and other special file"), else
     * {@code write_cache_pages()} (with a block plug, not modelled).
     */
    public static int genericWritepages(AddressSpace mapping, WritebackControl wbc) {
        if (!mapping.aOps.hasWritepage()) {
            return 0;
        }
        return writeCachePages(mapping, wbc);
    }

    /**
     * mm/page-writeback.c: {@code do_writepages()} (v5.10): {@code ->writepages} or
     * {@code generic_writepages()}; a WB_SYNC_ALL pass that fails with {@code -ENOMEM} retries
     * after {@code congestion_wait()} (the model's writepage never returns {@code -ENOMEM}, so
     * the retry is left out).
     */
    public static int doWritepages(AddressSpace mapping, WritebackControl wbc) {
        if (wbc.nrToWrite <= 0) {
            return 0;
        }
        if (mapping.aOps.hasWritepages()) {
            return mapping.aOps.writepages(mapping, wbc);
        }
        return genericWritepages(mapping, wbc);
    }

    /** Whether the mark {@code tag} is set for {@code page}'s index now (checks, no scheduling point). */
    static boolean peekTagged(AddressSpace mapping, long index, int tag) {
        return mapping.tagSet(tag).contains(index);
    }

    /** For messages: the marks of an index, e.g. {@code "DIRTY|TOWRITE"}. */
    public static String describeTags(AddressSpace mapping, long index) {
        StringBuilder sb = new StringBuilder();
        if (peekTagged(mapping, index, PAGECACHE_TAG_DIRTY)) {
            sb.append("DIRTY|");
        }
        if (peekTagged(mapping, index, PAGECACHE_TAG_WRITEBACK)) {
            sb.append("WRITEBACK|");
        }
        if (peekTagged(mapping, index, PAGECACHE_TAG_TOWRITE)) {
            sb.append("TOWRITE|");
        }
        return sb.length() == 0 ? "-" : sb.substring(0, sb.length() - 1);
    }
}
