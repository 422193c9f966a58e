package kmodel.block;

import kmodel.kernel.atomic.AtomicT;
import kmodel.kernel.atomic.Bitops;
import kmodel.kernel.atomic.FlagsWord;

/**
 * include/linux/blkdev.h: {@code struct request_queue} (v5.10) of a blk-mq device with one
 * hardware queue: flags, limits, the tag set ({@code nr_requests} tags, each with its
 * preallocated {@link Request}), the bio set used for splitting, and the driver's ops.
 *
 * <p>Field rules: {@code queueFlags} through atomic bit ops; {@code limits} and {@code mqOps}
 * are set up before any I/O and then only read.
 */
public final class RequestQueue {
    /**
     * include/linux/blkdev.h: {@code QUEUE_FLAG_NOWAIT} (v5.10). "device supports NOWAIT", added by
     * 021a24460dc2 (v5.10-rc1). v5.10's {@code submit_bio_checks()} fails a {@code REQ_NOWAIT} bio with
     * {@code BLK_STS_NOTSUPP} when {@code !blk_queue_nowait(q)}; blk-mq queues have the flag, a
     * bio-based queue (device mapper, md, ...) only if its driver sets it. Set, the queue is a
     * blk-mq queue; clear, it answers {@code REQ_NOWAIT} as a bio-based queue without the flag
     * does (the model still serves its other bios through blk-mq). See {@link DiskKind}.
     */
    public static final int QUEUE_FLAG_NOWAIT = 29;
    /** include/linux/blkdev.h: {@code BLK_DEF_MAX_SECTORS}. */
    public static final int BLK_DEF_MAX_SECTORS = 2560;
    /** include/linux/blkdev.h: {@code BLK_MAX_SEGMENTS}. */
    public static final int BLK_MAX_SEGMENTS = 128;

    /** include/linux/blkdev.h: {@code struct queue_limits}, the parts the split uses. */
    public static final class QueueLimits {
        /** {@code max_sectors}. */
        public int maxSectors = BLK_DEF_MAX_SECTORS;
        /** {@code max_segments}. */
        public int maxSegments = BLK_MAX_SEGMENTS;
        /** {@code logical_block_size}. */
        public int logicalBlockSize = BlkTypes.SECTOR_SIZE;
    }

    /** block/blk-mq-tag.h: {@code struct blk_mq_tags}. */
    public static final class BlkMqTags {
        /** {@code nr_tags}. */
        public final int nrTags;
        /** {@code bitmap_tags}. */
        public final SbitmapQueue bitmapTags;
        /** {@code static_rqs}: one request per tag. */
        final Request[] staticRqs;

        BlkMqTags(RequestQueue q, int nrTags) {
            this.nrTags = nrTags;
            this.bitmapTags = new SbitmapQueue(q.name + ".tags", nrTags);
            this.staticRqs = new Request[nrTags];
            for (int i = 0; i < nrTags; i++) {
                staticRqs[i] = new Request(q, i);
            }
        }
    }

    final String name;
    /** {@code queue_flags}. */
    public final FlagsWord queueFlags;
    /** {@code limits}. */
    public final QueueLimits limits = new QueueLimits();
    /** {@code nr_requests}. */
    public final int nrRequests;
    /** {@code tag_set->tags[0]} of the one hardware queue. */
    public final BlkMqTags tags;
    /** {@code bio_split}: the bio set {@code __blk_queue_split()} allocates from. */
    public final BioSet bioSplit;
    /**
     * {@code queue_hw_ctx[0]->wait_index}: the wait queue the next tag waiter of the one hardware
     * context takes ({@code bt_wait_ptr()}); moved on without a lock ({@code sbq_index_atomic_inc()}).
     */
    final AtomicT hctxWaitIndex;
    /** {@code mq_ops}. */
    BlkMqOps mqOps;
    /** The disk this queue serves (set when the disk is added). */
    GenDisk disk;

    /**
     * block/blk-mq.c: {@code blk_mq_init_queue()} for a tag set of {@code nrRequests} tags; with
     * {@code nowait}, {@code QUEUE_FLAG_NOWAIT} is set as {@code QUEUE_FLAG_MQ_DEFAULT} does for
     * every blk-mq queue in v5.10 (a queue without it stands for a bio-based or stacked device that
     * does not support {@code REQ_NOWAIT}).
     */
    public RequestQueue(BlockLayer layer, String name, int nrRequests, boolean nowait, BlkMqOps ops) {
        this.name = name;
        this.queueFlags = new FlagsWord(name + ".queue_flags");
        this.nrRequests = nrRequests;
        this.tags = new BlkMqTags(this, nrRequests);
        this.hctxWaitIndex = new AtomicT(name + ".hctx0.wait_index", 0);
        this.bioSplit = new BioSet(layer, name + ".bio_split", Bio::new);
        this.mqOps = ops;
        if (nowait) {
            Bitops.__setBit(QUEUE_FLAG_NOWAIT, queueFlags);
        }
    }

    /** Installs the driver's ops (set-up only). */
    public void setMqOps(BlkMqOps ops) {
        this.mqOps = ops;
    }

    /** include/linux/blkdev.h: {@code blk_queue_nowait(q)}: {@code test_bit(QUEUE_FLAG_NOWAIT)}. */
    public static boolean blkQueueNowait(RequestQueue q) {
        return Bitops.testBit(QUEUE_FLAG_NOWAIT, q.queueFlags);
    }

    /** block/blk-core.c: {@code blk_queue_flag_set()}. */
    public static void blkQueueFlagSet(int flag, RequestQueue q) {
        Bitops.setBit(flag, q.queueFlags);
    }

    /** block/blk-core.c: {@code blk_queue_flag_clear()}. */
    public static void blkQueueFlagClear(int flag, RequestQueue q) {
        Bitops.clearBit(flag, q.queueFlags);
    }

    /** The request preallocated for {@code tag}. */
    public Request staticRq(int tag) {
        return tags.staticRqs[tag];
    }

    /** Tags in use now, without a scheduling point (checks and tests). */
    public int peekBusyTags() {
        return tags.bitmapTags.peekBusy();
    }

    /** Tag waiters queued now, without a scheduling point (checks and tests). */
    public int peekTagWaiters() {
        return tags.bitmapTags.peekWaiters();
    }

    /** The disk this queue serves. */
    public GenDisk disk() {
        return disk;
    }

    @Override
    public String toString() {
        return name;
    }
}
