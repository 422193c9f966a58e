package kmodel.mm;

import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.atomic.AtomicT;
import kmodel.kernel.atomic.FlagsWord;
import kmodel.kernel.lifetime.KObject;
import kmodel.kernel.sched.LockHolders;
import kmodel.kernel.sched.Task;

/**
 * include/linux/mm_types.h: {@code struct page}: its flags word, its reference count
 * ({@code _refcount}), {@code mapping}, {@code index}, {@code private}, and the
 * {@value #PAGE_SIZE} bytes of data it stands for.
 *
 * <h2>Reference rules (include/linux/mm.h)</h2>
 * The allocator hands a page out with one reference. {@code get_page()} needs a reference
 * already held; {@code put_page()} dropping the last one frees the page back to its
 * {@link PageAllocator}, which may hand the same {@code struct page} out again. The page cache
 * holds one reference for as long as the page is in it. Dropping below zero is a
 * {@code double-release}; touching a free page is a {@code use-after-free}.
 *
 * <p>Field rules: {@code flags} through {@link PageFlags} (atomic bit ops); {@code mapping} and
 * {@code index} are set under the mapping's {@code i_pages} lock with the page locked; {@code data}
 * is written only by the owner of the locked, not-uptodate page (I/O completion), and read only
 * once PG_uptodate is seen.
 */
public final class Page extends KObject implements LockHolders {
    /** include/asm-generic/page.h: {@code PAGE_SIZE}. */
    public static final int PAGE_SIZE = 4096;
    /** {@code PAGE_SHIFT}. */
    public static final int PAGE_SHIFT = 12;

    /** {@code page->flags}. */
    public final FlagsWord flags;
    /** {@code page->_refcount}. */
    final AtomicT refcount;
    /** {@code page->mapping}: the address_space, or null. */
    public AddressSpace mapping;
    /** {@code page->index}: offset within the mapping, in pages. */
    public long index;
    /** {@code page->private} (btrfs: extent state). */
    public Object private_;
    /** The page's contents. */
    public final byte[] data = new byte[PAGE_SIZE];
    final PageAllocator allocator;
    /** Allocation sequence number (for the name). */
    int serial;
    /**
     * {@code page_to_pfn(page)}: which {@code struct page} of its allocator this is, in creation
     * order. Unlike the name it survives reuse, as the kernel's struct page address does, so the
     * page wait table hashes by it ({@link PageWaitTable#pageWaitqueue}).
     */
    public final int pfn;
    /**
     * Model-only bookkeeping, not in the kernel's {@code struct page}: the task that set
     * PG_locked last (the locker, or the waiter a hand-off took it for), for stuck-task and
     * {@code deadlock} reports. Set by {@link Filemap} and {@link PageFlags} wherever PG_locked
     * goes from clear to set, cleared when it is cleared. A page locked for I/O is unlocked by
     * the completion (interrupt context), not by its owner, so it is never checked against the
     * unlocker.
     */
    Task lockOwner;

    Page(PageAllocator allocator, int serial, int pfn) {
        super("page", "P" + serial);
        this.allocator = allocator;
        this.serial = serial;
        this.pfn = pfn;
        this.flags = new FlagsWord("P" + serial + ".flags");
        this.refcount = new AtomicT("P" + serial + "._refcount", 1);
    }

    void reinit(int serial) {
        this.serial = serial;
        rename("P" + serial);
        reuse();
        flags.reset(0);
        refcount.set(1);
        mapping = null;
        index = 0;
        private_ = null;
        lockOwner = null;
    }

    /** The task holding PG_locked, when it is set (model-only bookkeeping: {@link #lockOwner}). */
    @Override
    public void addHolders(java.util.List<Task> out) {
        if ((flags.peek() & (1L << PageFlags.PG_locked)) != 0 && lockOwner != null) {
            out.add(lockOwner);
        }
    }

    @Override
    public String lockName() {
        return name() + " (PG_locked)";
    }

    void markFreed() {
        released();
    }

    /** include/linux/page_ref.h: {@code page_ref_count()}: a scheduling point. */
    public int pageRefCount() {
        touch();
        return refcount.read();
    }

    @Override
    public int refs() {
        return refcount.peek();
    }

    /** Name, index and flags, for reports. */
    public String describe() {
        return name() + " (index " + index + ", refs " + refcount.peek() + ", flags 0x" + Long.toHexString(flags.peek()) + ")";
    }

    /**
     * include/linux/mm.h: {@code get_page()}: takes a reference; the caller must already hold one
     * ({@code VM_BUG_ON_PAGE(page_ref_zero_or_close_to_overflow(page))}).
     */
    public static void getPage(Page page) {
        page.touch();
        int now = page.refcount.incReturn();
        if (now <= 1) {
            Kernel.fail(ViolationKind.USE_AFTER_FREE, "get_page(" + page.name() + ") on a page with no reference held");
        }
    }

    /** include/linux/page_ref.h: {@code get_page_unless_zero()}. */
    public static boolean getPageUnlessZero(Page page) {
        return page.refcount.addUnless(1, 0);
    }

    /**
     * include/linux/mm.h: {@code put_page()}: drops a reference; the last one frees the page
     * ({@code __put_page()} -> the allocator). {@code put_page_testzero()}'s
     * {@code VM_BUG_ON_PAGE(page_ref_count(page) == 0)} is a {@code double-release} here.
     */
    public static void putPage(Page page) {
        if (page.isFreed()) {
            Kernel.fail(ViolationKind.DOUBLE_RELEASE, "put_page(" + page.name() + ") on a freed page");
        }
        int now = page.refcount.decReturn();
        if (now < 0) {
            Kernel.fail(ViolationKind.DOUBLE_RELEASE, "put_page(" + page.name() + "): reference count dropped below zero");
        }
        if (now == 0) {
            Kernel.event("free %s", page.name());
            page.allocator.free(page);
        }
    }

    /** include/linux/page_ref.h: {@code page_ref_add()}. */
    public static void pageRefAdd(Page page, int nr) {
        page.touch();
        page.refcount.addReturn(nr);
    }
}
