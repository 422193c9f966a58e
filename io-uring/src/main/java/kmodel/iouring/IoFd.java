package kmodel.iouring;

import kmodel.mm.File;

/**
 * include/linux/fs.h: the {@code f_flags} half of an open {@code struct file} that an SQE names by
 * its {@code fd}: the model's {@link File} (mm-filemap) carries the mapping, {@code f_mode} and
 * {@code f_ra} but no open flags, so io_uring keeps them here, next to the file they belong to.
 */
public final class IoFd {
    /** include/uapi/asm-generic/fcntl.h: {@code O_NONBLOCK}. */
    public static final int O_NONBLOCK = 0x800;
    /** include/uapi/asm-generic/fcntl.h: {@code O_DIRECT}. */
    public static final int O_DIRECT = 0x4000;

    /** The open file. */
    public final File file;
    /** {@code file->f_flags}: {@code O_*}, fixed at open. */
    public final int fFlags;

    public IoFd(File file, int fFlags) {
        this.file = file;
        this.fFlags = fFlags;
    }

    @Override
    public String toString() {
        return file.toString();
    }
}
