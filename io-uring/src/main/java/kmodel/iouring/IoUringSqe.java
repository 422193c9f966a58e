package kmodel.iouring;

/**
 * include/uapi/linux/io_uring.h (v5.10): {@code struct io_uring_sqe}, the fields a read uses.
 * Written by the application into the SQ ring's entry array before it moves the SQ tail;
 * read by the kernel once in {@code io_init_req()} / {@code io_prep_rw()} ({@code READ_ONCE}).
 */
public final class IoUringSqe {
    /** {@code IORING_OP_READV}. */
    public static final int IORING_OP_READV = 1;
    /** {@code IORING_OP_READ}. */
    public static final int IORING_OP_READ = 22;

    /** {@code IOSQE_ASYNC}: always go async (punt to io-wq), {@code REQ_F_FORCE_ASYNC}. */
    public static final int IOSQE_ASYNC = 1 << 4;

    /** include/uapi/linux/fs.h: {@code RWF_NOWAIT}: per-IO, return -EAGAIN if operation would block. */
    public static final int RWF_NOWAIT = 0x00000008;

    /** {@code opcode}. */
    public int opcode;
    /** {@code flags}: {@code IOSQE_*}. */
    public int flags;
    /** {@code fd}: the file (the model names the open file directly). */
    public IoFd fd;
    /** {@code off}: file offset. */
    public long off;
    /** {@code addr}: the user buffer ({@code READ}) or the one iovec's buffer ({@code READV}). */
    public byte[] addr;
    /** {@code len}: bytes ({@code READ}) or iovecs ({@code READV}: the model has one). */
    public int len;
    /** {@code rw_flags}: {@code RWF_*}. */
    public int rwFlags;
    /** {@code user_data}: passed back in the CQE. */
    public long userData;

    /** liburing: {@code io_uring_prep_rw()}: fills the entry for a read of {@code buf.length} bytes at {@code off}. */
    public IoUringSqe prepRead(int op, IoFd file, byte[] buf, long offset, long data) {
        this.opcode = op;
        this.flags = 0;
        this.fd = file;
        this.off = offset;
        this.addr = buf;
        this.len = op == IORING_OP_READV ? 1 : buf.length;
        this.rwFlags = 0;
        this.userData = data;
        return this;
    }
}
