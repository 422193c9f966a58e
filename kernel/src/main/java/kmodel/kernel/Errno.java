package kmodel.kernel;

/** include/uapi/asm-generic/errno-base.h, errno.h, include/linux/errno.h: the values the model returns (negated, as the kernel does). */
public final class Errno {
    public static final int EPERM = 1;
    public static final int ESRCH = 3;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int ENXIO = 6;
    /** Bad file number: an SQE's fd that names no open file. */
    public static final int EBADF = 9;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EFAULT = 14;
    /** Block device required; btrfs' direct I/O returns it for what it cannot do directly. */
    public static final int ENOTBLK = 15;
    public static final int EBUSY = 16;
    public static final int EEXIST = 17;
    public static final int EINVAL = 22;
    public static final int ENOSPC = 28;
    public static final int EOPNOTSUPP = 95;
    public static final int ECANCELED = 125;
    /** include/linux/errno.h: kernel-internal, "iocb queued, will get completion event". */
    public static final int EIOCBQUEUED = 529;

    private Errno() {
    }

    /** The errno's name for traces and messages: {@code name(-EAGAIN)} is "-EAGAIN". */
    public static String name(long err) {
        if (err >= 0) {
            return Long.toString(err);
        }
        switch ((int) -err) {
            case EPERM: return "-EPERM";
            case ESRCH: return "-ESRCH";
            case EINTR: return "-EINTR";
            case EIO: return "-EIO";
            case ENXIO: return "-ENXIO";
            case EBADF: return "-EBADF";
            case EAGAIN: return "-EAGAIN";
            case ENOMEM: return "-ENOMEM";
            case EFAULT: return "-EFAULT";
            case ENOTBLK: return "-ENOTBLK";
            case EBUSY: return "-EBUSY";
            case EEXIST: return "-EEXIST";
            case EINVAL: return "-EINVAL";
            case ENOSPC: return "-ENOSPC";
            case EOPNOTSUPP: return "-EOPNOTSUPP";
            case ECANCELED: return "-ECANCELED";
            case EIOCBQUEUED: return "-EIOCBQUEUED";
            default: return Long.toString(err);
        }
    }
}
