package kmodel.verification.catalog;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.List;
import kmodel.kernel.KconfigOption;
import kmodel.block.BlockBugs;
import kmodel.fs.btrfs.BtrfsBugs;
import kmodel.fs.btrfs.BtrfsOptions;
import kmodel.iouring.IoUringBugs;
import kmodel.kernel.ViolationKind;
import kmodel.mm.FilemapBugs;
import kmodel.mm.MmOptions;

/**
 * The catalog of real (and textbook) bugs that can be switched back in with {@code --bug ID}.
 * Each entry names the scenario that exposes it, the kind the checker must report and a
 * distinctive part of its message; tests check every entry (BugCatalogModelCheck): switched in,
 * the bug fails its scenario with that kind and message; its implied settings without it pass.
 */
public final class BugCatalog {
    /** textbook: test the condition, then sleep without having set the task state first. */
    public static final String TEXTBOOK_CHECK_THEN_SLEEP = "textbook-check-then-sleep";
    /** textbook: one put_ too many. */
    public static final String TEXTBOOK_DOUBLE_PUT = "textbook-double-put";
    /** textbook: a get without its put. */
    public static final String TEXTBOOK_FORGOTTEN_PUT = "textbook-forgotten-put";
    /** textbook: schedule() with a spinlock held. */
    public static final String TEXTBOOK_SLEEP_HOLDING_SPINLOCK = "textbook-sleep-holding-spinlock";

    private BugCatalog() {
    }

    private static CatalogBug bug(String id, String origin, String scenario, ViolationKind kind, String signature,
            String description) {
        return new CatalogBug(id, origin, scenario, kind, signature, description, ImmutableMap.of());
    }

    private static CatalogBug bug(String id, String origin, String scenario, ViolationKind kind, String signature,
            String description, KconfigOption opt, long value) {
        return new CatalogBug(id, origin, scenario, kind, signature, description, ImmutableMap.of(opt, value));
    }

    /** Every catalog entry, in a stable order. */
    public static List<CatalogBug> all() {
        ImmutableList.Builder<CatalogBug> b = ImmutableList.builder();
        b.add(bug(TEXTBOOK_CHECK_THEN_SLEEP, "textbook (LDD3 ch. 6, \"the lost wakeup\")", "textbook-waitqueue",
                ViolationKind.MISSED_WAKEUP, "sleeps in TASK_UNINTERRUPTIBLE waiting on q (cond)",
                "waiter tests the condition before prepare_to_wait(): the wake-up falls between"));
        b.add(bug(TEXTBOOK_DOUBLE_PUT, "textbook (Documentation/core-api/kref.rst)", "textbook-refcount",
                ViolationKind.DOUBLE_RELEASE, "refcount_t obj.ref: underflow", "a user drops its reference twice"));
        b.add(bug(TEXTBOOK_FORGOTTEN_PUT, "textbook (Documentation/core-api/kref.rst)", "textbook-refcount",
                ViolationKind.REF_LEAK, "object obj holds 1 reference(s) at the end",
                "a user takes a reference and never drops it"));
        b.add(bug(TEXTBOOK_SLEEP_HOLDING_SPINLOCK, "textbook (\"BUG: sleeping function called from invalid context\")",
                "textbook-refcount", ViolationKind.LOCK_LEAK, "releaser called schedule() holding 1 spinlock(s)",
                "the releaser waits for the last user with the lookup lock held"));
        b.add(bug(FilemapBugs.ASYNC_WAIT_CHECK_BEFORE_ADD,
                "async buffered reads v1, 20200522202311.10959-4-axboe@kernel.dk (fixed in v2)", "read-same-page-waitq",
                ViolationKind.MISSED_WAKEUP, "waiting on task_work from uring.wpq (page-unlock callback)",
                "__wait_on_page_locked_async tests the lock before queueing and setting PG_waiters"));
        b.add(bug(FilemapBugs.ASYNC_LOCK_NOT_TRYLOCK,
                "async buffered reads v1, 20200522202311.10959-4-axboe@kernel.dk (fixed in v2)", "async-page-lock",
                ViolationKind.BUG_ON, "VM_BUG_ON_PAGE(!PageLocked(page)) page P0",
                "__lock_page_async reports 'locked' for a merely unlocked page"));
        b.add(bug(FilemapBugs.ASYNC_PAGE_MATCH_NOT_SET,
                "async buffered reads v1, 20200522202311.10959-12-axboe@kernel.dk (fixed in v2)", "async-page-lock",
                ViolationKind.MISSED_WAKEUP, "waiting on task_work from aio.wpq (page-unlock callback)",
                "io_async_buf_func never sets key->page_match; PG_waiters is cleared under it"));
        b.add(bug(FilemapBugs.EXCLUSIVE_WAIT_SIGNAL_FIRST,
                "undoes a8b169afbf06 (\"mm: Avoid page waitqueue race leaving possible page locker waiting\"), v5.7 protocol",
                "page-lock-killable", ViolationKind.MISSED_WAKEUP,
                "locker sleeps in TASK_UNINTERRUPTIBLE waiting on locker.wait_page",
                "v5.7 exclusive killable waiter checks the signal before taking the bit", MmOptions.PAGE_WAIT_V57, 1));
        b.add(bug(FilemapBugs.HANDOFF_FORGETS_DONE,
                "mutation of 5ef64cc8987a (\"mm: allow a controlled amount of unfairness in the page lock\")",
                "page-lock-killable", ViolationKind.MISSED_WAKEUP,
                "locker sleeps in TASK_UNINTERRUPTIBLE waiting on locker.wait_page",
                "the waker takes the bit for a hand-off waiter but does not set WQ_FLAG_DONE", MmOptions.PAGE_LOCK_UNFAIRNESS, 0));
        /*
         * Found as use-after-free of P0 on writeback-free-reuse while pages were freed objects. A
         * struct page is never freed: the belated wake-up reaches the page's next incarnation, and
         * what that does is the BUG_ON(PageWriteback) of the commit's title, given the single if
         * in wait_on_page_writeback() that the kernels with this bug had (c2407cf7d22d is v5.11).
         */
        b.add(new CatalogBug(FilemapBugs.END_WRITEBACK_NO_PAGE_REF,
                "undoes 073861ed77b6 (\"mm: fix VM_BUG_ON(PageTail) and BUG_ON(PageWriteback)\"), v5.10-rc6",
                "writeback-reuse-rewrite", ViolationKind.BUG_ON, "write_cache_pages: BUG_ON(PageWriteback(",
                "end_page_writeback wakes without a page reference; the page is freed, reused and under writeback again, its waiter woken early",
                ImmutableMap.of(), ImmutableList.of(FilemapBugs.WAIT_ON_PAGE_WRITEBACK_ONCE)));
        b.add(bug(FilemapBugs.PAGE_ENDIO_UNLOCK_FIRST,
                "mutation of page_endio() (mm/filemap.c, v5.10): unlock_page() before SetPageUptodate()",
                "read-truncate-reuse", ViolationKind.PAGE_FLAGS_CORRUPTED, "page_endio through a stale pointer to P0 set PG_uptodate",
                "the read completion marks the page uptodate after unlocking it; truncation has freed it and a read reused it"));
        b.add(bug(FilemapBugs.ADD_TO_PAGE_CACHE_EEXIST_REF_LEAK,
                "mutation of __add_to_page_cache_locked()'s -EEXIST path (v5.10)", "read-same-page",
                ViolationKind.REF_LEAK, "page P0 holds 1 reference(s) at the end",
                "the losing copy of a page-cache insertion race keeps the cache's reference"));
        b.add(bug(FilemapBugs.WAKE_PAGE_MATCH_NOT_SET,
                "mutation of wake_page_match() (c7510ab2cf5c): the v1 page_match mistake in the shared helper",
                "page-wait-collisions", ViolationKind.MISSED_WAKEUP,
                "wait-lock0 sleeps in TASK_UNINTERRUPTIBLE waiting on wait-lock0.wait_page for P0 bit 0",
                "a walk for one bit clears PG_waiters while a waiter for another bit of the page is queued"));
        b.add(bug(FilemapBugs.WAIT_ON_PAGE_WRITEBACK_ONCE,
                "undoes c2407cf7d22d (\"mm: make wait_on_page_writeback() wait for multiple pending writebacks\"), v5.11-rc3 (5.10.7)",
                "fsync-redirty", ViolationKind.DATA_CORRUPTION, "older than the v2 it had to write",
                "a wake-up left over from an earlier writeback ends the wait for the next one"));
        b.add(bug(FilemapBugs.END_PAGE_WRITEBACK_NO_WAKE,
                "mutation of end_page_writeback() (v5.10): PG_writeback cleared without wake_up_page()",
                "truncate-writeback", ViolationKind.MISSED_WAKEUP, "for P0 bit 15",
                "a task waiting for writeback to end is never woken"));
        b.add(bug(FilemapBugs.WRITE_CACHE_PAGES_NO_MAPPING_RECHECK,
                "mutation of write_cache_pages() (v5.10): no page->mapping recheck after lock_page()",
                "truncate-writeback-pinned", ViolationKind.BUG_ON, "page->mapping is NULL",
                "a truncated page redirtied through a pin reaches ->writepage with page->mapping == NULL"));
        b.add(bug(FilemapBugs.TRUNCATE_PAGECACHE_BEFORE_ISIZE,
                "mutation of truncate_setsize() (v5.10): truncate_pagecache() before i_size_write()",
                "truncate-read", ViolationKind.DATA_CORRUPTION, "lies past i_size",
                "a racing read instantiates a page past the new end that truncation never removes"));
        b.add(bug(FilemapBugs.NOWAIT_WAITS_FOR_PAGE,
                "mutation of generic_file_buffered_read() (v5.10): no IOCB_NOWAIT test before wait_on_page_locked_killable()",
                "nowait-readahead", ViolationKind.BLOCKED_IN_NOWAIT,
                "inside a non-blocking attempt (generic_file_buffered_read with IOCB_NOWAIT)",
                "an IOCB_NOWAIT read that finds its page not uptodate sleeps on the page lock instead of returning -EAGAIN"));
        b.add(bug(BlockBugs.BIO_SPLIT_ADVANCES_SECTOR_ONLY,
                "mutation of bio_split() (block/bio.c), reached through blk_queue_split() under queue limits",
                "dio-split-queue-limits", ViolationKind.DATA_CORRUPTION, "of sda read as",
                "the split-off remainder moves bi_sector and bi_size but not its place in the bvec table"));
        b.add(bug(BlockBugs.BIO_TRIM_RELIES_ON_BI_VCNT,
                "mutation of bio_trim() (block/bio.c): md_trim_bio()'s body from before immutable biovecs (drivers/md/md.c, v3.1 to v3.13), on a fast clone",
                "dio-split-clones", ViolationKind.DATA_CORRUPTION, "byte 1024 of sda read as",
                "the trim walks bi_io_vec[bi_idx..bi_vcnt): a fast clone's bi_vcnt is 0, so its window keeps the parent's place in the table"));
        b.add(bug(BlockBugs.SBQ_WAIT_NOT_COUNTED,
                "mutation of sbitmap_prepare_to_wait() (lib/sbitmap.c, v5.10), after \"blk-mq: fix sbitmap ws_active for shared tags\" (v5.1)",
                "tag-waiters", ViolationKind.MISSED_WAKEUP, "r1 sleeps in TASK_UNINTERRUPTIBLE waiting on a request tag of sda",
                "a tag waiter queues without atomic_inc(&ws_active): sbq_wake_ptr() sees no waiters and frees wake nobody"));
        b.add(bug(BtrfsBugs.PAGEPOOL_DOUBLE_RELEASE,
                "mutation of seed 000's pagepool loop (67c9684f48ea): the losing page released twice", "btrfs-2-readers-1page",
                ViolationKind.DOUBLE_RELEASE, "on a free page",
                "the add_to_page_cache_lru() failure path releases the page and the loop's tail releases it again",
                BtrfsOptions.BTRFS_READPAGES, BtrfsOptions.READPAGES_PAGEPOOL));
        b.add(bug(BtrfsBugs.PAGEPOOL_LEAK,
                "mutation of seed 000's pagepool flush loop (67c9684f48ea)", "btrfs-2-readers-1page",
                ViolationKind.REF_LEAK, "reference(s) at the end, expected 1 (page cache)",
                "a pooled page is read but its read-ahead reference is never released",
                BtrfsOptions.BTRFS_READPAGES, BtrfsOptions.READPAGES_PAGEPOOL));
        b.add(bug(BtrfsBugs.ENDIO_SKIP_OFFSET,
                "undoes 38c1c2e44bac (\"Btrfs: fix crash on endio of reading corrupted block\"), v3.17",
                "btrfs-raid1-bad-mirror", ViolationKind.BUG_ON, "read repair gave up on",
                "end_bio_extent_readpage goes on after a repair without offset += len: later blocks meet the wrong csums"));
        b.add(bug(BtrfsBugs.READPAGE_ERROR_KEEPS_LOCK,
                "mutation of btrfs_do_readpage()'s error path (v5.10; __do_readpage() before)", "btrfs-bio-alloc-fail",
                ViolationKind.MISSED_WAKEUP, "waiting on t1.wait_page for P1 bit 0",
                "a page whose submit_extent_page() failed is marked PG_error but never unlocked"));
        b.add(bug(BtrfsBugs.PREV_EM_ORIG_START,
                "undoes 8e928218780e (\"Btrfs: fix corruption reading shared and compressed extents after hole punching\"), v5.1",
                "btrfs-punch-compressed-shared", ViolationKind.DATA_CORRUPTION, "byte 12288 of f read as 0",
                "prev_em_start keeps em->orig_start: a hole's map and the next shared compressed range's look the same"));
        b.add(bug(BtrfsBugs.CLONE_FIRST_BVEC,
                "undoes seed 001's bi_vcnt fix-up in dio_read_error() (v4.12 text: failed_bio->bi_vcnt, bi_io_vec[0])",
                "btrfs-dio-raid1-repair", ViolationKind.BUG_ON, "bio_first_bvec_all() on cloned",
                "the repair decision reads bi_io_vec[0] of a failed piece, a fast clone sharing the whole dio's table"));
        b.add(bug(BtrfsBugs.DIO_REPAIR_EARLY_RETURN,
                "undoes seed 001 patch 5 (\"Btrfs: record error if one block has failed to retry\", v4.13)",
                "btrfs-dio-raid1-eio", ViolationKind.WRONG_RESULT, "has a good copy but did not reach",
                "the direct-read repair loop returns at the first unrepairable block; later blocks are never retried"));
        b.add(bug(BtrfsBugs.DIO_PENDING_AFTER_SUBMIT,
                "mutation of the order btrfs_submit_direct_hook() comments on (\"inc the count before we submit the bio\")",
                "btrfs-dio-raid0-read", ViolationKind.USE_AFTER_FREE, "touched after it was freed",
                "a split piece is counted in dip->pending_bios after it is submitted; its completion can end orig_bio early"));
        b.add(bug(IoUringBugs.URING_NO_REQ_REF,
                "mutation of io_async_buf_func() (fs/io_uring.c v5.10): no refcount_inc(&req->refs) (\"submit ref gets dropped, acquire a new one\")",
                "uring-exit-armed", ViolationKind.DOUBLE_RELEASE, "refcount_t uring.ring.r0.refs: underflow",
                "the task_work retry completes the request, frees it, and drops a submission reference it no longer has"));
        b.add(bug(IoUringBugs.URING_NO_CTX_REF,
                "undoes 6d816e088c35 (\"io_uring: hold 'ctx' reference around task_work queue + execute\"), v5.9-rc",
                "uring-close-taskwork", ViolationKind.USE_AFTER_FREE, "io_ring_ctx uring.ring touched after it was freed",
                "a retry queued after the ring was closed drops the last ctx reference, the exit work frees the ring, the retry unlocks uring_lock in it"));
        b.add(bug(IoUringBugs.URING_CANCEL_LEAKS_CTX_REF,
                "mutation of io_req_task_cancel() (fs/io_uring.c v5.10): the ctx reference is not dropped",
                "uring-exit-armed", ViolationKind.MISSED_WAKEUP, "waiting on completion uring.ring.ref_comp",
                "a request cancelled for an exiting task keeps a ctx reference: ref_comp never completes, the ring is never freed"));
        b.add(bug(IoUringBugs.IOWQ_REFS_PER_NODE,
                "undoes c4068bf898dd (\"io-wq: fix use-after-free in io_wq_worker_running\"), v5.10-rc1",
                "uring-wq-exit", ViolationKind.DOUBLE_RELEASE, "refcount_t uring.ring-wq.refs: underflow",
                "the last old worker completes wq->done while the manager still creates a worker; io_wq_destroy() frees the io_wq under it"));
        b.add(bug(FilemapBugs.READAHEAD_NOMEM_DROPS_BATCH,
                "mutation of page_cache_ra_unbounded()'s allocation-failure path (mm/readahead.c, v5.10): return, not break to read_pages()",
                "fault-read-nomem", ViolationKind.MISSED_WAKEUP, "r01 sleeps in TASK_KILLABLE waiting on r01.wait_page for P0 bit 0",
                "with fail_page_alloc, a read-ahead whose second allocation fails leaves the first page locked in the cache, never read"));
        b.add(bug(BlockBugs.ASYNC_WRITE_ERROR_NOT_RECORDED,
                "mutation of end_buffer_async_write()'s error path (fs/buffer.c, v5.10): no mapping_set_error()",
                "fault-write-eio", ViolationKind.DATA_CORRUPTION, "fsync returned 0 with a page behind on the device",
                "with fail_make_request, a lost async page write is never reported: fsync returns 0 with the page not on the device"));
        return b.build();
    }

    private static CatalogBug barrierBug(String id, String origin, String scenario, ViolationKind kind,
            String signature, String description) {
        return new CatalogBug(id, origin, scenario, kind, signature, description, ImmutableMap.of(),
                CatalogBug.LKMM);
    }

    private static CatalogBug barrierBug(String id, String origin, String scenario, ViolationKind kind,
            String signature, String description, KconfigOption opt, long value) {
        return new CatalogBug(id, origin, scenario, kind, signature, description, ImmutableMap.of(opt, value),
                CatalogBug.LKMM);
    }

    /**
     * The barrier bugs: real historical missing-barrier or wrong-ordering bugs of the modelled
     * code, each a switch that restores the code before its fix (the barrier left out, or the
     * weaker ordering), in the function the model has (the origin says where the kernel had it
     * when that differs). Under sequential consistency, the default memory model, a barrier is a
     * no-op, so none of them is found: {@code BarrierBugsModelCheck} asserts that. They are found
     * only under the LKMM ({@code --memory-model lkmm}, issue 20); each entry names the scenario
     * that reaches the site and the kind the checker should report there. Not part of
     * {@link #all()}, whose every entry the sequentially consistent search must find.
     */
    public static List<CatalogBug> barrierBugs() {
        ImmutableList.Builder<CatalogBug> b = ImmutableList.builder();
        b.add(barrierBug(BlockBugs.SBQ_CLEAR_NO_MB_AFTER_ATOMIC,
                "undoes c38d185d4af1 (\"blk-mq: Fix a race between bt_clear_tag() and bt_get()\"), v3.19-rc (3.18.3): in sbitmap_queue_clear() (v5.10)",
                "tag-waiters", ViolationKind.MISSED_WAKEUP, "waiting on a request tag of",
                "the freed tag and the waiter's queueing are both missed: no smp_mb__after_atomic() between set_bit() and the ws_active/waitqueue_active() look"));
        b.add(barrierBug(FilemapBugs.PAGE_UPTODATE_NO_BARRIERS,
                "undoes 0ed361dec369 (\"mm: fix PageUptodate data race\"), after v2.6.24: SetPageUptodate()/PageUptodate() (v5.10)",
                "read-same-page", ViolationKind.DATA_CORRUPTION, "of sda read as",
                "a reader sees PG_uptodate before the page's contents: no smp_wmb() in SetPageUptodate(), no smp_rmb() in PageUptodate()"));
        b.add(barrierBug(IoUringBugs.CQ_EV_POSTED_NO_MB,
                "the bug c57a91fb1ccf (\"io_uring: fix missing mb() before waitqueue_active\", v5.15-rc1) fixed in io_cqring_ev_posted_iopoll(), in io_cqring_ev_posted() (v5.10)",
                "uring-read-nonowait-dev", ViolationKind.MISSED_WAKEUP, "(io_cqring_wait)",
                "the CQ tail published by an io-wq worker and the waiter's queueing are both missed: no smp_mb() before waitqueue_active(&ctx->wait)"));
        b.add(barrierBug(FilemapBugs.PAGE_WAIT_LIST_DEL_NOT_CAREFUL,
                "undoes c6fe44d96fc1 (\"list: add \"list_del_init_careful()\" to go with \"list_empty_careful()\"\"), v5.8: 2a9127fcf229's wake_page_function()/finish_wait()",
                "page-lock-killable", ViolationKind.BUG_ON,
                "VM_BUG_ON_PAGE(!PageLocked(page))",
                "a killed locker finds its entry unlinked (plain list_empty_careful()) and reads wait->flags unordered: it sees WQ_FLAG_DONE"
                        + " but not the PG_locked the waker took for it, and its unlock_page() hits VM_BUG_ON_PAGE(!PageLocked(page));"
                        + " the same reordering could also hide WQ_FLAG_DONE (-EINTR, the page left locked); the search reports the VM_BUG_ON",
                MmOptions.PAGE_LOCK_UNFAIRNESS, 0));
        return b.build();
    }

    /** The entry with {@code id} in {@link #all()} or {@link #barrierBugs()}, or null. */
    public static CatalogBug find(String id) {
        for (CatalogBug b : all()) {
            if (b.id().equals(id)) {
                return b;
            }
        }
        for (CatalogBug b : barrierBugs()) {
            if (b.id().equals(id)) {
                return b;
            }
        }
        return null;
    }
}
