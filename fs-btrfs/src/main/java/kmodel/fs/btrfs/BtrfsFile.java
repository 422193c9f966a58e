package kmodel.fs.btrfs;

import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.locking.RwSemaphore;
import kmodel.kernel.locking.Spinlock;
import kmodel.mm.AddressSpace;
import kmodel.mm.FilemapRead;
import kmodel.mm.FilemapWrite;
import kmodel.mm.Inode;
import kmodel.mm.IovIter;
import kmodel.mm.Kiocb;
import kmodel.mm.Page;
import kmodel.mm.Truncate;

/**
 * btrfs' {@code file_operations} for direct I/O, v4.13 (the {@code __blockdev_direct_IO()} era,
 * the form seed 001 patches): {@code .read_iter = generic_file_read_iter} with its
 * {@code IOCB_DIRECT} branch (mm/filemap.c), {@code .write_iter = btrfs_file_write_iter} ->
 * {@code __btrfs_direct_write()} -> {@code generic_file_direct_write()} (mm/filemap.c). The two
 * mm/filemap.c functions are here, not in mm-filemap, because the model's
 * {@code address_space_operations} have no {@code ->direct_IO}: btrfs' is the only one, and is
 * called directly.
 *
 * <h2>The page cache around a direct I/O</h2>
 * A direct read first writes back dirty cached pages of its range
 * ({@code filemap_write_and_wait_range()}), so it reads what buffered writers wrote. A direct write
 * does that too, then invalidates the cached pages of its range
 * ({@code invalidate_inode_pages2_range()}) <em>before</em> the I/O, so later buffered reads go to
 * the disk, and again after it if the mapping has pages (pages read in by a racing buffered read
 * while the write was in flight hold the old bytes). v5.10's iomap ({@code iomap_dio_rw()}) makes
 * the same two calls before the I/O, and the post-write invalidation in
 * {@code iomap_dio_complete()}.
 */
public final class BtrfsFile {
    private BtrfsFile() {
    }

    /**
     * mm/filemap.c: {@code generic_file_read_iter(iocb, iter)} (v4.13), btrfs' {@code .read_iter}:
     * a direct read flushes the range, calls {@code ->direct_IO} ({@link DirectIo#btrfsDirectIO})
     * and advances {@code ki_pos}; the buffered case is mm-filemap's
     * {@link FilemapRead#genericFileReadIter} (v5.10). The kernel falls through to a buffered read
     * of what a short direct read left (btrfs' compressed extents); the model's direct reads are
     * short only at EOF, so that path is a {@code bug-on} here.
     */
    public static long btrfsFileReadIter(Kiocb iocb, IovIter iter) {
        if ((iocb.kiFlags & Kiocb.IOCB_DIRECT) == 0) {
            return FilemapRead.genericFileReadIter(iocb, iter);
        }
        long count = iter.iovIterCount();
        if (count == 0) {
            return 0;
        }
        AddressSpace mapping = iocb.kiFilp.fMapping;
        Inode inode = mapping.host;
        long size = inode.iSizeRead();
        long retval = FilemapWrite.filemapWriteAndWaitRange(mapping, iocb.kiPos, iocb.kiPos + count - 1);
        if (retval < 0) {
            return retval;
        }
        retval = DirectIo.btrfsDirectIO(iocb, iter, false);
        if (retval >= 0) {
            iocb.kiPos += retval;
            count -= retval;
        }
        if (retval < 0 || count == 0 || iocb.kiPos >= size) {
            return retval;
        }
        Kernel.BUG_ON(true, "generic_file_read_iter: the buffered fall-through after a short direct read is not modelled");
        return retval;
    }

    /**
     * fs/btrfs/file.c: {@code btrfs_file_write_iter(iocb, from)} (v4.13), direct writes only (the
     * model has no btrfs buffered write): {@code inode_lock()}, {@code generic_write_checks()},
     * {@code __btrfs_direct_write()} ({@code generic_file_direct_write()}; a short direct write's
     * buffered remainder is not modelled), {@code inode_unlock()}.
     */
    public static long btrfsFileWriteIter(Kiocb iocb, IovIter from) {
        Kernel.BUG_ON((iocb.kiFlags & Kiocb.IOCB_DIRECT) == 0, "btrfs_file_write_iter: buffered writes are not modelled");
        Inode inode = iocb.kiFilp.fMapping.host;
        RwSemaphore.downWrite(inode.iRwsem);
        long err = FilemapWrite.genericWriteChecks(iocb, from);
        if (err <= 0) {
            RwSemaphore.upWrite(inode.iRwsem);
            return err;
        }
        long numWritten = genericFileDirectWrite(iocb, from);
        RwSemaphore.upWrite(inode.iRwsem);
        return numWritten;
    }

    /**
     * mm/filemap.c: {@code generic_file_direct_write(iocb, from)} (v4.13): write back and wait for
     * the range, invalidate its cached pages (a page that cannot be invalidated, {@code -EBUSY},
     * makes the caller fall back to a buffered write: 0), {@code ->direct_IO}, invalidate again if
     * the mapping has pages, advance {@code ki_pos} (and {@code i_size}, which the model's in-place
     * writes never pass).
     */
    static long genericFileDirectWrite(Kiocb iocb, IovIter from) {
        AddressSpace mapping = iocb.kiFilp.fMapping;
        Inode inode = mapping.host;
        long pos = iocb.kiPos;
        long writeLen = from.iovIterCount();
        long end = (pos + writeLen - 1) >> Page.PAGE_SHIFT;
        long written = FilemapWrite.filemapWriteAndWaitRange(mapping, pos, pos + writeLen - 1);
        if (written != 0) {
            return written;
        }
        /*
         * After a write we want buffered reads to be sure to go to disk to get the new data. We
         * invalidate clean cached page from the region we're about to write.
         */
        written = Truncate.invalidateInodePages2Range(mapping, pos >> Page.PAGE_SHIFT, end);
        if (written != 0) {
            if (written == -Errno.EBUSY) {
                return 0;
            }
            return written;
        }
        written = DirectIo.btrfsDirectIO(iocb, from, true);
        /* Finally, try again to invalidate clean pages which might have been cached by non-direct readahead */
        if (mappingHasPages(mapping)) {
            Truncate.invalidateInodePages2Range(mapping, pos >> Page.PAGE_SHIFT, end);
        }
        if (written > 0) {
            pos += written;
            Kernel.BUG_ON(pos > inode.iSizeRead(), "generic_file_direct_write: extending i_size is not modelled");
            iocb.kiPos = pos;
        }
        return written;
    }

    /**
     * {@code mapping->nrpages != 0}: a plain, racy read in the kernel (a page added just after is
     * the case the comment above calls "not supported 100%"); read under the {@code i_pages} lock
     * here so the model's explorer sees the access.
     */
    private static boolean mappingHasPages(AddressSpace mapping) {
        Spinlock.spinLockIrq(mapping.iPagesLock);
        boolean any = mapping.nrpages() != 0;
        Spinlock.spinUnlockIrq(mapping.iPagesLock);
        return any;
    }
}
