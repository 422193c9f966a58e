package kmodel.mm;

import java.util.ArrayList;
import kmodel.kernel.Kernel;
import kmodel.kernel.locking.Spinlock;

/**
 * mm/page_alloc.c, coarsely: a pool of {@code struct page}s, the "machine's memory". Freed pages
 * go on a LIFO free list and are handed out again first, so a stale pointer to a freed page meets
 * a reused one, as on a real machine. An optional limit makes allocations fail (returning null, as
 * {@code __page_cache_alloc()} does under memory pressure).
 *
 * <p>The allocator also owns the machine's {@link PageWaitTable} ({@code page_wait_table[]} of
 * mm/filemap.c): the kernel's table is a static array, but the model keeps no static mutable
 * state, so it lives with the memory whose pages hash into it. An allocator is created per
 * execution (by the scenario's boot), which makes the table per-execution state; files that
 * should share one table (pages of different files colliding) share one allocator.
 *
 * <p>Lock rule: {@code freeList}, {@code serial}, {@code created} and {@code inUse} are protected
 * by {@code zone.lock}.
 */
public final class PageAllocator {
    private final Spinlock lock = new Spinlock("zone.lock");
    private final ArrayList<Page> freeList = new ArrayList<>();
    private final PageWaitTable waitTable;
    private int serial;
    private int created;
    private int inUse;
    private int limit = Integer.MAX_VALUE;

    /**
     * Memory whose wait table has {@code MmOptions.PAGE_WAIT_TABLE_SIZE} heads, read from the
     * running execution's configuration (so a runtime must be installed: create allocators in
     * {@code Program.boot} or under {@code FreeRunningRuntime.install}).
     */
    public PageAllocator() {
        this((int) Kernel.config().value(MmOptions.PAGE_WAIT_TABLE_SIZE));
    }

    /** Memory whose wait table has {@code waitTableSize} heads. */
    public PageAllocator(int waitTableSize) {
        this.waitTable = new PageWaitTable(waitTableSize);
    }

    /** The hashed page wait table of this memory ({@code page_wait_table}). */
    public PageWaitTable waitTable() {
        return waitTable;
    }

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
            p = new Page(this, serial++, created++);
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
