package kmodel.mm;

/**
 * include/linux/fs.h: {@code struct file}: its mapping, mode bits and read-ahead state.
 *
 * <p>{@code f_ra} is protected by nothing in the kernel (racy updates are tolerated: it is
 * only a heuristic); in the model each reader of a shared file touches it without scheduling
 * points, which hides those benign races (see the limitations).
 */
public final class File {
    /** include/linux/fs.h: file is opened for reading. */
    public static final int FMODE_READ = 0x1;
    /** File supports non-blocking I/O ({@code IOCB_NOWAIT}). */
    public static final int FMODE_NOWAIT = 0x8000000;
    /** File supports async buffered reads ({@code IOCB_WAITQ}); added by the async buffered read series. */
    public static final int FMODE_BUF_RASYNC = 0x40000000;

    /** {@code f_mapping}. */
    public final AddressSpace fMapping;
    /** {@code f_inode}. */
    public final Inode fInode;
    /** {@code f_mode}. */
    public int fMode = FMODE_READ;
    /** {@code f_ra}. */
    public final FileRaState fRa;
    private final String name;

    public File(String name, Inode inode, int raPages) {
        this.name = name;
        this.fInode = inode;
        this.fMapping = inode.iMapping;
        this.fRa = new FileRaState(raPages);
    }

    @Override
    public String toString() {
        return name;
    }
}
