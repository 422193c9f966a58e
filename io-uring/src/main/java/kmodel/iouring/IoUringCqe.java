package kmodel.iouring;

/**
 * include/uapi/linux/io_uring.h (v5.10): {@code struct io_uring_cqe}: written by the kernel under
 * {@code ctx->completion_lock} ({@code WRITE_ONCE}) before it publishes the CQ tail.
 */
public final class IoUringCqe {
    /** {@code user_data}: the SQE's. */
    public long userData;
    /** {@code res}: bytes read or a negative errno. */
    public int res;
    /** {@code flags}: {@code IORING_CQE_F_*} (none modelled). */
    public int flags;

    @Override
    public String toString() {
        return userData + ":" + kmodel.kernel.Errno.name(res);
    }
}
