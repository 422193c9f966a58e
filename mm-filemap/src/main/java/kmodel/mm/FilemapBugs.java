package kmodel.mm;

/**
 * Catalog bugs of mm-filemap: real historical mistakes in the page wait protocol and the async
 * buffered read series, switched back in with {@code Kconfig.withBug(id)} (CLI:
 * {@code --bug ID}) and read by the model with {@code Kernel.bug(id)}. Each one has a test that
 * shows the checker finding it, with the violation kind named below.
 *
 * <p>Postings are cited by Message-ID (archive: {@code https://lore.kernel.org/r/<Message-ID>}).
 */
public final class FilemapBugs {
    private FilemapBugs() {
    }

    /**
     * v1 of "mm: add support for async page locking" (20200522202311.10959-4-axboe@kernel.dk):
     * {@code __wait_on_page_locked_async()} tests PageLocked (or trylocks) <em>before</em> it
     * queues its entry and sets PG_waiters. An unlock between the test and SetPageWaiters sees
     * no waiters and wakes nobody; the callback stays armed on an unlocked page.
     * Fixed in v2 ("Fix a potential race with __wait_on_page_locked_async()"). Manifests as
     * {@code missed-wakeup}.
     */
    public static final String ASYNC_WAIT_CHECK_BEFORE_ADD = "async-wait-check-before-add";

    /**
     * v1 of the same patch: {@code __lock_page_async()} is
     * {@code return wait_on_page_locked_async(page, wait);}, which returns 0 whenever the page is
     * merely unlocked, so {@code lock_page_async()} reports "locked" to a caller that does not
     * own PG_locked. Its later {@code unlock_page()} unlocks a page it never locked. Fixed in v2
     * ("Fix an issue with inline page locking": the {@code set} argument, trylock under
     * {@code q->lock}). Manifests as {@code bug-on} ({@code VM_BUG_ON_PAGE(!PageLocked(page))}).
     */
    public static final String ASYNC_LOCK_NOT_TRYLOCK = "async-lock-not-trylock";

    /**
     * v1 of "io_uring: support true async buffered reads, if file provides it"
     * (20200522202311.10959-12-axboe@kernel.dk): {@code io_async_buf_func()} compared page and bit
     * itself and never set {@code key->page_match}. A wake-up walk for the page that leaves the
     * entry queued (another bit, e.g. {@code end_page_writeback()}) then clears PG_waiters, and
     * the next {@code unlock_page()} skips the wake-up. Fixed in v2 ("Fix a hang related to not
     * setting page_match, thus missing a wakeup"); the merged form calls
     * {@code wake_page_match()}. Honoured by {@link AsyncPageWaiter#ioAsyncBufFunc} and by io_uring's own
     * {@code kmodel.iouring.IoRw#ioAsyncBufFunc}. Manifests as
     * {@code missed-wakeup}.
     */
    public static final String ASYNC_PAGE_MATCH_NOT_SET = "async-page-match-not-set";
    /**
     * Undoes 073861ed77b6 ("mm: fix VM_BUG_ON(PageTail) and BUG_ON(PageWriteback)", Hugh Dickins,
     * v5.10-rc6; Fixes: 2a9127fcf229): {@code end_page_writeback()} without its
     * {@code get_page()}/{@code put_page()} around the wake-up. Writeback holds no page reference;
     * once PG_writeback is clear a truncation that waited for it may free the page, and the
     * belated {@code wake_up_page()} then touches a freed (or reused) page. Manifests as
     * {@code use-after-free}.
     */
    public static final String END_WRITEBACK_NO_PAGE_REF = "end-writeback-no-page-ref";
    /**
     * A mutation of {@code page_endio()} (mm/filemap.c, v5.10): a read's completion unlocks the
     * page first and sets PG_uptodate after. The completion holds no page reference, and once
     * PG_locked is clear a truncation may free the page and a read of another index may reuse
     * it; the late {@code SetPageUptodate()} then marks the new owner's page uptodate before its
     * own read has filled it. Manifests as {@code page-flags-corrupted} (the deliberate break of
     * the struct-page-reuse checks, docs/model.md).
     */
    public static final String PAGE_ENDIO_UNLOCK_FIRST = "page-endio-unlock-first";
    /**
     * A mutation of {@code __add_to_page_cache_locked()}'s error path (v5.10): on {@code -EEXIST}
     * the reference taken for the cache is not dropped again. The caller then puts only its own
     * reference, and the copy that lost the race is never freed. Manifests as {@code ref-leak}.
     */
    public static final String ADD_TO_PAGE_CACHE_EEXIST_REF_LEAK = "add-to-page-cache-eexist-ref-leak";
    /**
     * A mutation of {@code wake_page_match()} (c7510ab2cf5c, v5.9), which was extracted so that no
     * wake function could forget to record {@code key->page_match}: it compares page and bit but
     * does not record the page match, the v1 io_uring mistake made in the shared helper. A walk
     * for one bit of a page then clears PG_waiters while a waiter for another bit of that page is
     * still queued, and the later wake-up for that bit is skipped. Manifests as
     * {@code missed-wakeup}.
     */
    public static final String WAKE_PAGE_MATCH_NOT_SET = "wake-page-match-not-set";

    /**
     * On the v5.7 protocol ({@code PAGE_WAIT_V57=y}): the exclusive waiter checks for a signal
     * right after {@code io_schedule()}, before it tries to take the bit, as it did from
     * 62906027091f ("mm: add PageWaiters indicating tasks are waiting for a page bit", v4.10)
     * until a8b169afbf06 ("Avoid page waitqueue race leaving possible page locker waiting",
     * v4.13; subject as quoted by Oleg Nesterov in 20200624161142.GA12184@redhat.com). A killable
     * exclusive waiter that an unlock woke (using up the walk's one exclusive wake-up) leaves
     * with {@code -EINTR}, neither taking the lock nor passing the wake-up on, and the next
     * exclusive waiter sleeps for good. Manifests as {@code missed-wakeup}.
     */
    public static final String EXCLUSIVE_WAIT_SIGNAL_FIRST = "exclusive-wait-signal-first";

    /**
     * On the v5.10 protocol: {@code wake_page_function()} takes the bit for a fair hand-off waiter
     * (kind (c), {@code WQ_FLAG_EXCLUSIVE | WQ_FLAG_CUSTOM}) but does not set
     * {@code WQ_FLAG_DONE} (a mutation of 5ef64cc8987a, "mm: allow a controlled amount of
     * unfairness in the page lock"). The waiter sees WOKEN without DONE, fails its own
     * {@code test_and_set_bit()} on the lock it was handed, requeues, and nobody will unlock.
     * Manifests as {@code missed-wakeup}.
     */
    public static final String HANDOFF_FORGETS_DONE = "handoff-forgets-done";

    /**
     * A mutation of mm/filemap.c: {@code end_page_writeback()} (v5.10): PG_writeback is cleared
     * but {@code wake_up_page(page, PG_writeback)} is left out, so a task sleeping in
     * {@code wait_on_page_writeback()} ({@code write_cache_pages()} of a WB_SYNC_ALL pass,
     * {@code filemap_fdatawait_range()}, truncation) is never woken. Manifests as
     * {@code missed-wakeup}.
     */
    public static final String END_PAGE_WRITEBACK_NO_WAKE = "end-page-writeback-no-wake";

    /**
     * A mutation of mm/page-writeback.c: {@code write_cache_pages()} (v5.10): no
     * {@code page->mapping != mapping} test after {@code lock_page()}. A page that truncation
     * removed while writeback waited for its lock is then written as if it were still the file's.
     * Truncation cancels the dirty bit under the page lock, so the {@code !PageDirty} test right
     * after catches most such pages; one redirtied after the truncation
     * ({@code set_page_dirty_lock()} of a pinned page, which dirties a page with no mapping)
     * reaches {@code ->writepage} with {@code page->mapping == NULL}, which
     * {@code block_write_full_page()} dereferences: the kernel oopses, the model reports
     * {@code bug-on} (scenario {@code truncate-writeback-pinned}).
     */
    public static final String WRITE_CACHE_PAGES_NO_MAPPING_RECHECK = "write-cache-pages-no-mapping-recheck";

    /**
     * A mutation of mm/truncate.c: {@code truncate_setsize()} (v5.10) that empties the page cache
     * ({@code truncate_pagecache()}) before it writes the new {@code i_size}, against the rule
     * of {@code truncate_pagecache()}'s kernel-doc: "inode's new i_size must already be written
     * before truncate_pagecache is called". A reader racing the truncation then instantiates a
     * page past the new end, read from blocks the file system is about to free, which stays in
     * the cache. Manifests as {@code data-corruption} (scenario {@code truncate-read}).
     */
    public static final String TRUNCATE_PAGECACHE_BEFORE_ISIZE = "truncate-pagecache-before-isize";

    /**
     * Undoes c2407cf7d22d ("mm: make wait_on_page_writeback() wait for multiple pending
     * writebacks", Linus Torvalds, v5.11-rc3, Cc: stable, in 5.10.7; Fixes: 2a9127fcf229): v5.10.0's
     * {@code wait_on_page_writeback()} with a single {@code if}. The end of an earlier writeback
     * ({@code end_page_writeback()}: PG_writeback cleared, the wake-up delayed) wakes a waiter for
     * a later writeback of the same page, which v5.8's wake-up logic no longer re-checks: the
     * waiter returns with the page under writeback again. {@code write_cache_pages()} then hits
     * {@code BUG_ON(PageWriteback(page))} (the syzbot report the commit answers), or an fsync
     * returns before the data is on the device. Found by {@code fsync-redirty}.
     */
    public static final String WAIT_ON_PAGE_WRITEBACK_ONCE = "wait-on-page-writeback-once";

    /**
     * A mutation of mm/filemap.c: {@code generic_file_buffered_read()} (v5.10): the
     * {@code IOCB_NOWAIT} test before {@code wait_on_page_locked_killable()} is left out, so an
     * {@code IOCB_NOWAIT} read that finds its page not uptodate (read-ahead it just started, or
     * another reader's read in flight) sleeps on the page lock instead of returning
     * {@code -EAGAIN}: the very thing the flag forbids. Manifests as {@code blocked-in-nowait}
     * (scenario {@code nowait-readahead}), the checker's own test of its non-blocking sections.
     */
    public static final String NOWAIT_WAITS_FOR_PAGE = "nowait-waits-for-page";

    /**
     * A barrier bug (found only under a weak memory model, not under sequential consistency):
     * {@code SetPageUptodate()} without its {@code smp_wmb()} and {@code PageUptodate()} without
     * its {@code smp_rmb()} (include/linux/page-flags.h), as before 0ed361dec369 ("mm: fix
     * PageUptodate data race", Nick Piggin; after v2.6.24, whose page-flags.h still has the plain
     * {@code set_bit()}/{@code test_bit()}). "After running SetPageUptodate, preceeding stores to the page
     * contents to actually bring it uptodate may not be ordered with the store to set the page
     * uptodate. Therefore, another CPU which checks PageUptodate is true, then reads the page
     * contents can get stale data." A reader that finds the page uptodate without taking its
     * lock ({@code generic_file_buffered_read()}) copies bytes the read's completion has not yet
     * made visible to it. Manifests as {@code data-corruption} under the LKMM.
     */
    public static final String PAGE_UPTODATE_NO_BARRIERS = "page-uptodate-no-barriers";

    /**
     * A barrier bug (found only under a weak memory model, not under sequential consistency):
     * undoes c6fe44d96fc1 ("list: add "list_del_init_careful()" to go with
     * "list_empty_careful()"", Linus Torvalds, v5.8: "That gives us ordering guarantees around the
     * pair"), restoring the form of its parent 2a9127fcf229 ("mm: rewrite wait_on_page_bit_common()
     * logic", v5.8): {@code wake_page_function()} ends with {@code smp_mb(); list_del_init()}
     * and the waiter's {@code finish_wait()} tests {@code list_empty_careful()} with plain loads,
     * no {@code smp_load_acquire()} of {@code entry->next}. A waiter that left its loop on a signal
     * and finds its entry already unlinked skips {@code q->lock}; its read of {@code wait->flags}
     * for the result is then not ordered after the unlink it saw, and may miss the
     * {@code WQ_FLAG_WOKEN | WQ_FLAG_DONE} the waker stored first: a killable locker that was
     * handed the page lock returns {@code -EINTR} and never unlocks the page. Expected to manifest
     * as {@code missed-wakeup} of the next locker (scenario {@code page-lock-killable}, with the
     * fair hand-off of {@code PAGE_LOCK_UNFAIRNESS=0}) under the LKMM.
     */
    public static final String PAGE_WAIT_LIST_DEL_NOT_CAREFUL = "page-wait-list-del-not-careful";

    /**
     * A mutation of {@code page_cache_ra_unbounded()}'s allocation-failure path (mm/readahead.c,
     * v5.10): on a failed {@code __page_cache_alloc()} it returns at once instead of
     * {@code break}ing to {@code read_pages()}, so the pages of the batch built so far, locked
     * in the page cache by {@code add_to_page_cache_lru()}, are never read nor unlocked. Reached
     * only with fault injection ({@code FAIL_PAGE_ALLOC}). Manifests as {@code missed-wakeup}
     * (a reader sleeps on the page lock for ever).
     */
    public static final String READAHEAD_NOMEM_DROPS_BATCH = "readahead-nomem-drops-batch";

    /** Every bug id of this module. */
    public static String[] all() {
        return new String[] {ASYNC_WAIT_CHECK_BEFORE_ADD, ASYNC_LOCK_NOT_TRYLOCK, ASYNC_PAGE_MATCH_NOT_SET,
            EXCLUSIVE_WAIT_SIGNAL_FIRST, HANDOFF_FORGETS_DONE, END_WRITEBACK_NO_PAGE_REF,
            ADD_TO_PAGE_CACHE_EEXIST_REF_LEAK, WAKE_PAGE_MATCH_NOT_SET, END_PAGE_WRITEBACK_NO_WAKE,
            WRITE_CACHE_PAGES_NO_MAPPING_RECHECK, TRUNCATE_PAGECACHE_BEFORE_ISIZE, WAIT_ON_PAGE_WRITEBACK_ONCE,
            NOWAIT_WAITS_FOR_PAGE, PAGE_UPTODATE_NO_BARRIERS, PAGE_WAIT_LIST_DEL_NOT_CAREFUL, PAGE_ENDIO_UNLOCK_FIRST,
            READAHEAD_NOMEM_DROPS_BATCH};
    }
}
