package kmodel.block;

import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;

/**
 * include/linux/blkdev.h (v5.10): {@code struct blk_plug}, the submitting task's plug
 * ({@code current->plug}), declared on the submitter's stack between {@code blk_start_plug()} and
 * {@code blk_finish_plug()}.
 *
 * <p>Only {@code nowait} is modelled (f44268f81295, "block: provide plug based way of signaling
 * forced no-wait semantics", v5.9): {@code submit_bio_checks()} marks every bio submitted under a
 * plug with {@code nowait} set {@code REQ_NOWAIT}. io_uring set it for its non-blocking
 * submission ({@code io_submit_state_start()}) only from v5.9-rc1 (b63534c41e20) to v5.9-rc7
 * (62c774ed4831, "io_uring: don't unconditionally set plug->nowait = true"): v5.9 and v5.10 set
 * it nowhere, and the model brings it back only with {@code IO_URING_PLUG_NOWAIT=y}. The plug's
 * request list ({@code mq_list}) and
 * plug merging are not modelled: requests are issued as they are made (package limitations), so
 * {@code blk_finish_plug()} has nothing to flush.
 *
 * <p>Field rules: owned by the task whose {@code current->plug} it is; nobody else reads it.
 */
public final class BlkPlug {
    /** {@code nowait}: bios submitted under this plug are {@code REQ_NOWAIT}. */
    public boolean nowait;

    /**
     * block/blk-core.c: {@code blk_start_plug()} (v5.10): "If this is a nested plug, don't
     * actually assign it": only the outermost plug becomes {@code current->plug}.
     * {@code nowait} starts false; the caller sets it after.
     */
    public static void blkStartPlug(BlkPlug plug) {
        Task tsk = Sched.current();
        plug.nowait = false;
        if (tsk.plug() != null) {
            return;
        }
        tsk.setPlug(plug);
    }

    /**
     * block/blk-core.c: {@code blk_finish_plug()} (v5.10): if {@code plug} is
     * {@code current->plug}, flush it (nothing is held back in the model) and clear
     * {@code current->plug}.
     */
    public static void blkFinishPlug(BlkPlug plug) {
        Task tsk = Sched.current();
        if (plug != tsk.plug()) {
            return;
        }
        tsk.setPlug(null);
    }

    /**
     * block/blk-mq.h: {@code blk_mq_plug()} (v5.10): the submitter's plug, {@code current->plug}
     * (zoned writes, which bypass it, are not modelled); null in interrupt context or without one.
     */
    static BlkPlug blkMqPlug() {
        Task tsk = Sched.current();
        return tsk == null ? null : (BlkPlug) tsk.plug();
    }
}
