/**
 * block/, include/linux/{bio,bvec,blk_types,blkdev,blk-mq}.h and lib/sbitmap.c (v5.10, with the
 * v4.13 clone helpers of seed 001): bios, bvec iteration, clone/trim/split, {@code submit_bio()},
 * request tags, and a simulated disk whose completions run in interrupt context.
 *
 * <h2>Where things are</h2>
 * <ul>
 *   <li>{@link kmodel.block.Bio}: {@code struct bio} and the inline helpers of bio.h (flags,
 *       {@code bio_get}, {@code bio_for_each_segment}, {@code bio_for_each_segment_all}, ...).</li>
 *   <li>{@link kmodel.block.BlockBio}: block/bio.c ({@code bio_alloc_bioset}, {@code bio_put},
 *       {@code bio_add_page}, {@code bio_clone_fast}, {@code bio_clone_bioset} (v4.13),
 *       {@code bio_trim}, {@code bio_split}, {@code bio_chain}, {@code bio_endio},
 *       {@code submit_bio_wait}).</li>
 *   <li>{@link kmodel.block.Bvec}, {@link kmodel.block.BvecIter}, {@link kmodel.block.BioVec}:
 *       include/linux/bvec.h.</li>
 *   <li>{@link kmodel.block.BlkTypes}, {@link kmodel.block.BlockOptions}: blk_types.h constants
 *       and seed 002 patch 01 ({@code REQ_RAHEAD} implies {@code REQ_NOWAIT}).</li>
 *   <li>{@link kmodel.block.BlkCore} (blk-core.c), {@link kmodel.block.BlkMq} (blk-mq.c),
 *       {@link kmodel.block.BlkMqTag} (blk-mq-tag.c), {@link kmodel.block.SbitmapQueue}
 *       (lib/sbitmap.c), {@link kmodel.block.BlkMerge} (blk-merge.c).</li>
 *   <li>{@link kmodel.block.Disk}: the simulated device and driver; {@link kmodel.block.DiskStats}
 *       its counters; {@link kmodel.block.BioChecks} the invariant checker.</li>
 * </ul>
 *
 * <h2>Locks (outer to inner)</h2>
 * <pre>
 *   sbitmap ws[i].wait.lock      (tag wait queues: prepare_to_wait_exclusive / __wake_up)
 *   sbitmap map[i].swap_lock     (sbitmap_deferred_clear; nothing nests in it but atomics)
 *   completion wait.lock         (submit_bio_wait: complete / wait_for_completion_io)
 * </pre>
 * No block-layer lock nests inside another, and none is held across {@code schedule()}. A bio
 * is handed from owner to owner (builder, block layer, driver, end_io) and needs no lock;
 * {@code __bi_cnt}, {@code __bi_remaining}, the tag bitmap ({@code word}, {@code cleared}),
 * {@code ws_active}, {@code wake_index} and each {@code wait_cnt} are atomics.
 * {@code bi_end_io} runs in interrupt context (the disk's completion task) or, for early failures
 * ({@code BLK_STS_AGAIN}, {@code BLK_STS_NOTSUPP}, end of device), in the submitter's context.
 *
 * <h2>Limitations</h2>
 * <ul>
 *   <li>No physical addresses: only ranges of the same page merge in {@code bio_add_page()}, so
 *       multi-page bvecs never form (one bvec per page, as before v5.1).</li>
 *   <li>One request per bio: no plug/elevator merging, no I/O scheduler, one hardware queue.
 *       The task's plug ({@link kmodel.block.BlkPlug}) is modelled only for its {@code nowait}
 *       (f44268f81295, the merged replacement of seed 002 patch 01); it holds no requests. Nor
 *       is {@code current->bio_list} modelled beyond
 *       {@code __blk_queue_split()} (a bio submitted from an end_io running synchronously inside
 *       {@code submit_bio()} recurses instead of being queued).</li>
 *   <li>Tags: {@code lib/sbitmap.c} as in v5.10 (words of {@code 1 << shift} bits, deferred
 *       clears, {@code SBQ_WAIT_QUEUES} wait queues woken in batches of {@code wake_batch}), but
 *       the per-cpu allocation hint is always 0, no round-robin or shallow allocation, no resize;
 *       {@code SBQ_WAIT_QUEUES} can be scaled down by Kconfig ({@code SBQ_WAIT_QUEUES=1, 2, 4}) so
 *       that {@code wake_batch > 1} appears at small depths. One hardware context; no reserved,
 *       scheduler or shared tags; drivers never return a busy status.</li>
 *   <li>Devices ({@link kmodel.block.DiskKind}): {@code REQ_NOWAIT} supported, not supported
 *       (v5.10's bio-based queues, stood for by a blk-mq queue without {@code QUEUE_FLAG_NOWAIT}),
 *       or failed with {@code BLK_STS_AGAIN} at completion by the driver.</li>
 *   <li>Allocation never fails (bioset mempools; no GFP flags). No integrity, crypto, cgroups,
 *       throttling, partitions, zoned devices or polling.</li>
 *   <li>Queue limits: {@code max_sectors} and {@code max_segments}; segment size is at least a
 *       page, no virt boundary, 512-byte logical and physical blocks.</li>
 *   <li>Injected errors fail reads only; a failing request transfers the sectors before the bad
 *       one and then fails whole.</li>
 *   <li>{@link kmodel.block.DiskStats} is updated with plain increments (exact under the
 *       deterministic runtime, approximate under the free-running one).</li>
 * </ul>
 */
package kmodel.block;
