package kmodel.mm;

/**
 * include/linux/pagemap.h (v5.9+): {@code struct wait_page_key}: the key a page wake-up walks the
 * hashed queue with. {@code page_match} is set by every wake function whose entry is for this
 * page (even when the bit differs or it stays queued), so that {@code wake_up_page_bit()} knows
 * whether this page may still have waiters before it clears PG_waiters.
 */
public final class WaitPageKey {
    public Page page;
    public int bitNr;
    /**
     * Model-only: the incarnation of {@code page} the waker meant ({@link Page#gen()}); the waker
     * may hold no reference, so the page may have been freed and reused since.
     */
    public int gen;
    /** Set to 1 by any entry for {@code page} seen during the walk; accumulates over bookmarks. */
    public int pageMatch;

    public WaitPageKey(Page page, int bitNr) {
        this.page = page;
        this.bitNr = bitNr;
        this.gen = page.gen();
    }
}
