package kmodel.block;

import kmodel.kernel.sched.Work;
import static kmodel.block.BlkTypes.REQ_FAILFAST_MASK;
import static kmodel.block.BlkTypes.REQ_NOWAIT;

import java.util.List;
import kmodel.kernel.Kernel;

/**
 * block/blk-mq.c (v5.10): turning a bio into a request and issuing it to the driver, and ending
 * requests. One hardware queue, no I/O scheduler, no plugging: each bio that gets a tag becomes
 * its own request and is issued directly ({@code blk_mq_try_issue_directly()}), so requests are
 * never merged (see the package limitations).
 */
public final class BlkMq {
    private BlkMq() {
    }

    /**
     * block/blk-mq.c: {@code blk_mq_rq_ctx_init()}: the request of {@code tag}, initialised, with
     * {@code ref = 1}.
     */
    static Request blkMqRqCtxInit(RequestQueue q, int tag, long cmdFlags) {
        Request rq = q.staticRq(tag);
        rq.tag = tag;
        rq.cmdFlags = cmdFlags;
        rq.__sector = -1;
        rq.__dataLen = 0;
        rq.bio = null;
        rq.biotail = null;
        rq.rqDisk = null;
        rq.state = Request.MQ_RQ_IDLE;
        rq.ref.set(1);
        return rq;
    }

    /**
     * block/blk-mq.c: {@code __blk_mq_alloc_request()} (v5.10): a {@code REQ_NOWAIT} allocation
     * becomes {@code BLK_MQ_REQ_NOWAIT}; a tag, or null when a nowait allocation found none.
     */
    static Request __blkMqAllocRequest(RequestQueue q, long cmdFlags) {
        boolean nowait = (cmdFlags & REQ_NOWAIT) != 0;
        int tag = BlkMqTag.blkMqGetTag(q, nowait);
        if (tag == BlkMqTag.BLK_MQ_NO_TAG) {
            // Only BLK_MQ_REQ_NOWAIT allocations fail (no inactive hctx in the model).
            return null;
        }
        return blkMqRqCtxInit(q, tag, cmdFlags);
    }

    /**
     * block/blk-mq.c: {@code blk_mq_bio_to_request()} (v5.10): a read-ahead bio makes a failfast
     * request ({@code if (bio->bi_opf & REQ_RAHEAD) rq->cmd_flags |= REQ_FAILFAST_MASK}; with seed
     * 002 patch 01 that test is also true for any {@code REQ_NOWAIT} bio), then
     * {@code blk_rq_bio_prep()}.
     */
    static void blkMqBioToRequest(Request rq, Bio bio, int nrSegs) {
        if ((bio.biOpf & BlkTypes.reqRahead()) != 0) {
            rq.cmdFlags |= REQ_FAILFAST_MASK;
        }
        rq.__sector = bio.biIter.biSector;
        rq.nrPhysSegments = nrSegs;
        rq.__dataLen = bio.biIter.biSize;
        rq.bio = bio;
        rq.biotail = bio;
        rq.rqDisk = bio.biDisk;
    }

    /**
     * block/blk-mq.c: {@code blk_mq_submit_bio()} (v5.10) without plugging, merging or a scheduler:
     * split to the queue limits, allocate a request (a {@code REQ_NOWAIT} bio that finds no tag
     * is failed with {@code bio_wouldblock_error()}, in the submitter's context; any other sleeps
     * for a tag), map the bio and issue it to the driver.
     *
     * @param bioList the submitter's {@code current->bio_list}: split remainders are queued there
     */
    static void blkMqSubmitBio(Bio bio, List<Bio> bioList) {
        RequestQueue q = bio.biDisk.queue;
        Kernel.rt().work(Work.REQUEST, 1);
        int[] nrSegs = new int[1];
        bio = BlkMerge.__blkQueueSplit(bio, nrSegs, bioList);
        Request rq = __blkMqAllocRequest(q, bio.biOpf);
        if (rq == null) {
            if ((bio.biOpf & REQ_NOWAIT) != 0) {
                q.disk.stats.again++;
                Kernel.event("blk_mq_submit_bio(%s): no tag, BLK_STS_AGAIN", bio);
                Bio.bioWouldblockError(bio);
            }
            return;
        }
        blkMqBioToRequest(rq, bio, nrSegs[0]);
        if (BlkTypes.tracing()) {
            Kernel.event("%s: %s gets tag %s", q, bio, rq.tag);
        }
        blkMqTryIssueDirectly(rq);
    }

    /**
     * block/blk-mq.c: {@code blk_mq_try_issue_directly()} / {@code __blk_mq_issue_directly()}:
     * {@code q->mq_ops->queue_rq()}. The model's drivers never return a busy status.
     */
    static void blkMqTryIssueDirectly(Request rq) {
        int ret = rq.q.mqOps.queueRq(rq);
        Kernel.BUG_ON(ret != BlkTypes.BLK_STS_OK, "queue_rq(" + rq.name() + ") = " + BlkTypes.statusName(ret)
                + ": busy drivers are not modelled");
    }

    /** block/blk-mq.c: {@code blk_mq_start_request()}: the driver marks the request in flight. */
    public static void blkMqStartRequest(Request rq) {
        rq.state = Request.MQ_RQ_IN_FLIGHT;
        rq.q.disk.stats.requestsIssued++;
    }

    /**
     * block/blk-mq.c: {@code blk_mq_end_request(rq, error)}: complete every byte of every bio
     * ({@code blk_update_request()}, which advances each bio's {@code bi_iter} and calls
     * {@code bio_endio()}), then free the request and its tag (waking a tag waiter). Called by
     * the driver's completion, in interrupt context.
     */
    public static void blkMqEndRequest(Request rq, int error) {
        if (BlkCore.blkUpdateRequest(rq, error, rq.blkRqBytes())) {
            Kernel.BUG_ON(true, "blk_mq_end_request(" + rq.name() + "): bytes left after a full update");
        }
        __blkMqEndRequest(rq, error);
    }

    /** block/blk-mq.c: {@code __blk_mq_end_request()}: no {@code end_io} hook, so free it. */
    static void __blkMqEndRequest(Request rq, int error) {
        rq.state = Request.MQ_RQ_COMPLETE;
        rq.q.disk.stats.requestsCompleted++;
        blkMqFreeRequest(rq);
    }

    /**
     * block/blk-mq.c: {@code blk_mq_free_request()}: back to idle; the last reference frees the tag
     * ({@code __blk_mq_free_request()}). Freeing twice underflows {@code rq->ref}
     * ({@code double-release}).
     */
    public static void blkMqFreeRequest(Request rq) {
        rq.state = Request.MQ_RQ_IDLE;
        if (rq.ref.decAndTest()) {
            __blkMqFreeRequest(rq);
        }
    }

    /** block/blk-mq.c: {@code __blk_mq_free_request()}: {@code blk_mq_put_tag()}. */
    static void __blkMqFreeRequest(Request rq) {
        int tag = rq.tag;
        rq.tag = BlkMqTag.BLK_MQ_NO_TAG;
        rq.bio = null;
        rq.biotail = null;
        if (tag != BlkMqTag.BLK_MQ_NO_TAG) {
            BlkMqTag.blkMqPutTag(rq.q, tag);
        }
    }
}
