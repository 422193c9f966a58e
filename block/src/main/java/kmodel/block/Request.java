package kmodel.block;

import kmodel.kernel.atomic.RefcountT;
import kmodel.kernel.lifetime.KObject;

/**
 * include/linux/blkdev.h: {@code struct request} (v5.10), one per tag: the tag set preallocates
 * them ({@code tags->static_rqs[tag]}) and they are reused, never freed. The model gives each
 * request exactly one bio (no plug or elevator merging).
 *
 * <p>Lifetime: {@code ref} is set to 1 when the request is allocated with its tag
 * ({@code blk_mq_rq_ctx_init()}) and dropped by {@code blk_mq_free_request()}, which returns the
 * tag. Freeing twice underflows it ({@code double-release}); a request still holding its
 * reference at the end of a run is a {@code ref-leak} (a tag that was never given back).
 *
 * <p>Field rules: written by the allocating submitter before {@code ->queue_rq()}, then owned by
 * the driver until {@code blk_mq_end_request()}.
 */
public final class Request extends KObject {
    /** {@code MQ_RQ_IDLE}. */
    public static final int MQ_RQ_IDLE = 0;
    /** {@code MQ_RQ_IN_FLIGHT}. */
    public static final int MQ_RQ_IN_FLIGHT = 1;
    /** {@code MQ_RQ_COMPLETE}. */
    public static final int MQ_RQ_COMPLETE = 2;

    /** {@code q}. */
    public final RequestQueue q;
    /** {@code tag}, or {@code BLK_MQ_NO_TAG} (-1) while free. */
    public int tag = BlkMqTag.BLK_MQ_NO_TAG;
    /** {@code cmd_flags}: op and flags. */
    public long cmdFlags;
    /** {@code __sector}. */
    public long __sector = -1;
    /** {@code __data_len}. */
    public int __dataLen;
    /** {@code nr_phys_segments}. */
    public int nrPhysSegments;
    /** {@code bio}, {@code biotail}. */
    public Bio bio;
    /** {@code biotail}. */
    public Bio biotail;
    /** {@code rq_disk}. */
    public GenDisk rqDisk;
    /** {@code state}: MQ_RQ_*. */
    public int state = MQ_RQ_IDLE;
    /** {@code ref}. */
    final RefcountT ref;

    Request(RequestQueue q, int index) {
        super("request", q.name + ".rq" + index);
        this.q = q;
        this.ref = new RefcountT(q.name + ".rq" + index + ".ref", 0);
    }

    @Override
    public int refs() {
        return ref.peek();
    }

    /** include/linux/blkdev.h: {@code blk_rq_pos()}. */
    public long blkRqPos() {
        return __sector;
    }

    /** include/linux/blkdev.h: {@code blk_rq_bytes()}. */
    public int blkRqBytes() {
        return __dataLen;
    }
}
