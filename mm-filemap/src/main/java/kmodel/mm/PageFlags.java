package kmodel.mm;

import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.atomic.Bitops;
import kmodel.kernel.atomic.Barriers;

/**
 * include/linux/page-flags.h (v5.10): the page flag bits the model uses, numbered as in
 * {@code enum pageflags}, and the {@code PageFoo}/{@code SetPageFoo}/{@code ClearPageFoo}
 * helpers. Every test and atomic change is a scheduling point; the {@code __} variants are
 * non-atomic and only for pages no other task can see yet.
 */
public final class PageFlags {
    /** Page is locked. Don't touch. */
    public static final int PG_locked = 0;
    public static final int PG_referenced = 1;
    /** The page's contents are valid. */
    public static final int PG_uptodate = 2;
    public static final int PG_dirty = 3;
    public static final int PG_lru = 4;
    public static final int PG_active = 5;
    public static final int PG_workingset = 6;
    /**
     * Page has waiters, check its waitqueue. Must be bit 7, in the same byte as PG_locked:
     * {@code unlock_page()} clears PG_locked and tests PG_waiters in one
     * {@code clear_bit_unlock_is_negative_byte()}. Checked once by {@link #checkLayout()}.
     */
    public static final int PG_waiters = 7;
    /** An I/O error occurred on the page. */
    public static final int PG_error = 8;
    public static final int PG_private = 13;
    /** Page is under writeback. */
    public static final int PG_writeback = 15;
    /** PG_reclaim, which read-ahead reuses as PG_readahead (they never meet on one page). */
    public static final int PG_reclaim = 18;
    /** The read-ahead marker: reading this page triggers the next asynchronous read-ahead. */
    public static final int PG_readahead = PG_reclaim;

    /*
     * The BUILD_BUG_ON: checked once, when the class is loaded, before any page flag is used. A
     * constant check, not model state, so a static initializer is the right place for it.
     */
    static {
        checkLayout();
    }

    private PageFlags() {
    }

    /**
     * mm/filemap.c: {@code BUILD_BUG_ON(PG_waiters != 7)} in unlock_page() and
     * {@code BUILD_BUG_ON(PG_locked > 7)}: the Java stand-in, run once by the tests.
     */
    public static void checkLayout() {
        if (PG_waiters != 7 || PG_locked > 7 || (PG_locked & ~7) != (PG_waiters & ~7)) {
            throw new AssertionError("BUILD_BUG_ON: PG_waiters must be bit 7 of PG_locked's byte");
        }
    }

    /**
     * include/linux/page-flags.h: {@code PAGE_FLAGS_CHECK_AT_FREE}, of the flags the model has:
     * {@code free_pages_check()} reports a page freed with one of them set ({@code bad_page()}).
     */
    public static final long PAGE_FLAGS_CHECK_AT_FREE = 1L << PG_lru | 1L << PG_locked | 1L << PG_private
            | 1L << PG_writeback | 1L << PG_active;
    /**
     * include/linux/page-flags.h: {@code PAGE_FLAGS_CHECK_AT_PREP}: every flag but PG_hwpoison
     * ((1UL &lt;&lt; NR_PAGEFLAGS) - 1 without it; the model's flags are all below bit 22). {@code free_pages_prepare()} clears them, so
     * {@code check_new_page()} finds one set on an allocation only if a late write put it there.
     */
    public static final long PAGE_FLAGS_CHECK_AT_PREP = (1L << 22) - 1;

    /** The flag's name without its {@code PG_} prefix, for reports. */
    public static String name(int bit) {
        switch (bit) {
            case PG_locked:
                return "locked";
            case PG_referenced:
                return "referenced";
            case PG_uptodate:
                return "uptodate";
            case PG_dirty:
                return "dirty";
            case PG_lru:
                return "lru";
            case PG_active:
                return "active";
            case PG_workingset:
                return "workingset";
            case PG_waiters:
                return "waiters";
            case PG_error:
                return "error";
            case PG_private:
                return "private";
            case PG_writeback:
                return "writeback";
            case PG_reclaim:
                return "reclaim";
            default:
                return "bit" + bit;
        }
    }

    /** The names of the flags set in {@code mask}, for reports: {@code "PG_locked|PG_writeback"}. */
    public static String names(long mask) {
        StringBuilder sb = new StringBuilder();
        for (int b = 0; b < 64; b++) {
            if ((mask & (1L << b)) != 0) {
                if (sb.length() > 0) {
                    sb.append('|');
                }
                sb.append("PG_").append(name(b));
            }
        }
        return sb.toString();
    }

    private static boolean test(int bit, Page page) {
        page.touch();
        return Bitops.testBit(bit, page.flags);
    }

    private static void set(int bit, Page page) {
        page.touch();
        Bitops.setBit(bit, page.flags);
    }

    private static void clear(int bit, Page page) {
        page.touch();
        Bitops.clearBit(bit, page.flags);
    }

    /** include/linux/page-flags.h: {@code PageLocked()}. */
    public static boolean PageLocked(Page page) {
        return test(PG_locked, page);
    }

    /** include/linux/page-flags.h: {@code __SetPageLocked()}: non-atomic, for a page not yet visible to others. */
    public static void __SetPageLocked(Page page) {
        page.touch();
        Bitops.__setBit(PG_locked, page.flags);
        page.lockOwner = kmodel.kernel.Kernel.current();
    }

    /** include/linux/page-flags.h: {@code __ClearPageLocked()}: non-atomic, for a page not visible to others. */
    public static void __ClearPageLocked(Page page) {
        page.touch();
        Bitops.__clearBit(PG_locked, page.flags);
        page.lockOwner = null;
    }

    /** include/linux/page-flags.h: {@code PageWaiters()}. */
    public static boolean PageWaiters(Page page) {
        return test(PG_waiters, page);
    }

    /** include/linux/page-flags.h: {@code SetPageWaiters()}. */
    public static void SetPageWaiters(Page page) {
        set(PG_waiters, page);
    }

    /** include/linux/page-flags.h: {@code ClearPageWaiters()}. */
    public static void ClearPageWaiters(Page page) {
        clear(PG_waiters, page);
    }

    /**
     * include/linux/page-flags.h: {@code PageUptodate()} (v5.10): the bit, and if it is set
     * {@code smp_rmb()} ("Must ensure that the data we read out of the page is loaded _after_ we've
     * loaded page->flags to check for PageUptodate"), pairing
     * with the {@code smp_wmb()} of {@link #SetPageUptodate}. Both barriers came with 0ed361dec369
     * ("mm: fix PageUptodate data race"); bug {@code page-uptodate-no-barriers} leaves them out.
     */
    public static boolean PageUptodate(Page page) {
        boolean ret = test(PG_uptodate, page);
        if (ret && !Kernel.bug(FilemapBugs.PAGE_UPTODATE_NO_BARRIERS)) {
            Barriers.smpRmb("PageUptodate");
        }
        return ret;
    }

    /**
     * include/linux/page-flags.h: {@code SetPageUptodate()} (v5.10): {@code smp_wmb()}, then set
     * the bit: the page's contents are written before the bit that says they are there ("Memory
     * barrier must be issued before setting the PG_uptodate bit, so that all previous stores issued
     * in order to bring the page uptodate are actually visible before PageUptodate becomes true").
     */
    public static void SetPageUptodate(Page page) {
        if (!Kernel.bug(FilemapBugs.PAGE_UPTODATE_NO_BARRIERS)) {
            Barriers.smpWmb("SetPageUptodate");
        } else {
            Kernel.event("SetPageUptodate(%s): no smp_wmb() (bug)", page);
        }
        set(PG_uptodate, page);
    }

    /** include/linux/page-flags.h: {@code ClearPageUptodate()}. */
    public static void ClearPageUptodate(Page page) {
        clear(PG_uptodate, page);
    }

    /** include/linux/page-flags.h: {@code PageError()}. */
    public static boolean PageError(Page page) {
        return test(PG_error, page);
    }

    /** include/linux/page-flags.h: {@code SetPageError()}. */
    public static void SetPageError(Page page) {
        set(PG_error, page);
    }

    /** include/linux/page-flags.h: {@code ClearPageError()}. */
    public static void ClearPageError(Page page) {
        clear(PG_error, page);
    }

    /** include/linux/page-flags.h: {@code PageDirty()}. */
    public static boolean PageDirty(Page page) {
        return test(PG_dirty, page);
    }

    /** include/linux/page-flags.h: {@code TestSetPageDirty()}: returns the old bit. */
    public static boolean TestSetPageDirty(Page page) {
        page.touch();
        return Bitops.testAndSetBit(PG_dirty, page.flags);
    }

    /** include/linux/page-flags.h: {@code TestClearPageDirty()}: returns the old bit. */
    public static boolean TestClearPageDirty(Page page) {
        page.touch();
        return Bitops.testAndClearBit(PG_dirty, page.flags);
    }

    /** include/linux/page-flags.h: {@code ClearPageDirty()}. */
    public static void ClearPageDirty(Page page) {
        clear(PG_dirty, page);
    }

    /** include/linux/page-flags.h: {@code PageWriteback()}. */
    public static boolean PageWriteback(Page page) {
        return test(PG_writeback, page);
    }

    /** include/linux/page-flags.h: {@code TestSetPageWriteback()}: returns the old bit. */
    public static boolean TestSetPageWriteback(Page page) {
        page.touch();
        return Bitops.testAndSetBit(PG_writeback, page.flags);
    }

    /** include/linux/page-flags.h: {@code TestClearPageWriteback()}: returns the old bit. */
    public static boolean TestClearPageWriteback(Page page) {
        page.touch();
        return Bitops.testAndClearBit(PG_writeback, page.flags);
    }

    /** include/linux/page-flags.h: {@code PageReadahead()}. */
    public static boolean PageReadahead(Page page) {
        return test(PG_readahead, page);
    }

    /** include/linux/page-flags.h: {@code SetPageReadahead()}. */
    public static void SetPageReadahead(Page page) {
        set(PG_readahead, page);
    }

    /** include/linux/page-flags.h: {@code ClearPageReadahead()}. */
    public static void ClearPageReadahead(Page page) {
        clear(PG_readahead, page);
    }

    /** include/linux/page-flags.h: {@code TestClearPageReadahead()}. */
    public static boolean TestClearPageReadahead(Page page) {
        page.touch();
        return Bitops.testAndClearBit(PG_readahead, page.flags);
    }

    /** include/linux/page-flags.h: {@code PagePrivate()}. */
    public static boolean PagePrivate(Page page) {
        return test(PG_private, page);
    }

    /** include/linux/mmdebug.h: {@code VM_BUG_ON_PAGE(cond, page)}: reported as {@code bug-on} naming the page. */
    public static void VM_BUG_ON_PAGE(boolean cond, Page page, String what) {
        if (cond) {
            Kernel.fail(ViolationKind.BUG_ON, "VM_BUG_ON_PAGE(" + what + ") page " + page.describe());
        }
    }
}
