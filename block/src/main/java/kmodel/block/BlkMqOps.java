package kmodel.block;

/**
 * include/linux/blk-mq.h: {@code struct blk_mq_ops}, the driver half the model needs.
 */
public interface BlkMqOps {
    /**
     * {@code ->queue_rq(hctx, bd)}: start the request (the driver calls
     * {@code blk_mq_start_request()}) and arrange for its completion. Returns a {@code BLK_STS_*};
     * the model's drivers always accept ({@code BLK_STS_OK}).
     */
    int queueRq(Request rq);
}
