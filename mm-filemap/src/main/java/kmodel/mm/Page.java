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
 * already held ({@code VM_BUG_ON_PAGE}, a {@code bug-on}); {@code put_page()} dropping the last
 * one frees the page back to its {@link PageAllocator}, which hands the same {@code struct page}
 * out again to a later allocation. The page cache holds one reference for as long as the page is
 * in it. Dropping below zero, or a put on a free page, is a {@code double-release}.
 *
 * <h2>The struct page is never freed</h2>
 * In the kernel {@code struct page} memory lives as long as the machine (short of memory
 * hot-remove): a page whose last reference goes back to the allocator keeps its flags word and
 * its wait-queue hash, and a pointer kept past the last reference reaches the same memory, free
 * or owned by whoever allocated it next. So a page is no {@code use-after-free} object here
 * ({@link #memoryOutlivesFree()}); {@link #gen()} numbers its incarnations instead, and the
 * places where the kernel uses a page pointer while holding no reference (the wake-up half of
 * {@code unlock_page()} and {@code end_page_writeback()}, a {@code wait_page_queue} whose waiter
 * dropped its reference) carry the incarnation they meant. A late access is checked for its
 * effect: a flag changed under another owner ({@link #lateFlagWrite}: {@code page-flags-corrupted}),
 * a flag left set on a free page ({@link PageAllocator}'s {@code check_new_page()}: the same),
 * a missed wake-up (the runtime's check), or a spurious wake-up, which is no violation and is
 * counted in the trace ({@link Filemap#wakePageFunction}).
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
    /**
     * Model-only, under {@code --memory-model lkmm} only: the contents as one memory location
     * ({@code this.contents}'s identity), a snapshot of {@link #data} stored by the device's DMA
     * when a read completes ({@link #dmaFilled}) and loaded by {@code copy_page_to_iter()}
     * ({@link #contentsSeen}): a reader not ordered after the completion (PG_uptodate's
     * {@code smp_wmb()}/{@code smp_rmb()} pair) may copy the contents as they were before it. Null
     * until the first read completes; written by the completing task, read by readers.
     */
    private byte[] published;
    private final Object contents = new Object();
    final PageAllocator allocator;
    /**
     * Allocation sequence number: the name is {@code "P" + serial}, and it numbers the page's
     * incarnations ({@link #gen()}). Model-only; written by the allocator under {@code zone.lock}.
     */
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

    /**
     * Hands a free page out again as incarnation {@code serial}: its flags were cleared when it
     * was freed ({@link PageAllocator}), and a flag set on it since was found by
     * {@code check_new_page()} before this.
     */
    void reinit(int serial) {
        this.serial = serial;
        rename("P" + serial);
        reuse();
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

    /** {@code struct page} memory is never freed: a late access is checked for its effect, not as a use-after-free. */
    @Override
    protected boolean memoryOutlivesFree() {
        return true;
    }

    /**
     * Model-only: which incarnation of this {@code struct page} is allocated now (or was last,
     * while it is free); a pointer taken while its holder had a right to the page (a reference,
     * the page lock, PG_writeback) remembers it, and compares it when it is used late.
     */
    public int gen() {
        return serial;
    }

    /**
     * Model-only, the effect check of a late flag write: {@code fn} is about to set or clear
     * {@code bit} through a pointer to incarnation {@code gen} of this page, a pointer its
     * holder keeps without a reference (no scheduling point; the write itself follows). An
     * instance method, so that a counterexample's function column names its caller.
     * <ul>
     *   <li>the same incarnation, still allocated: nothing to check;</li>
     *   <li>a free page: a clear has no effect (the free cleared the flags); a set stays, and the
     *       next allocation's {@code check_new_page()} reports it;</li>
     *   <li>a page reused by another owner: a write that changes the bit is
     *       {@code page-flags-corrupted}, naming both owners; one that does not change it has no
     *       effect. {@code ClearPageWaiters()} is the exception the kernel relies on (073861ed77b6's
     *       worry, answered by {@code wake_page_match()}): {@code wake_up_page_bit()} clears it
     *       only when no entry of the page was seen under {@code q->lock}, so no waiter of the
     *       new owner is queued; if one were, its effect is the missed wake-up the runtime
     *       reports.</li>
     * </ul>
     */
    public void lateFlagWrite(int gen, int bit, boolean set, String fn) {
        Page page = this;
        if (page.serial == gen && !page.isFreed()) {
            return;
        }
        String bitName = PageFlags.name(bit);
        String was = "P" + gen;
        if (page.isFreed()) {
            Kernel.event("%s: %s of free page " + was + ": %s", fn, (set ? "sets PG_" : "clears PG_") + bitName,
                    set ? "check_new_page() will see it" : "no effect");
            return;
        }
        boolean isSet = (page.flags.peek() & (1L << bit)) != 0;
        if (isSet == set) {
            Kernel.event("%s: PG_%s of " + was + ", reused as %s, already " + (set ? "set" : "clear") + ": no effect",
                    fn, bitName, page.name());
            return;
        }
        if (bit == PageFlags.PG_waiters && !set) {
            Kernel.event("%s: clears PG_waiters of %s, reused as %s: harmless unless a waiter of it is queued"
                    + " (page_match rules that out; a missed wake-up otherwise)", fn, was, page.name());
            return;
        }
        String owner = page.lockOwner != null && (page.flags.peek() & (1L << PageFlags.PG_locked)) != 0
                ? ", locked by " + page.lockOwner.name() : "";
        Kernel.fail(ViolationKind.PAGE_FLAGS_CORRUPTED, fn + " through a stale pointer to " + was + " "
                + (set ? "set" : "cleared") + " PG_" + bitName + " of the same struct page reused as "
                + page.describe() + (page.mapping != null ? " in " + page.mapping + owner : owner));
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
            Kernel.fail(ViolationKind.BUG_ON, "VM_BUG_ON_PAGE(page_ref_zero_or_close_to_overflow(page)): get_page("
                    + page.name() + ") on a page with no reference held" + (page.isFreed() ? " (a free page)" : ""));
        }
    }

    /** include/linux/page_ref.h: {@code get_page_unless_zero()}. */
    public static boolean getPageUnlessZero(Page page) {
        return page.refcount.addUnless(1, 0);
    }

    /**
     * include/linux/mm.h: {@code put_page()}: drops a reference; the last one frees the page
     * ({@code __put_page()} -> {@link PageAllocator#__freePages}). {@code put_page_testzero()}'s
     * {@code VM_BUG_ON_PAGE(page_ref_count(page) == 0)} (a put on a free page) is a
     * {@code double-release} here.
     */
    public static void putPage(Page page) {
        if (page.isFreed()) {
            Kernel.fail(ViolationKind.DOUBLE_RELEASE, "put_page(" + page.name()
                    + ") on a free page: VM_BUG_ON_PAGE(page_ref_count(page) == 0)");
        }
        int now = page.refcount.decReturn();
        if (now < 0) {
            Kernel.fail(ViolationKind.DOUBLE_RELEASE, "put_page(" + page.name() + "): reference count dropped below zero");
        }
        if (now == 0) {
            Kernel.event("free %s", page.name());
            page.allocator.__freePages(page);
        }
    }

    /** include/linux/page_ref.h: {@code page_ref_add()}. */
    public static void pageRefAdd(Page page, int nr) {
        page.touch();
        page.refcount.addReturn(nr);
    }

    /** Whether this execution runs under {@code --memory-model lkmm} (no runtime: no). */
    private static boolean lkmm() {
        kmodel.kernel.sched.Runtime rt = Kernel.rtOrNull();
        return rt != null && rt.config().memoryModel() == kmodel.kernel.MemoryModel.LKMM;
    }

    /**
     * Model-only: the device is about to DMA into {@link #data} (block/Disk's read). Under lkmm,
     * the first time, the contents as they are now become the location's initial store.
     */
    public void dmaFilling() {
        if (published == null && lkmm()) {
            published = data.clone();
        }
    }

    /**
     * Model-only: the device's DMA filled {@link #data}: under lkmm, a plain store of the new
     * contents to the contents location, by the completing task (a plain store: the ordering
     * readers rely on comes from {@code SetPageUptodate()}'s {@code smp_wmb()} after it).
     */
    public void dmaFilled() {
        if (lkmm()) {
            byte[] snap = data.clone();
            Kernel.rt().storeRef(contents, published, snap, kmodel.kernel.lkmm.Order.PLAIN);
            published = snap;
        }
    }

    /**
     * Model-only: the bytes a reader's copy sees ({@code copy_page_to_iter()}): {@link #data}
     * under sc; under lkmm a plain load of the contents location, any store the reader's view
     * allows (ordered after the completion only by {@code PageUptodate()}'s {@code smp_rmb()}
     * reading the bit set after {@code SetPageUptodate()}'s {@code smp_wmb()}).
     */
    public byte[] contentsSeen() {
        if (published == null || !lkmm()) {
            return data;
        }
        Object seen = Kernel.rt().loadRef(contents, published, kmodel.kernel.lkmm.Order.PLAIN);
        // The latest store: the live data, which also has any later CPU writes (zeroing, a write).
        return seen == published ? data : (byte[]) seen;
    }
}
