package kmodel.fs.btrfs;

import kmodel.kernel.Kernel;
import kmodel.mm.File;
import kmodel.mm.FilemapRead;
import kmodel.mm.IovIter;
import kmodel.mm.Kiocb;

/**
 * btrfs' {@code .read_iter} of v5.10 (fs/btrfs/file.c), the form io_uring's {@code io_read()}
 * reaches through {@code call_read_iter()}: since "btrfs: switch to iomap_dio_rw() for dio"
 * (v5.9) btrfs has its own {@code btrfs_file_read_iter()} instead of
 * {@code generic_file_read_iter()}. Its buffered half is {@code generic_file_buffered_read(iocb,
 * to, 0)}, so {@code IOCB_NOWAIT} and {@code IOCB_WAITQ} pass straight through to mm/filemap.c:
 * btrfs sets {@code FMODE_NOWAIT | FMODE_BUF_RASYNC} in {@code btrfs_file_open()}
 * ({@link BtrfsAops#btrfsFileOpen}), and the page-unlock callbacks are armed on its pages like on
 * a block device's. The model's btrfs direct I/O is the v4.13 form ({@link BtrfsFile}), so an
 * {@code IOCB_DIRECT} read here is a {@code bug-on} naming the limitation.
 */
public final class BtrfsReadIter {
    private BtrfsReadIter() {
    }

    /** Whether {@code f} is a file of a btrfs inode (its {@code f_op} is {@code btrfs_file_operations}). */
    public static boolean isBtrfsFile(File f) {
        return f.fMapping.aOps instanceof BtrfsAops;
    }

    /**
     * fs/btrfs/file.c: {@code btrfs_file_read_iter(iocb, to)} (v5.10): a direct read goes to
     * {@code btrfs_direct_IO()} under {@code inode_lock_shared()} (not modelled here: a
     * {@code bug-on}), then {@code generic_file_buffered_read(iocb, to, ret)}, which honours
     * {@code IOCB_NOWAIT} (no sleeping, {@code -EAGAIN}) and {@code IOCB_WAITQ} (arm
     * {@code iocb->ki_waitq}, {@code -EIOCBQUEUED}) as for any file.
     */
    public static long btrfsFileReadIter(Kiocb iocb, IovIter to) {
        Kernel.BUG_ON((iocb.kiFlags & Kiocb.IOCB_DIRECT) != 0,
                "btrfs_file_read_iter: v5.10's iomap direct read (btrfs_direct_IO) is not modelled; BtrfsFile has v4.13's");
        ((BtrfsAops) iocb.kiFilp.fMapping.aOps).inode.fsInfo.stats.readIters++;
        return FilemapRead.genericFileBufferedRead(iocb, to, 0);
    }
}
