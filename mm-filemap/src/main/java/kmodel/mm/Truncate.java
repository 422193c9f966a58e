package kmodel.mm;

import static kmodel.mm.Page.PAGE_SHIFT;
import static kmodel.mm.Page.PAGE_SIZE;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.locking.Spinlock;

/**
 * mm/truncate.c (v5.10): taking pages out of an address space. {@code truncate_inode_pages_range()}
 * (two passes: the first skips locked pages and pages under writeback, the second locks and waits
 * for each, and repeats until the range is empty), {@code truncate_pagecache()} and
 * {@code truncate_setsize()}, and the direct-I/O invalidation {@code invalidate_inode_pages2_range()}
 * (lock each page, wait for writeback, {@code ->launder_page} a dirty one, delete it unless it is
 * dirty, {@code -EBUSY} if any page could not be removed).
 *
 * <h2>Implementation notes</h2>
 *
 * <h3>Page lock and references</h3>
 * Pages are found by {@code find_get_entries()}, which takes a reference per page (dropped by
 * {@code pagevec_release()}); each is then locked, so it cannot be dirtied, written back anew or
 * deleted by anyone else meanwhile, but it may have been truncated before the lock was taken:
 * {@code page->mapping != mapping} means skip. Deletion drops the page cache's reference; the
 * lookup's reference keeps the page alive until {@code pagevec_release()}. PG_writeback is
 * cleared without the page lock, so each pass waits for it (pass 2) or skips the page (pass 1)
 * after locking.
 *
 * <h3>Coarse parts</h3>
 * No mmap ({@code unmap_mapping_pages()}, {@code page_mapped()}), no shadow or DAX entries, no
 * {@code ->invalidatepage}/{@code ->releasepage} (the model attaches no buffers: pages never
 * have private data), no {@code ->freepage}, no cleancache, no huge pages; the first pass's
 * {@code delete_from_page_cache_batch()} deletes the pages one lock section each.
 *
 * <h3>References</h3>
 * <ol>
 *   <li>torvalds/linux mm/truncate.c at v5.10 (the stored copy of the search index is the
 *       2.6.20-era file; the v5.10 functions were followed as they read at v5.10).</li>
 * </ol>
 */
public final class Truncate {
    private Truncate() {
    }

    /**
     * mm/truncate.c: {@code cancel_dirty_page()} (v5.10): if the page is dirty, clear PG_dirty
     * ({@code __cancel_dirty_page()}: {@code TestClearPageDirty()} where the mapping accounts
     * dirty pages, {@code ClearPageDirty()} otherwise). The DIRTY mark goes with the page's entry
     * when it is deleted.
     */
    public static void cancelDirtyPage(Page page) {
        if (PageFlags.PageDirty(page)) {
            AddressSpace mapping = page.mapping;
            if (mapping != null && mapping.canWriteback) {
                PageFlags.TestClearPageDirty(page);
            } else {
                PageFlags.ClearPageDirty(page);
            }
        }
    }

    /**
     * mm/truncate.c: {@code truncate_cleanup_page()} (v5.10), without mmap and private data:
     * {@code cancel_dirty_page()} ("some filesystems seem to re-dirty the page even after the VM
     * has canceled the dirty bit ... Hence dirty accounting check is placed after
     * invalidation").
     */
    static void truncateCleanupPage(AddressSpace mapping, Page page) {
        cancelDirtyPage(page);
    }

    /**
     * mm/truncate.c: {@code truncate_inode_page()} (v5.10): {@code -EIO} if the page left the
     * mapping, else clean it up and {@code delete_from_page_cache()} (drops the cache's
     * reference). The page is locked and not under writeback.
     */
    static int truncateInodePage(AddressSpace mapping, Page page) {
        if (page.mapping != mapping) {
            return -Errno.EIO;
        }
        truncateCleanupPage(mapping, page);
        PageCache.deleteFromPageCache(page);
        return 0;
    }

    /** include/linux/highmem.h: {@code zero_user_segment(page, start, end)}: zero bytes {@code [start, end)}. */
    static void zeroUserSegment(Page page, int start, int end) {
        page.touch();
        Arrays.fill(page.data, start, end, (byte) 0);
    }

    /**
     * mm/truncate.c: {@code truncate_inode_pages_range(mapping, lstart, lend)} (v5.10): remove the
     * pages wholly inside the bytes {@code [lstart, lend]} ({@code lend == -1}: to the end of
     * the file), and zero the parts of the partial pages at either end. Pass 1:
     * {@code trylock_page()}, skip pages under writeback or truncated meanwhile, clean up and
     * delete the rest. Then the partial pages: {@code find_lock_page()},
     * {@code wait_on_page_writeback()}, zero. Pass 2: {@code lock_page()},
     * {@code wait_on_page_writeback()}, {@code truncate_inode_page()}; restart from the start
     * until a lookup finds nothing left.
     */
    public static void truncateInodePagesRange(AddressSpace mapping, long lstart, long lend) {
        long start; /* inclusive */
        long end; /* exclusive */
        int partialStart; /* inclusive */
        int partialEnd; /* exclusive */
        List<Page> pvec = new ArrayList<>(PageCache.PAGEVEC_SIZE);
        long[] indices = new long[PageCache.PAGEVEC_SIZE];
        long index;

        Spinlock.spinLockIrq(mapping.iPagesLock);
        boolean empty = mapping.nrpages.get() == 0;
        Spinlock.spinUnlockIrq(mapping.iPagesLock);
        if (empty) {
            return;
        }

        /* Offsets within partial pages */
        partialStart = (int) (lstart & (PAGE_SIZE - 1));
        partialEnd = (int) ((lend + 1) & (PAGE_SIZE - 1));

        /*
         * 'start' and 'end' always covers the range of pages to be fully truncated. Partial
         * pages are covered with 'partial_start' at the start of the range and 'partial_end' at
         * the end of the range. Note that 'end' is exclusive while 'lend' is inclusive.
         */
        start = (lstart + PAGE_SIZE - 1) >> PAGE_SHIFT;
        if (lend == -1) {
            end = Long.MAX_VALUE; /* (pgoff_t)-1 */
        } else {
            end = (lend + 1) >> PAGE_SHIFT;
        }

        index = start;
        while (index < end) {
            int nr = PageCache.findGetEntries(mapping, index, (int) Math.min(end - index, PageCache.PAGEVEC_SIZE), pvec,
                    indices);
            if (nr == 0) {
                break;
            }
            /* We may fail to lock some pages, so the ones that can be deleted go in a new pagevec. */
            List<Page> lockedPvec = new ArrayList<>(PageCache.PAGEVEC_SIZE);
            for (int i = 0; i < nr; i++) {
                Page page = pvec.get(i);

                /* We rely upon deletion not changing page->index */
                index = indices[i];
                if (index >= end) {
                    break;
                }
                if (!Filemap.trylockPage(page)) {
                    continue;
                }
                if (PageFlags.PageWriteback(page)) {
                    Filemap.unlockPage(page);
                    continue;
                }
                if (page.mapping != mapping) {
                    Filemap.unlockPage(page);
                    continue;
                }
                lockedPvec.add(page);
            }
            for (int i = 0; i < lockedPvec.size(); i++) {
                truncateCleanupPage(mapping, lockedPvec.get(i));
            }
            deleteFromPageCacheBatch(mapping, lockedPvec);
            for (int i = 0; i < lockedPvec.size(); i++) {
                Filemap.unlockPage(lockedPvec.get(i));
            }
            PageCache.pagevecRelease(pvec);
            index++;
        }
        if (partialStart != 0) {
            Page page = PageCache.findLockPage(mapping, start - 1);
            if (page != null) {
                int top = PAGE_SIZE;
                if (start > end) {
                    /* Truncation within a single page */
                    top = partialEnd;
                    partialEnd = 0;
                }
                Filemap.waitOnPageWriteback(page);
                zeroUserSegment(page, partialStart, top);
                Filemap.unlockPage(page);
                Page.putPage(page);
            }
        }
        if (partialEnd != 0) {
            Page page = PageCache.findLockPage(mapping, end);
            if (page != null) {
                Filemap.waitOnPageWriteback(page);
                zeroUserSegment(page, 0, partialEnd);
                Filemap.unlockPage(page);
                Page.putPage(page);
            }
        }
        /*
         * If the truncation happened within a single page no pages will be released, just
         * zeroed, so we can bail out now.
         */
        if (start >= end) {
            return;
        }

        index = start;
        for (;;) {
            int nr = PageCache.findGetEntries(mapping, index, (int) Math.min(end - index, PageCache.PAGEVEC_SIZE), pvec,
                    indices);
            if (nr == 0) {
                /* If all gone from start onwards, we're done */
                if (index == start) {
                    break;
                }
                /* Otherwise restart to make sure all gone */
                index = start;
                continue;
            }
            if (index == start && indices[0] >= end) {
                /* All gone out of hole to be punched, we're done */
                PageCache.pagevecRelease(pvec);
                break;
            }

            for (int i = 0; i < nr; i++) {
                Page page = pvec.get(i);

                /* We rely upon deletion not changing page->index */
                index = indices[i];
                if (index >= end) {
                    /* Restart punch to make sure all gone */
                    index = start - 1;
                    break;
                }
                Filemap.lockPage(page);
                Kernel.WARN_ON(page.index != index, "truncate_inode_pages_range: page_to_index(page) != index");
                Filemap.waitOnPageWriteback(page);
                truncateInodePage(mapping, page);
                Filemap.unlockPage(page);
            }
            PageCache.pagevecRelease(pvec);
            index++;
        }
    }

    /**
     * mm/filemap.c: {@code delete_from_page_cache_batch()} (v5.10): delete the locked pages of
     * {@code pvec} under one hold of the {@code i_pages} lock, then drop the cache's reference of
     * each ({@code page_cache_free_page()}).
     */
    static void deleteFromPageCacheBatch(AddressSpace mapping, List<Page> pvec) {
        if (pvec.isEmpty()) {
            return;
        }
        Spinlock.spinLockIrq(mapping.iPagesLock);
        for (int i = 0; i < pvec.size(); i++) {
            PageCache.__deleteFromPageCache(pvec.get(i));
        }
        Spinlock.spinUnlockIrq(mapping.iPagesLock);
        for (int i = 0; i < pvec.size(); i++) {
            Page.putPage(pvec.get(i));
        }
    }

    /** mm/truncate.c: {@code truncate_inode_pages(mapping, lstart)}: from {@code lstart} to the end of the file. */
    public static void truncateInodePages(AddressSpace mapping, long lstart) {
        truncateInodePagesRange(mapping, lstart, -1);
    }

    /**
     * mm/truncate.c: {@code truncate_pagecache(inode, newsize)} (v5.10): with no mmap, the two
     * {@code unmap_mapping_range()} calls do nothing; {@code truncate_inode_pages(mapping, newsize)}.
     * The caller has already set the new {@code i_size}, so new pages are not instantiated
     * beyond it, and holds {@code i_rwsem}.
     */
    public static void truncatePagecache(Inode inode, long newsize) {
        truncateInodePages(inode.iMapping, newsize);
    }

    /**
     * mm/truncate.c: {@code truncate_setsize(inode, newsize)} (v5.10): {@code i_size_write()} first,
     * then {@code truncate_pagecache()} ({@code pagecache_isize_extended()} of a growing file only
     * matters for mmap and is left out). The caller holds {@code i_rwsem}. Bug
     * {@code truncate-pagecache-before-isize} swaps the two steps.
     */
    public static void truncateSetsize(Inode inode, long newsize) {
        if (Kernel.bug(FilemapBugs.TRUNCATE_PAGECACHE_BEFORE_ISIZE)) {
            /* The bug: pages read in meanwhile, below the old i_size, are never removed. */
            truncatePagecache(inode, newsize);
            inode.iSizeWrite(newsize);
            Kernel.event("i_size_write(%s, %s) after truncate_pagecache", inode, newsize);
            return;
        }
        inode.iSizeWrite(newsize);
        Kernel.event("i_size_write(%s, %s)", inode, newsize);
        truncatePagecache(inode, newsize);
    }

    /**
     * mm/truncate.c: {@code do_launder_page()} (v5.10): a dirty page still in the mapping is
     * written out by {@code ->launder_page}, if the file system has one; else 0 (the page stays
     * dirty and {@code invalidate_complete_page2()} refuses it).
     */
    static int doLaunderPage(AddressSpace mapping, Page page) {
        if (!PageFlags.PageDirty(page)) {
            return 0;
        }
        if (page.mapping != mapping || !mapping.aOps.hasLaunderPage()) {
            return 0;
        }
        return mapping.aOps.launderPage(page);
    }

    /**
     * mm/truncate.c: {@code invalidate_complete_page2()} (v5.10): 0 if the page left the mapping;
     * under the {@code i_pages} lock, 0 if it is dirty, else {@code __delete_from_page_cache()};
     * then drop the cache's reference and return 1.
     */
    static int invalidateCompletePage2(AddressSpace mapping, Page page) {
        if (page.mapping != mapping) {
            return 0;
        }
        long flags = Spinlock.spinLockIrqsave(mapping.iPagesLock);
        if (PageFlags.PageDirty(page)) {
            Spinlock.spinUnlockIrqrestore(mapping.iPagesLock, flags);
            return 0;
        }
        PageCache.__deleteFromPageCache(page);
        Spinlock.spinUnlockIrqrestore(mapping.iPagesLock, flags);
        Page.putPage(page); /* pagecache ref */
        return 1;
    }

    /**
     * mm/truncate.c: {@code invalidate_inode_pages2_range(mapping, start, end)} (v5.10): remove the
     * pages of indexes {@code [start, end]} (inclusive) from the page cache: for each cached page
     * (a lookup that takes a reference), {@code lock_page()}; skip it if it left the mapping;
     * {@code wait_on_page_writeback()}; {@code do_launder_page()}; delete it unless it is dirty
     * ({@code invalidate_complete_page2()}), else {@code -EBUSY}; {@code unlock_page()}; finally
     * {@code pagevec_release()}. Returns 0, or {@code -EBUSY} (or the launder error) if some page
     * could not be invalidated.
     */
    public static int invalidateInodePages2Range(AddressSpace mapping, long start, long end) {
        List<Page> pvec = new ArrayList<>(PageCache.PAGEVEC_SIZE);
        long[] indices = new long[PageCache.PAGEVEC_SIZE];
        long index;
        int ret = 0;
        int ret2;

        Spinlock.spinLockIrq(mapping.iPagesLock);
        boolean empty = mapping.nrpages.get() == 0;
        Spinlock.spinUnlockIrq(mapping.iPagesLock);
        if (empty) {
            return 0;
        }

        index = start;
        while (index <= end) {
            int nr = PageCache.findGetEntries(mapping, index,
                    (int) (Math.min(end - index, (long) PageCache.PAGEVEC_SIZE - 1) + 1), pvec, indices);
            if (nr == 0) {
                break;
            }
            for (int i = 0; i < nr; i++) {
                Page page = pvec.get(i);

                /* We rely upon deletion not changing page->index */
                index = indices[i];
                if (index > end) {
                    break;
                }

                Filemap.lockPage(page);
                Kernel.WARN_ON(page.index != index, "invalidate_inode_pages2_range: page_to_index(page) != index");
                if (page.mapping != mapping) {
                    Filemap.unlockPage(page);
                    continue;
                }
                Filemap.waitOnPageWriteback(page);
                /* page_mapped(): no mmap in the model. */
                ret2 = doLaunderPage(mapping, page);
                if (ret2 == 0) {
                    if (invalidateCompletePage2(mapping, page) == 0) {
                        ret2 = -Errno.EBUSY;
                    }
                }
                if (ret2 < 0) {
                    ret = ret2;
                }
                Filemap.unlockPage(page);
            }
            PageCache.pagevecRelease(pvec);
            index++;
        }
        Kernel.event("invalidate_inode_pages2_range(%s, %s) = %s", start, end, Errno.name(ret));
        return ret;
    }

    /** mm/truncate.c: {@code invalidate_inode_pages2()}: the whole file. */
    public static int invalidateInodePages2(AddressSpace mapping) {
        return invalidateInodePages2Range(mapping, 0, Long.MAX_VALUE);
    }
}
