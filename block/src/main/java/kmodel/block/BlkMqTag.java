package kmodel.block;

import kmodel.kernel.Kernel;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;

/**
 * block/blk-mq-tag.c (v5.10): request tags. A submitter takes a tag for each request; a
 * {@code REQ_NOWAIT} submitter that finds none gets {@code BLK_MQ_NO_TAG} and fails the bio with
 * {@code BLK_STS_AGAIN}; any other sleeps on the tag wait queue until a completion frees one.
 *
 * <p>Not modelled: reserved tags, the scheduler's tags, shared tag sets, hctx remapping on CPU
 * hot-unplug, and {@code blk_mq_run_hw_queue()} before sleeping (the model dispatches each
 * request as soon as it has a tag, so there is nothing left to kick).
 */
public final class BlkMqTag {
    /** block/blk-mq-tag.h: {@code BLK_MQ_NO_TAG}. */
    public static final int BLK_MQ_NO_TAG = -1;

    private BlkMqTag() {
    }

    /** block/blk-mq-tag.c: {@code __blk_mq_get_tag()}: one try at the bitmap. */
    static int __blkMqGetTag(SbitmapQueue bt) {
        return bt.__sbitmapQueueGet();
    }

    /**
     * block/blk-mq-tag.c: {@code blk_mq_get_tag()} (v5.10): try the bitmap; with
     * {@code BLK_MQ_REQ_NOWAIT} give up; otherwise take a wait queue ({@code bt_wait_ptr()}, which
     * moves the hardware context's {@code wait_index} on) and loop: try,
     * {@code sbitmap_prepare_to_wait()} (exclusive, {@code TASK_UNINTERRUPTIBLE}), try again,
     * {@code io_schedule()}, {@code sbitmap_finish_wait()}, and the next wait queue
     * ({@code bt_wait_ptr()} again). With one hardware queue the tags never change under the
     * waiter, so the {@code bt != bt_prev} compensating wake-up never fires and is left out.
     */
    static int blkMqGetTag(RequestQueue q, boolean nowait) {
        SbitmapQueue bt = q.tags.bitmapTags;
        int tag = __blkMqGetTag(bt);
        if (tag != BLK_MQ_NO_TAG) {
            return tag;
        }
        if (nowait) {
            return BLK_MQ_NO_TAG;
        }
        SbitmapQueue.SbqWait wait = new SbitmapQueue.SbqWait(Sched.current().name() + ".sbq_wait");
        SbitmapQueue.SbqWaitState ws = bt.sbqWaitPtr(q.hctxWaitIndex);
        for (;;) {
            /* blk_mq_run_hw_queue(): nothing is held back in the model (requests are issued at once). */
            tag = __blkMqGetTag(bt);
            if (tag != BLK_MQ_NO_TAG) {
                break;
            }
            bt.sbitmapPrepareToWait(ws, wait, Task.TASK_UNINTERRUPTIBLE);
            tag = __blkMqGetTag(bt);
            if (tag != BLK_MQ_NO_TAG) {
                break;
            }
            q.disk.stats.tagWaits++;
            Kernel.event("blk_mq_get_tag: no tag on %s, sleeps", q);
            Sched.waitingOn("a request tag of " + q);
            Sched.ioSchedule();
            bt.sbitmapFinishWait(ws, wait);
            ws = bt.sbqWaitPtr(q.hctxWaitIndex);
        }
        bt.sbitmapFinishWait(ws, wait);
        wait.wait.leaveScope();
        return tag;
    }

    /** block/blk-mq-tag.c: {@code blk_mq_put_tag()}: {@code sbitmap_queue_clear()}. */
    static void blkMqPutTag(RequestQueue q, int tag) {
        q.tags.bitmapTags.sbitmapQueueClear(tag);
    }
}
