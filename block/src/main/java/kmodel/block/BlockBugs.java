package kmodel.block;

/**
 * Catalog bugs of the block module, switched in with {@code Kconfig.withBug(id)} (CLI:
 * {@code --bug ID}) and read with {@code Kernel.bug(id)}.
 */
public final class BlockBugs {
    /**
     * A mutation of {@code bio_split()} (block/bio.c): the remainder is moved past the split by
     * hand, {@code bi_sector} and {@code bi_size} only, instead of with {@code bio_advance()}; its
     * position in the shared bvec table ({@code bi_idx}, {@code bi_bvec_done}) stays where the
     * split starts. The remainder then transfers the sectors after the split to or from the
     * split's memory. {@code __blk_queue_split()} splits a bio this way when it exceeds the
     * queue's {@code max_sectors} or {@code max_segments}. Manifests as {@code data-corruption}.
     */
    public static final String BIO_SPLIT_ADVANCES_SECTOR_ONLY = "bio-split-advances-sector-only";

    /**
     * A tag waiter that does not count itself in {@code ws_active}: {@code sbitmap_prepare_to_wait()}
     * (lib/sbitmap.c) queues it without the {@code atomic_inc(&sbq->ws_active)}, so
     * {@code sbq_wake_ptr()} sees no waiters and frees wake nobody. The shape of the bug fixed in
     * v5.1 by "blk-mq: fix sbitmap ws_active for shared tags" (Jens Axboe, 2019), where
     * {@code blk_mq_mark_tag_wait()} queued the dispatch wait entry on a tag wait queue without
     * counting it; here it is moved to the allocator's own waiter. Manifests as {@code missed-wakeup}.
     */
    public static final String SBQ_WAIT_NOT_COUNTED = "sbq-wait-not-counted";

    /**
     * {@code bio_trim()} (block/bio.c) with the body it had before immutable biovecs, as
     * {@code md_trim_bio()} (drivers/md/md.c, v3.1 to v3.13) for md's clones that owned their
     * table: move {@code bi_sector} and {@code bi_size}, then cut the table itself, walking
     * {@code bi_io_vec[bi_idx..bi_vcnt)}. A fast clone ({@code bio_clone_fast()}, v3.14) shares
     * its parent's table and keeps {@code bi_vcnt == 0} ("should not be looked at or relied upon by
     * code that does not own the bio"), so on it the walk does nothing: a clone trimmed to a window
     * that does not start at the parent's first byte keeps the parent's position in the table and
     * transfers the window's sectors to or from the start of the parent's memory. Seed 001's
     * {@code btrfs_bio_clone_partial()} trims fast clones so. Manifests as {@code data-corruption}.
     */
    public static final String BIO_TRIM_RELIES_ON_BI_VCNT = "bio-trim-relies-on-bi-vcnt";

    /**
     * A barrier bug (found only under a weak memory model, not under sequential consistency):
     * {@code sbitmap_queue_clear()} (lib/sbitmap.c, v5.10) without the {@code smp_mb__after_atomic()}
     * between freeing the bit ({@code set_bit()} into {@code cleared}, an unordered RMW) and the
     * lockless look at the waiters ({@code atomic_read(&ws_active)}, {@code waitqueue_active()}).
     * The waker's look may then be satisfied before its free is visible, while the waiter, which
     * queued itself and ran {@code set_current_state()} (a full barrier) before its last try at
     * the bitmap, still sees the bit taken: it sleeps and nobody wakes it (store buffering). The
     * bug c38d185d4af1 ("blk-mq: Fix a race between bt_clear_tag() and bt_get()", Bart Van
     * Assche, Cc: stable v3.13+; in v3.19-rc after v3.18, and in 3.18.3) fixed in {@code bt_clear_tag()}, which had
     * {@code clear_bit_unlock()} and no barrier before {@code bt_wake_ptr()}: "clear_bit_unlock()
     * does not prevent that the wait lists are examined before that the tag bit is cleared".
     * Manifests as {@code missed-wakeup} (scenario {@code tag-waiters}) under the LKMM.
     */
    public static final String SBQ_CLEAR_NO_MB_AFTER_ATOMIC = "sbq-clear-no-mb-after-atomic";

    private BlockBugs() {
    }

    /**
     * A mutation of {@code end_buffer_async_write()}'s error path (fs/buffer.c, v5.10): a lost
     * async page write is logged and marks the page {@code PG_error}, but
     * {@code mark_buffer_write_io_error()} forgets {@code mapping_set_error()}, so no later
     * {@code fsync} hears of it. Reached only with fault injection ({@code FAIL_MAKE_REQUEST}).
     * Manifests as {@code data-corruption} (an fsync returns 0 with its page not on the device)
     * or {@code wrong-result} (the error is lost).
     */
    public static final String ASYNC_WRITE_ERROR_NOT_RECORDED = "async-write-error-not-recorded";

    /** Every bug id of this module. */
    public static String[] all() {
        return new String[] {BIO_SPLIT_ADVANCES_SECTOR_ONLY, SBQ_WAIT_NOT_COUNTED, BIO_TRIM_RELIES_ON_BI_VCNT,
            SBQ_CLEAR_NO_MB_AFTER_ATOMIC, ASYNC_WRITE_ERROR_NOT_RECORDED};
    }
}
