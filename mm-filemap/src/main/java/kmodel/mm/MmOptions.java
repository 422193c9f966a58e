package kmodel.mm;

import kmodel.kernel.KconfigOption;

/** Kconfig options read by mm-filemap. */
public final class MmOptions {
    private MmOptions() {
    }

    /**
     * Seed 002 (async buffered reads): {@code IOCB_WAITQ}, page-unlock callbacks,
     * {@code FMODE_BUF_RASYNC}. With n, generic_file_buffered_read() has no IOCB_WAITQ branches and
     * files do not advertise FMODE_BUF_RASYNC (io_uring punts to io-wq).
     */
    public static final KconfigOption ASYNC_BUFFERED_READS = KconfigOption.bool("ASYNC_BUFFERED_READS", true,
            "seed 002: async buffered reads (IOCB_WAITQ, page-unlock callbacks)");

    /** Seed 002 patch 02: "mm: allow read-ahead with IOCB_NOWAIT set". */
    public static final KconfigOption READAHEAD_NOWAIT = KconfigOption.bool("READAHEAD_NOWAIT", true,
            "seed 002 patch 02: read-ahead allowed under IOCB_NOWAIT");

    /**
     * The read path as the async buffered read series was merged (v5.9) instead of v5.10's. The
     * one difference is 324bcf54c449 ("mm: use limited read-ahead to satisfy read", v5.10-rc1,
     * not taken by 5.9.y): with y (v5.9), {@code page_cache_sync_readahead()} does nothing when
     * read-ahead is disabled ({@code ra_pages == 0}), so a read of an uncached page goes to
     * {@code no_cached_page}: it allocates the page, adds it to the cache, calls
     * {@code ->readpage} itself (a plain read, not {@code REQ_RAHEAD}) and then, under
     * {@code IOCB_WAITQ}, waits for it with {@code lock_page_async()} ({@code -EIOCBQUEUED});
     * under {@code IOCB_NOWAIT} it leaves the new page in the cache, not uptodate, and returns
     * {@code -EAGAIN} without starting I/O. With n (v5.10, the default),
     * {@code page_cache_sync_ra()} forces a one-page read-ahead of the needed page instead, and
     * the read waits for that page ({@code wait_on_page_locked_async()} under
     * {@code IOCB_WAITQ}; {@code -EAGAIN} under {@code IOCB_NOWAIT}, with the read-ahead
     * started). Both forms keep the 5.9.y stable fixes 13bd691421bc ("mm: mark async iocb read
     * as NOWAIT once some data has been copied", 5.9.4) and 0abed7c69b95 ("mm: never attempt
     * async page lock if we've transferred data already", 5.9.11).
     */
    public static final KconfigOption READ_PATH_V59 = KconfigOption.bool("READ_PATH_V59", false,
            "read path of v5.9 (y: no read-ahead with ra_pages 0, the read calls ->readpage itself) "
            + "instead of v5.10 (n: a forced one-page read-ahead, 324bcf54c449)");

    /**
     * The page wait protocol as in v5.7 (before 2a9127fcf229 "mm: rewrite wait_on_page_bit_common()
     * logic"): the waiter re-tests the bit itself after waking. n: v5.10.
     */
    public static final KconfigOption PAGE_WAIT_V57 = KconfigOption.bool("PAGE_WAIT_V57", false,
            "page wait protocol of v5.7 instead of v5.10");

    /** mm/filemap.c: {@code PAGE_WAIT_TABLE_BITS} as a size; kernel 256 heads. Small values force collisions. */
    public static final KconfigOption PAGE_WAIT_TABLE_SIZE = KconfigOption.integer("PAGE_WAIT_TABLE_SIZE", 256, 1, 4096,
            "heads in the hashed page wait table (kernel: 256)");

    /** mm/filemap.c: {@code sysctl_page_lock_unfairness} (v5.9+), default 5. */
    public static final KconfigOption PAGE_LOCK_UNFAIRNESS = KconfigOption.integer("PAGE_LOCK_UNFAIRNESS", 5, 0, 1000,
            "vm.page_lock_unfairness: steals before a fair hand-off (kernel: 5)");

    /**
     * A candidate fix, in no kernel (default n): after {@code finish_wait()} in v5.10
     * {@code wait_on_page_bit_common()}, an exclusive waiter whose flags say WOKEN but not DONE
     * tries the lock bit once ({@code test_and_set_bit()}); if it gets it, it sets DONE and
     * returns 0, owning the lock; if not, the bit's owner will unlock and wake the queue. Without
     * it, a {@code lock_page_killable()} waiter that left its loop on SIGKILL and was then picked
     * by an unlocker's walk as its one exclusive wake-up (kind (b), WOKEN without DONE) returns
     * -EINTR and the next locker sleeps for good (finding
     * {@code finding-killed-locker-strands-waiter}, docs/findings/killed-locker-strands-waiter.md).
     * The rule is the kernel's own (a8b169afbf06, 777c6c5f1f6e): an exclusive waiter that was
     * woken must take the lock or pass the wake-up on, even with a fatal signal pending. Has no
     * effect with {@link #PAGE_WAIT_V57}.
     */
    public static final KconfigOption PAGE_LOCK_WOKEN_KILLED_TRYLOCK = KconfigOption.bool("PAGE_LOCK_WOKEN_KILLED_TRYLOCK",
            false, "candidate fix (in no kernel): a killed exclusive waiter woken without DONE tries the lock once");

    /**
     * Fault injection {@code fail_page_alloc} (mm/page_alloc.c {@code should_fail_alloc_page()},
     * lib/fault-inject.c {@code should_fail()}; {@link kmodel.kernel.FaultInject}): at most N page
     * allocations of {@code __page_cache_alloc()} fail in an execution, each call a data choice
     * of the checker ({@code times=N}, {@code probability} the choice), as with the debugfs
     * settings {@code min-order=0} and {@code ignore-gfp-wait=N} (the defaults, order 1 and Y,
     * would spare these order-0 reclaiming allocations). 0: off.
     */
    public static final KconfigOption FAIL_PAGE_ALLOC = KconfigOption.integer("FAIL_PAGE_ALLOC", 0, 0, 1000,
            "fault injection, mm/page_alloc.c should_fail_alloc_page(): at most N __page_cache_alloc() calls fail (each a checker choice; 0 off)");

    /** Every option of this module. */
    public static KconfigOption[] all() {
        return new KconfigOption[] {ASYNC_BUFFERED_READS, READAHEAD_NOWAIT, READ_PATH_V59, PAGE_WAIT_V57, PAGE_WAIT_TABLE_SIZE,
            PAGE_LOCK_UNFAIRNESS, PAGE_LOCK_WOKEN_KILLED_TRYLOCK, FAIL_PAGE_ALLOC};
    }
}
