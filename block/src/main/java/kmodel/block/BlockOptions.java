package kmodel.block;

import kmodel.kernel.KconfigOption;

/** Kconfig options read by the block module. */
public final class BlockOptions {
    private BlockOptions() {
    }

    /**
     * Seed 002 patch 01, "block: read-ahead submission should imply no-wait as well":
     * {@code #define REQ_RAHEAD ((1ULL << __REQ_RAHEAD) | (1ULL << __REQ_NOWAIT))}. With y (the
     * seed patch applied; profile {@code seed-002}) every read-ahead bio is also
     * {@code REQ_NOWAIT}: it fails with {@code BLK_STS_AGAIN} instead of sleeping for a request
     * tag, and with {@code BLK_STS_NOTSUPP} on a queue without {@code QUEUE_FLAG_NOWAIT}.
     *
     * <p>With n (the default: v5.10's include/linux/blk_types.h), {@code REQ_RAHEAD} is the single
     * bit, as in the merged v5.9/v5.10 code: the patch was dropped after Sedat Dilek reported boot
     * slow-downs, and the merged series instead marks bios {@code REQ_NOWAIT} through the
     * submitter's plug (f44268f81295 "block: provide plug based way of signaling forced no-wait
     * semantics", used by io_uring) (KERNEL-NOTES A.10) ({@link BlkPlug}). Read through
     * {@link BlkTypes#reqRahead()}.
     *
     * <p>Only profile {@code seed-002} sets y ({@code kmodel.verification.Profiles}); the declared
     * n is the default profile's (v5.10.y) value, so a run without {@code --kernel} (swarm, fio,
     * bench, {@code Kconfig.defaults()}) models v5.10 here too. Seed 002's reproduction sets y
     * itself ({@code kmodel.sim.Reproduction#seed002}).
     */
    public static final KconfigOption REQ_RAHEAD_NOWAIT = KconfigOption.bool("REQ_RAHEAD_NOWAIT", false,
            "seed 002 patch 01 (never merged): REQ_RAHEAD implies REQ_NOWAIT (n: v5.10 form, REQ_RAHEAD alone)");

    /**
     * include/linux/sbitmap.h: {@code SBQ_WAIT_QUEUES}, the tag wait queues of an
     * {@code sbitmap_queue} (kernel: 8). A model-scaling knob like {@code PAGE_WAIT_TABLE_SIZE}:
     * smaller values (1, 2 or 4) keep {@code sbq_calc_wake_batch()}'s
     * {@code wake_batch = clamp(depth / SBQ_WAIT_QUEUES, 1, 8)} above 1 at depths small enough to
     * explore (one queue: depth 2 gives {@code wake_batch = 2}; the kernel needs depth 16).
     */
    public static final KconfigOption SBQ_WAIT_QUEUES = KconfigOption.integer("SBQ_WAIT_QUEUES", 8, 1, 8,
            "tag wait queues per sbitmap_queue, 1, 2, 4 or 8 (kernel: 8); wake_batch = clamp(depth / this, 1, 8)");

    /**
     * 72d04bdcf3f7 ("sbitmap: fix io hung due to race on sbitmap_word::cleared", v6.11-rc1), not in
     * v5.10 (default n): {@code sbitmap_deferred_clear()} with nothing in {@code cleared} tells
     * the allocator to retry the word if it has a free bit, instead of giving up on it. Without
     * it a tag waiter can sleep next to a free tag that a concurrent allocator just moved back,
     * and stay asleep when {@code wake_batch > 1}: scenario {@code finding-sbitmap-cleared-race}
     * shows it on v5.10; {@code tag-waiters-batch} sets the option and passes. See
     * {@link SbitmapQueue#sbitmapDeferredClear}.
     */
    public static final KconfigOption SBITMAP_CLEARED_RACE_FIX = KconfigOption.bool("SBITMAP_CLEARED_RACE_FIX", false,
            "72d04bdcf3f7 (v6.11-rc1): sbitmap_deferred_clear() retries a word with free bits (n: v5.10, a tag waiter can be stranded)");

    /**
     * Fault injection {@code fail_make_request} (block/blk-core.c {@code should_fail_bio()} in
     * {@code submit_bio_checks()}, lib/fault-inject.c {@code should_fail()};
     * {@link kmodel.kernel.FaultInject}): at most N bios fail at submission with
     * {@code BLK_STS_IOERR} in an execution, each submission a data choice of the checker
     * ({@code times=N}), as if every disk's {@code make-it-fail} were 1. 0: off.
     */
    public static final KconfigOption FAIL_MAKE_REQUEST = KconfigOption.integer("FAIL_MAKE_REQUEST", 0, 0, 1000,
            "fault injection, block/blk-core.c should_fail_bio(): at most N submitted bios end with BLK_STS_IOERR (each a checker choice; 0 off)");

    /** Every option of this module. */
    public static KconfigOption[] all() {
        return new KconfigOption[] {REQ_RAHEAD_NOWAIT, SBQ_WAIT_QUEUES, SBITMAP_CLEARED_RACE_FIX, FAIL_MAKE_REQUEST};
    }
}
