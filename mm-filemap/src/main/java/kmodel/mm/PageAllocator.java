package kmodel.mm;

import java.util.ArrayList;
import kmodel.kernel.FaultInject;
import kmodel.kernel.FaultInject.FaultAttr;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.locking.Spinlock;

/**
 * mm/page_alloc.c, coarsely (v5.10): the machine's {@code struct page}s and their free list, one
 * per execution. A page whose last reference goes comes back here ({@link #__freePages}), keeps
 * its memory (flags word, wait-queue hash), and is handed out again by a later
 * {@link #allocPages} for any mapping or index, as on a real machine; pages are created only when
 * none is free. An optional limit makes allocations fail (returning null, as
 * {@code __page_cache_alloc()} does under memory pressure).
 *
 * <h2>Which free page an allocation takes</h2>
 * The kernel's per-CPU free lists are LIFO ({@code free_unref_page_commit()} adds at the head,
 * {@code __rmqueue_pcplist()} takes from it): a CPU reuses the page it freed last, which is the
 * page most likely to still be reached through a stale pointer. Which page that is differs from
 * CPU to CPU, so when more than one page is free the model makes the choice a data choice
 * ({@code Runtime.choose}) among the {@value #REUSE_CHOICES} most recently freed; with one free
 * page it takes that one. Bounded: an allocation that takes an older free page, or a never-used
 * one while some are free, is not explored (docs/model.md, "The struct page is never freed").
 *
 * <h2>Checks ({@code CONFIG_DEBUG_VM}-style, of the flags the model has)</h2>
 * {@code free_pages_check()}: a page freed with a {@link PageFlags#PAGE_FLAGS_CHECK_AT_FREE} flag
 * set is {@code bad_page()} ({@code bug-on}); then {@code free_pages_prepare()} clears every flag.
 * {@code check_new_page()}: a page allocated with a {@link PageFlags#PAGE_FLAGS_CHECK_AT_PREP}
 * flag set was written late, while free, through a stale pointer ({@code page-flags-corrupted}).
 *
 * <p>The allocator also owns the machine's {@link PageWaitTable} ({@code page_wait_table[]} of
 * mm/filemap.c): the kernel's table is a static array, but the model keeps no static mutable
 * state, so it lives with the memory whose pages hash into it. An allocator is created per
 * execution (by the scenario's boot), which makes the table per-execution state; files that
 * should share one table (pages of different files colliding) share one allocator.
 *
 * <h2>Fault injection ({@code fail_page_alloc})</h2>
 * With {@code FAIL_PAGE_ALLOC=N} an allocation that names its call site
 * ({@link #allocPages(String)}, the page cache's {@code __page_cache_alloc()}) asks
 * {@link #shouldFailAllocPage} first, as {@code prepare_alloc_pages()} does, and at most N of
 * them fail (each a checker choice). Allocations without a site are not failed: the model's user
 * buffers (not kernel allocations) and btrfs' compressed pages ({@code __GFP_HIGHMEM}, which
 * {@code fail_page_alloc} ignores by default, {@code ignore-gfp-highmem=Y}; their NULL check is
 * not modelled).
 *
 * <p>Lock rule: {@code freeList}, {@code serial}, {@code created} and {@code inUse} are protected
 * by {@code zone.lock}.
 */
public final class PageAllocator {
    /** How many of the most recently freed pages an allocation may take (a data choice when two are free). */
    public static final int REUSE_CHOICES = 2;

    private final Spinlock lock = new Spinlock("zone.lock");
    /** Free pages, most recently freed last. Protected by {@code zone.lock}. */
    private final ArrayList<Page> freeList = new ArrayList<>();
    private final PageWaitTable waitTable;
    private int serial;
    private int created;
    private int inUse;
    private int limit = Integer.MAX_VALUE;
    /** mm/page_alloc.c: {@code fail_page_alloc} (v5.10): its {@code attr}, of this machine ({@code FAIL_PAGE_ALLOC}). */
    public final FaultAttr failPageAlloc = new FaultAttr("fail_page_alloc", MmOptions.FAIL_PAGE_ALLOC);

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

    /** include/linux/gfp.h: {@code alloc_page(GFP_KERNEL)} (v5.10): {@link #allocPages} of order 0. */
    public Page allocPage() {
        return allocPages(null);
    }

    /**
     * mm/page_alloc.c: {@code should_fail_alloc_page(gfp_mask, order)} (v5.10,
     * {@code __should_fail_alloc_page()}): {@code should_fail(&fail_page_alloc.attr, 1 << order)}
     * for the allocation at {@code caller}. The model's allocations are order 0 without
     * {@code __GFP_NOFAIL}, and the attributes are {@code min-order=0}, {@code ignore-gfp-wait=N}
     * (see {@code MmOptions.FAIL_PAGE_ALLOC}), so no filter applies before {@code should_fail()}.
     */
    boolean shouldFailAllocPage(int order, String caller) {
        return FaultInject.shouldFail(failPageAlloc, 1L << order, caller, null);
    }

    /**
     * mm/page_alloc.c: {@code alloc_pages()} -> {@code get_page_from_freelist()} for one page
     * (order 0, v5.10): a page with one reference, or null past the limit. Takes a free page when
     * there is one (which, see the class comment), after {@code check_new_page()}; else a page
     * never used before.
     */
    public Page allocPages() {
        return allocPages(null);
    }

    /**
     * mm/page_alloc.c: {@code __alloc_pages_nodemask()} for one page (order 0, v5.10):
     * {@code prepare_alloc_pages()}, whose {@code should_fail_alloc_page()} makes the allocation
     * at {@code caller} return NULL when {@code fail_page_alloc} picks it ({@code caller} null:
     * never, see the class notes), then {@link #allocPages()}'s {@code get_page_from_freelist()}.
     */
    public Page allocPages(String caller) {
        if (caller != null && shouldFailAllocPage(0, caller)) {
            return null;
        }
        Spinlock.spinLock(lock);
        if (inUse >= limit) {
            Spinlock.spinUnlock(lock);
            Kernel.event("alloc_page: -ENOMEM");
            return null;
        }
        inUse++;
        Page p;
        int free = freeList.size();
        if (free > 0) {
            int pick = Kernel.rt().choose(Math.min(free, REUSE_CHOICES), "which free page alloc_pages() takes");
            p = freeList.remove(free - 1 - pick);
            checkNewPage(p);
            String was = p.name();
            p.reinit(serial++);
            Kernel.event("alloc_pages: %s reused as %s", was, p.name());
        } else {
            p = new Page(this, serial++, created++);
        }
        Spinlock.spinUnlock(lock);
        return p;
    }

    /**
     * mm/page_alloc.c: {@code check_new_page()} (v5.10, with {@code check_new_page_bad()}): a page
     * about to be handed out must have no flag of {@code PAGE_FLAGS_CHECK_AT_PREP} set. The free
     * cleared them, so one set now was written through a stale pointer while the page was free.
     */
    private static void checkNewPage(Page page) {
        Kernel.accessRead(page.flags);
        long bad = page.flags.peek() & PageFlags.PAGE_FLAGS_CHECK_AT_PREP;
        if (bad != 0) {
            Kernel.fail(ViolationKind.PAGE_FLAGS_CORRUPTED, "bad_page(" + page.name() + "): "
                    + "PAGE_FLAGS_CHECK_AT_PREP flag(s) set on a free page by a late write: " + PageFlags.names(bad));
        }
    }

    /**
     * mm/page_alloc.c: {@code __free_pages()} -> {@code free_unref_page()} (v5.10), for one page:
     * called by {@code put_page()} when the last reference goes. {@code free_pages_check()}:
     * {@code bad_page()} if a {@code PAGE_FLAGS_CHECK_AT_FREE} flag is set; then
     * {@code free_pages_prepare()} clears the flags ({@code page->flags &= ~PAGE_FLAGS_CHECK_AT_PREP})
     * and the page goes to the head of the free list.
     */
    void __freePages(Page page) {
        Spinlock.spinLock(lock);
        Kernel.access(page.flags);
        long bad = page.flags.peek() & PageFlags.PAGE_FLAGS_CHECK_AT_FREE;
        if (bad != 0) {
            Spinlock.spinUnlock(lock);
            Kernel.fail(ViolationKind.BUG_ON, "bad_page(" + page.describe() + "): PAGE_FLAGS_CHECK_AT_FREE flag(s) set: "
                    + PageFlags.names(bad));
        }
        page.flags.reset(page.flags.peek() & ~PageFlags.PAGE_FLAGS_CHECK_AT_PREP);
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
