package kmodel.mm;

/**
 * mm/filemap.c (v5.10), the page lock and wait half: the hashed page wait table, the wake
 * functions and wait loops, {@code unlock_page()}, {@code lock_page()} and friends.
 *
 * <p>API skeleton: the protocol bodies are filled by issue 3's page-wait work.
 */
public final class Filemap {
    private Filemap() {
    }

    /** include/linux/pagemap.h: {@code trylock_page()}. */
    public static boolean trylockPage(Page page) {
        throw new UnsupportedOperationException("page wait protocol not yet modelled");
    }

    /** include/linux/pagemap.h: {@code lock_page()}. */
    public static void lockPage(Page page) {
        throw new UnsupportedOperationException("page wait protocol not yet modelled");
    }

    /** include/linux/pagemap.h: {@code lock_page_killable()}. */
    public static int lockPageKillable(Page page) {
        throw new UnsupportedOperationException("page wait protocol not yet modelled");
    }

    /** mm/filemap.c: {@code unlock_page()}. */
    public static void unlockPage(Page page) {
        throw new UnsupportedOperationException("page wait protocol not yet modelled");
    }

    /** include/linux/pagemap.h: {@code wait_on_page_locked()}. */
    public static void waitOnPageLocked(Page page) {
        throw new UnsupportedOperationException("page wait protocol not yet modelled");
    }

    /** include/linux/pagemap.h: {@code wait_on_page_locked_killable()}. */
    public static int waitOnPageLockedKillable(Page page) {
        throw new UnsupportedOperationException("page wait protocol not yet modelled");
    }

    /** mm/filemap.c: {@code wait_on_page_locked_async()}: 0, or -EIOCBQUEUED with the callback armed. */
    public static int waitOnPageLockedAsync(Page page, WaitPageQueue wait) {
        throw new UnsupportedOperationException("page wait protocol not yet modelled");
    }

    /** include/linux/pagemap.h: {@code lock_page_async()}: 0 when locked, or -EIOCBQUEUED with the callback armed. */
    public static int lockPageAsync(Page page, WaitPageQueue wait) {
        throw new UnsupportedOperationException("page wait protocol not yet modelled");
    }

    /** mm/filemap.c: {@code end_page_writeback()}. */
    public static void endPageWriteback(Page page) {
        throw new UnsupportedOperationException("page wait protocol not yet modelled");
    }
}
