package kmodel.mm;

import kmodel.kernel.sched.Work;
import static kmodel.mm.PageFlags.PG_locked;

import java.util.Map;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.lifetime.Lifetimes;
import kmodel.kernel.locking.Spinlock;

/**
 * mm/filemap.c (v5.10), the page cache half: inserting, finding and deleting pages of an
 * {@link AddressSpace}. The page lock and wait half is {@link Filemap}.
 *
 * <h2>Reference rules</h2>
 * <ul>
 *   <li>{@code add_to_page_cache_lru()} takes the cache's own reference and leaves the caller's
 *       (the allocation reference) with the caller; on {@code -EEXIST} it takes none and the caller
 *       must drop its copy.</li>
 *   <li>{@code find_get_page()} returns the page with a new reference the caller must put.</li>
 *   <li>{@code delete_from_page_cache()} drops the cache's reference.</li>
 * </ul>
 */
public final class PageCache {
    /** {@code FGP_ACCESSED}. */
    public static final int FGP_ACCESSED = 0x00000001;
    /** {@code FGP_LOCK}: return the page locked. */
    public static final int FGP_LOCK = 0x00000002;
    /** {@code FGP_CREAT}: allocate and add a page if none is cached. */
    public static final int FGP_CREAT = 0x00000004;
    /** {@code FGP_NOWAIT}: with FGP_LOCK, only trylock. */
    public static final int FGP_NOWAIT = 0x00000020;

    private PageCache() {
    }

    /** include/linux/pagemap.h: {@code page_cache_alloc()}. */
    public static Page pageCacheAlloc(AddressSpace mapping) {
        return __pageCacheAlloc(mapping, "page_cache_alloc");
    }

    /**
     * include/linux/pagemap.h: {@code __page_cache_alloc(gfp)} (v5.10, {@code !CONFIG_NUMA}:
     * {@code alloc_pages(gfp, 0)}), called from kernel function {@code caller}: null when
     * {@code fail_page_alloc} ({@code FAIL_PAGE_ALLOC}) fails it, as memory pressure can.
     */
    public static Page __pageCacheAlloc(AddressSpace mapping, String caller) {
        return mapping.allocator.allocPages(caller);
    }

    /**
     * mm/filemap.c: {@code __add_to_page_cache_locked()}: takes the cache's reference, sets
     * {@code mapping}/{@code index} and inserts under {@code i_pages}; {@code -EEXIST} if another
     * page is already cached at {@code offset} (the reference is dropped again).
     */
    static int __addToPageCacheLocked(Page page, AddressSpace mapping, long offset) {
        PageFlags.VM_BUG_ON_PAGE(!PageFlags.PageLocked(page), page, "!PageLocked(page)");
        Page.getPage(page);
        page.mapping = mapping;
        page.index = offset;
        Spinlock.spinLockIrq(mapping.iPagesLock);
        boolean exists = mapping.iPages.containsKey(offset);
        if (!exists) {
            mapping.iPages.put(offset, page);
            mapping.nrpages.set(mapping.nrpages.get() + 1);
        }
        Spinlock.spinUnlockIrq(mapping.iPagesLock);
        if (exists) {
            page.mapping = null;
            if (!Kernel.bug(FilemapBugs.ADD_TO_PAGE_CACHE_EEXIST_REF_LEAK)) {
                Page.putPage(page);
            }
            return -Errno.EEXIST;
        }
        return 0;
    }

    /**
     * mm/filemap.c: {@code add_to_page_cache_lru()}: locks the (private) page, inserts it with the
     * cache's reference and puts it on the LRU (not modelled). On failure the page is unlocked
     * again and the caller still owns its reference.
     */
    public static int addToPageCacheLru(Page page, AddressSpace mapping, long offset) {
        Kernel.rt().work(Work.PAGE_CACHE_ADD, 1);
        PageFlags.__SetPageLocked(page);
        int ret = __addToPageCacheLocked(page, mapping, offset);
        if (ret != 0) {
            PageFlags.__ClearPageLocked(page);
            Kernel.event("add_to_page_cache_lru(%s, index %s) = -EEXIST", page, offset);
        } else {
            Kernel.event("add_to_page_cache_lru(%s, index %s)", page, offset);
        }
        return ret;
    }

    /**
     * include/linux/pagemap.h: {@code find_get_page()}, as mm/filemap.c's {@code find_get_entry()}
     * + {@code page_cache_get_speculative()}: the page at {@code offset} with a new reference, or null. See {@link AddressSpace} for why the lookup is
     * done under the lock.
     */
    public static Page findGetPage(AddressSpace mapping, long offset) {
        Spinlock.spinLockIrq(mapping.iPagesLock);
        Page page = mapping.iPages.get(offset);
        if (page != null) {
            Page.getPage(page);
        }
        Spinlock.spinUnlockIrq(mapping.iPagesLock);
        return page;
    }

    /**
     * lib/xarray.c: {@code xa_load(&mapping->i_pages, index)} as read-ahead uses it: the page
     * cached at {@code index} without taking a reference (the caller only tests presence), or
     * null. Under the lock, as every model lookup (see {@link AddressSpace}).
     */
    public static Page xaLoad(AddressSpace mapping, long index) {
        Spinlock.spinLockIrq(mapping.iPagesLock);
        Page page = mapping.iPages.get(index);
        Spinlock.spinUnlockIrq(mapping.iPagesLock);
        return page;
    }

    /**
     * mm/filemap.c: {@code page_cache_next_miss()} (v5.10): the first index in
     * {@code [index, index + maxScan)} with no page, or {@code index + maxScan} if there is none.
     */
    public static long pageCacheNextMiss(AddressSpace mapping, long index, long maxScan) {
        Spinlock.spinLockIrq(mapping.iPagesLock);
        long i = index;
        while (i < index + maxScan && mapping.iPages.containsKey(i)) {
            i++;
        }
        Spinlock.spinUnlockIrq(mapping.iPagesLock);
        return i;
    }

    /**
     * mm/filemap.c: {@code page_cache_prev_miss()} (v5.10): searching backwards from
     * {@code index}, the first index with no page, or {@code index - maxScan} if all of
     * {@code (index - maxScan, index]} are cached; -1 ({@code ULONG_MAX} in the kernel) when the
     * search runs off the start of the file.
     */
    public static long pageCachePrevMiss(AddressSpace mapping, long index, long maxScan) {
        Spinlock.spinLockIrq(mapping.iPagesLock);
        long i = index;
        while (i > index - maxScan && i >= 0 && mapping.iPages.containsKey(i)) {
            i--;
        }
        Spinlock.spinUnlockIrq(mapping.iPagesLock);
        return i;
    }

    /** include/linux/pagevec.h: {@code PAGEVEC_SIZE}. */
    public static final int PAGEVEC_SIZE = 15;

    /**
     * mm/filemap.c: {@code find_get_pages_range_tag()} (v5.10), as
     * {@code pagevec_lookup_range_tag()} calls it: up to {@code nrPages} pages in
     * {@code [index[0], end]} carrying mark {@code tag}, each with a new reference the caller puts
     * ({@code pagevec_release()}), added to {@code out}. Advances {@code index[0]} past the last page
     * found, or past {@code end} when fewer than {@code nrPages} were found ("we come here when
     * there is no page beyond end"). Under the lock (see {@link AddressSpace}).
     */
    public static int findGetPagesRangeTag(AddressSpace mapping, long[] index, long end, int tag, int nrPages,
            java.util.List<Page> out) {
        int ret = 0;
        Spinlock.spinLockIrq(mapping.iPagesLock);
        java.util.TreeSet<Long> marked = mapping.tagSet(tag);
        Long at = marked.ceiling(index[0]);
        while (at != null && at <= end && ret < nrPages) {
            Page page = mapping.iPages.get(at);
            Page.getPage(page);
            out.add(page);
            ret++;
            at = marked.higher(at);
        }
        if (ret == nrPages) {
            index[0] = out.get(out.size() - 1).index + 1;
        } else {
            index[0] = end == Long.MAX_VALUE ? Long.MAX_VALUE : end + 1;
        }
        Spinlock.spinUnlockIrq(mapping.iPagesLock);
        return ret;
    }

    /**
     * mm/filemap.c: {@code find_get_entries()} (v5.10), as {@code pagevec_lookup_entries()} calls
     * it: up to {@code nrEntries} cached pages from index {@code start} on, each with a new
     * reference, into {@code out}, and their indexes into {@code indices} (the model has no
     * shadow or swap entries). Under the lock (see {@link AddressSpace}).
     */
    public static int findGetEntries(AddressSpace mapping, long start, int nrEntries, java.util.List<Page> out,
            long[] indices) {
        int ret = 0;
        Spinlock.spinLockIrq(mapping.iPagesLock);
        for (Map.Entry<Long, Page> e : mapping.iPages.tailMap(start, true).entrySet()) {
            if (ret == nrEntries) {
                break;
            }
            Page.getPage(e.getValue());
            out.add(e.getValue());
            indices[ret++] = e.getKey();
        }
        Spinlock.spinUnlockIrq(mapping.iPagesLock);
        return ret;
    }

    /** mm/swap.c: {@code pagevec_release()} ({@code release_pages()}): put every page of the vector and empty it. */
    public static void pagevecRelease(java.util.List<Page> pvec) {
        for (int i = 0; i < pvec.size(); i++) {
            Page.putPage(pvec.get(i));
        }
        pvec.clear();
    }

    /**
     * mm/filemap.c: {@code pagecache_get_page()} (v5.10), for the flags the model uses:
     * {@code FGP_LOCK} (lock, or only trylock with {@code FGP_NOWAIT}; re-check the page is
     * still in this mapping), {@code FGP_CREAT} (allocate and insert on a miss, retrying on
     * {@code -EEXIST}).
     */
    public static Page pagecacheGetPage(AddressSpace mapping, long offset, int fgpFlags) {
        for (;;) {
            Page page = findGetPage(mapping, offset);
            if (page != null) {
                if ((fgpFlags & FGP_LOCK) != 0) {
                    if ((fgpFlags & FGP_NOWAIT) != 0) {
                        if (!Filemap.trylockPage(page)) {
                            Page.putPage(page);
                            return null;
                        }
                    } else {
                        Filemap.lockPage(page);
                    }
                    /* Has the page been truncated? */
                    if (page.mapping != mapping) {
                        Filemap.unlockPage(page);
                        Page.putPage(page);
                        continue;
                    }
                    PageFlags.VM_BUG_ON_PAGE(page.index != offset, page, "page->index != offset");
                }
                return page;
            }
            if ((fgpFlags & FGP_CREAT) == 0) {
                return null;
            }
            page = __pageCacheAlloc(mapping, "pagecache_get_page");
            if (page == null) {
                return null;
            }
            int err = addToPageCacheLru(page, mapping, offset);
            if (err != 0) {
                Page.putPage(page);
                if (err == -Errno.EEXIST) {
                    continue;
                }
                return null;
            }
            /* add_to_page_cache_lru locks the page; unlock it if the caller did not ask for that. */
            if ((fgpFlags & FGP_LOCK) == 0) {
                Filemap.unlockPage(page);
            }
            return page;
        }
    }

    /** mm/filemap.c: {@code find_lock_page()}. */
    public static Page findLockPage(AddressSpace mapping, long offset) {
        return pagecacheGetPage(mapping, offset, FGP_LOCK);
    }

    /**
     * mm/filemap.c: {@code delete_from_page_cache()}: removes a locked page from its mapping and
     * drops the cache's reference ({@code page_cache_free_page()}).
     */
    public static void deleteFromPageCache(Page page) {
        PageFlags.VM_BUG_ON_PAGE(!PageFlags.PageLocked(page), page, "!PageLocked(page)");
        AddressSpace mapping = page.mapping;
        Spinlock.spinLockIrq(mapping.iPagesLock);
        Page cur = mapping.iPages.get(page.index);
        PageFlags.VM_BUG_ON_PAGE(cur != page, page, "page not in its mapping");
        mapping.iPages.remove(page.index);
        mapping.nrpages.set(mapping.nrpages.get() - 1);
        clearTags(mapping, page.index);
        page.mapping = null;
        Spinlock.spinUnlockIrq(mapping.iPagesLock);
        Kernel.event("delete_from_page_cache(%s)", page);
        Page.putPage(page);
    }

    /** The xarray entry's marks go with it: the caller holds {@code i_pages}' lock. */
    private static void clearTags(AddressSpace mapping, long index) {
        mapping.tagDirty.remove(index);
        mapping.tagWriteback.remove(index);
        mapping.tagTowrite.remove(index);
    }

    /**
     * mm/filemap.c: {@code __delete_from_page_cache(page, shadow)} (v5.10): remove a locked page
     * from its mapping, with its marks; the caller holds the mapping's {@code i_pages} lock and
     * drops the cache's reference afterwards ({@code page_cache_free_page()}).
     */
    public static void __deleteFromPageCache(Page page) {
        AddressSpace mapping = page.mapping;
        Spinlock.lockdepAssertHeld(mapping.iPagesLock);
        Page cur = mapping.iPages.get(page.index);
        PageFlags.VM_BUG_ON_PAGE(cur != page, page, "page not in its mapping");
        mapping.iPages.remove(page.index);
        mapping.nrpages.set(mapping.nrpages.get() - 1);
        clearTags(mapping, page.index);
        page.mapping = null;
        Kernel.event("__delete_from_page_cache(%s)", page);
    }

    /**
     * The page cache's invariants, shared by unit tests, jqwik chains and the model checker
     * (Caffeine's {@code isValid()} idea): every cached page is live, belongs to this mapping at
     * its index, and holds at least the cache's reference; {@code nrpages} matches.
     */
    public static void checkInvariants(AddressSpace mapping) {
        long n = 0;
        for (Map.Entry<Long, Page> e : mapping.entries()) {
            Page p = e.getValue();
            n++;
            if (p.isFreed()) {
                Kernel.fail(ViolationKind.BUG_ON, "VM_BUG_ON_PAGE(page_ref_count(page) == 0): page cache of " + mapping
                        + " holds free page " + p.name());
            }
            if (p.mapping != mapping || p.index != e.getKey()) {
                Kernel.fail(ViolationKind.BUG_ON, "page " + p.describe() + " cached at index " + e.getKey()
                        + " of " + mapping + " but points elsewhere");
            }
            if (p.refs() < 1) {
                Kernel.fail(ViolationKind.DOUBLE_RELEASE, "cached page " + p.describe() + " has no reference");
            }
        }
        if (n != mapping.peekNrpages()) {
            Kernel.fail(ViolationKind.BUG_ON, mapping + ": nrpages " + mapping.peekNrpages() + " but " + n + " pages cached");
        }
    }

    /**
     * End-of-run declaration: each cached page legitimately holds the cache's one reference, and
     * must not be left locked ({@code lock-leak}).
     */
    public static void expectCacheReferences(AddressSpace mapping, Lifetimes lifetimes) {
        for (Page p : mapping.iPages.values()) {
            lifetimes.expect(p, 1, "page cache");
            if ((p.flags.peek() & (1L << PG_locked)) != 0) {
                Kernel.fail(ViolationKind.LOCK_LEAK, "page " + p.describe() + " is still locked at the end");
            }
        }
    }
}
