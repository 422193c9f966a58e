package kmodel.mm;

import java.util.ArrayList;
import kmodel.kernel.Kernel;
import kmodel.kernel.locking.Spinlock;

/**
 * mm/page_alloc.c, coarsely: a pool of {@code struct page}s. Freed pages go on a LIFO free list
 * and are handed out again first, so a stale pointer to a freed page meets a reused one, as on a
 * real machine. An optional limit makes allocations fail (returning null, as
 * {@code __page_cache_alloc()} does under memory pressure).
 *
 * <p>Lock rule: {@code freeList} and {@code allocated} are protected by {@code zone.lock}.
 */
public final class PageAllocator {
    private final Spinlock lock = new Spinlock("zone.lock");
    private final ArrayList<Page> freeList = new ArrayList<>();
    private int serial;
    private int inUse;
    private int limit = Integer.MAX_VALUE;

    /** Fails allocations once {@code limit} pages are in use. */
    public void setLimit(int limit) {
        this.limit = limit;
    }

    /** include/linux/gfp.h: {@code alloc_page(GFP_KERNEL)}: a page with one reference, or null. */
    public Page allocPage() {
        Spinlock.spinLock(lock);
        if (inUse >= limit) {
            Spinlock.spinUnlock(lock);
            Kernel.event("alloc_page: -ENOMEM");
            return null;
        }
        inUse++;
        Page p;
        if (!freeList.isEmpty()) {
            p = freeList.remove(freeList.size() - 1);
            p.reinit(serial++);
        } else {
            p = new Page(this, serial++);
        }
        Spinlock.spinUnlock(lock);
        return p;
    }

    /** mm/page_alloc.c: {@code free_unref_page()}: called by put_page() when the last reference goes. */
    void free(Page page) {
        Spinlock.spinLock(lock);
        page.markFreed();
        inUse--;
        freeList.add(page);
        Spinlock.spinUnlock(lock);
    }

    /** Pages currently handed out (no scheduling point; for checks). */
    public int inUse() {
        return inUse;
    }
}
