package kmodel.mm;

/**
 * include/linux/fs.h (v5.10): {@code struct kiocb}: one read or write request against a file.
 */
public final class Kiocb {
    public static final int IOCB_EVENTFD = 1 << 0;
    public static final int IOCB_APPEND = 1 << 1;
    public static final int IOCB_DIRECT = 1 << 2;
    public static final int IOCB_HIPRI = 1 << 3;
    public static final int IOCB_DSYNC = 1 << 4;
    public static final int IOCB_SYNC = 1 << 5;
    public static final int IOCB_WRITE = 1 << 6;
    /** Do not block: return -EAGAIN instead. */
    public static final int IOCB_NOWAIT = 1 << 7;
    /** {@code iocb->ki_waitq} is valid: wait for page unlocks by callback, return -EIOCBQUEUED. */
    public static final int IOCB_WAITQ = 1 << 8;
    /** Do not start I/O: only what is cached. */
    public static final int IOCB_NOIO = 1 << 9;

    /** {@code ki_filp}. */
    public final File kiFilp;
    /** {@code ki_pos}: file position of the request. */
    public long kiPos;
    /** {@code ki_flags}: {@code IOCB_*}. */
    public int kiFlags;
    /** {@code ki_waitq} (union with ki_cookie): the armed page-unlock callback for IOCB_WAITQ. */
    public WaitPageQueue kiWaitq;

    public Kiocb(File file, long pos, int flags) {
        this.kiFilp = file;
        this.kiPos = pos;
        this.kiFlags = flags;
    }

    /** Renders {@code ki_flags} for traces. */
    public static String flagNames(int flags) {
        StringBuilder sb = new StringBuilder();
        if ((flags & IOCB_NOWAIT) != 0) {
            sb.append("IOCB_NOWAIT|");
        }
        if ((flags & IOCB_WAITQ) != 0) {
            sb.append("IOCB_WAITQ|");
        }
        if ((flags & IOCB_NOIO) != 0) {
            sb.append("IOCB_NOIO|");
        }
        if ((flags & IOCB_DIRECT) != 0) {
            sb.append("IOCB_DIRECT|");
        }
        return sb.length() == 0 ? "0" : sb.substring(0, sb.length() - 1);
    }
}
