package kmodel.mm;

import static kmodel.mm.Page.PAGE_SHIFT;
import static kmodel.mm.Page.PAGE_SIZE;

import java.util.ArrayList;
import java.util.List;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.atomic.Bitops;
import kmodel.kernel.locking.RwSemaphore;
import kmodel.kernel.sched.Sched;

/**
 * mm/filemap.c (v5.10), the write half: the buffered write ({@code generic_perform_write()} with
 * {@code ->write_begin}/{@code ->write_end}, {@code __generic_file_write_iter()},
 * {@code generic_file_write_iter()}) and the flush-and-wait family that direct I/O, fsync and
 * truncation use ({@code __filemap_fdatawrite_range()}, {@code __filemap_fdatawait_range()},
 * {@code filemap_write_and_wait_range()}, {@code filemap_check_errors()}). Writeback itself is
 * {@link PageWriteback} (mm/page-writeback.c).
 *
 * <h2>Implementation notes</h2>
 *
 * <h3>Concurrency</h3>
 * A buffered write copies into a page it holds locked ({@code ->write_begin} returns it locked
 * and referenced; {@code ->write_end} dirties it, unlocks it and drops the reference), so two
 * writers of one page, or a writer and truncation, are ordered by the page lock; a reader copies
 * from an uptodate page without the lock and may see either version. Writers of a regular file
 * also hold {@code i_rwsem} ({@code inode_lock()} in {@code generic_file_write_iter()}), as
 * truncation does; block devices write without it ({@code blkdev_write_iter()}).
 *
 * <h3>Waiting for writeback</h3>
 * {@code filemap_write_and_wait_range()} first starts writeback of what is dirty (WB_SYNC_ALL:
 * {@code write_cache_pages()} waits for writeback already under way on each page it writes),
 * then waits for every page carrying {@code PAGECACHE_TAG_WRITEBACK} in the range. A page
 * redirtied and written again while it waits is waited for too if the mark is back when the
 * lookup passes it; the lookup takes a reference, so the page cannot be freed under the wait.
 *
 * <h3>Coarse parts</h3>
 * No {@code file_remove_privs()}/{@code file_update_time()}, no write limits
 * ({@code generic_write_check_limits()}), no {@code balance_dirty_pages_ratelimited()}, no
 * {@code IOCB_DSYNC} ({@code generic_write_sync()} returns the count), no {@code IOCB_DIRECT}
 * here (direct I/O is the file system's: it calls {@link #filemapWriteAndWaitRange} and
 * {@code Truncate.invalidateInodePages2Range()} itself), no errseq ({@code file->f_wb_err}):
 * errors are the AS_EIO/AS_ENOSPC bits; user memory never faults.
 */
public final class FilemapWrite {
    private FilemapWrite() {
    }

    // ------------------------------------------------------------------ errors

    /**
     * mm/filemap.c: {@code filemap_check_errors()} (v5.10): test-and-clear AS_ENOSPC and AS_EIO
     * (each tested first, "to avoid an atomic op when not set"); {@code -EIO} wins.
     */
    public static int filemapCheckErrors(AddressSpace mapping) {
        int ret = 0;
        /* Check for outstanding write errors */
        if (Bitops.testBit(AddressSpace.AS_ENOSPC, mapping.flags)
                && Bitops.testAndClearBit(AddressSpace.AS_ENOSPC, mapping.flags)) {
            ret = -Errno.ENOSPC;
        }
        if (Bitops.testBit(AddressSpace.AS_EIO, mapping.flags)
                && Bitops.testAndClearBit(AddressSpace.AS_EIO, mapping.flags)) {
            ret = -Errno.EIO;
        }
        return ret;
    }

    // ------------------------------------------------------------------ starting writeback

    /**
     * mm/filemap.c: {@code __filemap_fdatawrite_range(mapping, start, end, sync_mode)} (v5.10):
     * nothing to do unless the mapping can write back and some page carries
     * {@code PAGECACHE_TAG_DIRTY}; else {@code do_writepages()} over {@code [start, end]} bytes
     * with {@code nr_to_write = LONG_MAX}.
     */
    public static int __filemapFdatawriteRange(AddressSpace mapping, long start, long end, int syncMode) {
        if (!mapping.canWriteback || !mapping.mappingTagged(AddressSpace.PAGECACHE_TAG_DIRTY)) {
            return 0;
        }
        WritebackControl wbc = new WritebackControl(syncMode, start, end);
        return PageWriteback.doWritepages(mapping, wbc);
    }

    /** mm/filemap.c: {@code filemap_fdatawrite_range()}: start WB_SYNC_ALL writeback of {@code [start, end]}, do not wait for it. */
    public static int filemapFdatawriteRange(AddressSpace mapping, long start, long end) {
        return __filemapFdatawriteRange(mapping, start, end, WritebackControl.WB_SYNC_ALL);
    }

    /** mm/filemap.c: {@code filemap_fdatawrite()}: the whole file, WB_SYNC_ALL. */
    public static int filemapFdatawrite(AddressSpace mapping) {
        return __filemapFdatawriteRange(mapping, 0, WritebackControl.LLONG_MAX, WritebackControl.WB_SYNC_ALL);
    }

    /** mm/filemap.c: {@code filemap_flush()}: the whole file, WB_SYNC_NONE (start what is not already under way). */
    public static int filemapFlush(AddressSpace mapping) {
        return __filemapFdatawriteRange(mapping, 0, WritebackControl.LLONG_MAX, WritebackControl.WB_SYNC_NONE);
    }

    // ------------------------------------------------------------------ waiting for it

    /**
     * mm/filemap.c: {@code __filemap_fdatawait_range()} (v5.10): for every page of
     * {@code [startByte, endByte]} carrying {@code PAGECACHE_TAG_WRITEBACK} (a tagged lookup that
     * takes a reference per page), {@code wait_on_page_writeback()} and {@code ClearPageError()},
     * then {@code pagevec_release()}.
     */
    static void __filemapFdatawaitRange(AddressSpace mapping, long startByte, long endByte) {
        long[] index = {startByte >> PAGE_SHIFT};
        long end = endByte >> PAGE_SHIFT;
        List<Page> pvec = new ArrayList<>(PageCache.PAGEVEC_SIZE);

        if (endByte < startByte) {
            return;
        }
        while (index[0] <= end) {
            int nrPages = PageCache.findGetPagesRangeTag(mapping, index, end, AddressSpace.PAGECACHE_TAG_WRITEBACK,
                    PageCache.PAGEVEC_SIZE, pvec);
            if (nrPages == 0) {
                break;
            }
            for (int i = 0; i < nrPages; i++) {
                Page page = pvec.get(i);
                Filemap.waitOnPageWriteback(page);
                PageFlags.ClearPageError(page);
            }
            PageCache.pagevecRelease(pvec);
        }
    }

    /**
     * mm/filemap.c: {@code filemap_fdatawait_range()} (v5.10): wait for writeback of the range,
     * then {@code filemap_check_errors()}.
     */
    public static int filemapFdatawaitRange(AddressSpace mapping, long startByte, long endByte) {
        __filemapFdatawaitRange(mapping, startByte, endByte);
        return filemapCheckErrors(mapping);
    }

    /** mm/filemap.c: {@code mapping_needs_writeback()} (v5.10, no DAX): {@code mapping->nrpages}. */
    static boolean mappingNeedsWriteback(AddressSpace mapping) {
        kmodel.kernel.locking.Spinlock.spinLockIrq(mapping.iPagesLock);
        boolean any = mapping.nrpages.get() != 0;
        kmodel.kernel.locking.Spinlock.spinUnlockIrq(mapping.iPagesLock);
        return any;
    }

    /**
     * mm/filemap.c: {@code filemap_write_and_wait_range(mapping, lstart, lend)} (v5.10): if the
     * mapping has pages, start WB_SYNC_ALL writeback of the byte range {@code [lstart, lend]} and,
     * unless that failed with {@code -EIO} ("it may indicate the worst thing (e.g. bug)
     * happened"), wait for all of it; else only {@code filemap_check_errors()}. Returns 0 or a
     * negative errno (the first of the two).
     */
    public static int filemapWriteAndWaitRange(AddressSpace mapping, long lstart, long lend) {
        int err = 0;

        if (mappingNeedsWriteback(mapping)) {
            err = __filemapFdatawriteRange(mapping, lstart, lend, WritebackControl.WB_SYNC_ALL);
            /*
             * Even if the above returned error, the pages may be written partially (e.g.
             * -ENOSPC), so we wait for it. But the -EIO is special case, it may indicate the
             * worst thing (e.g. bug) happened, so we avoid waiting for it.
             */
            if (err != -Errno.EIO) {
                int err2 = filemapFdatawaitRange(mapping, lstart, lend);
                if (err == 0) {
                    err = err2;
                }
            } else {
                /* Clear any previously stored errors */
                filemapCheckErrors(mapping);
            }
        } else {
            err = filemapCheckErrors(mapping);
        }
        Kernel.event("filemap_write_and_wait_range(%s, %s) = %s", lstart, lend, Errno.name(err));
        return err;
    }

    /** include/linux/fs.h: {@code filemap_write_and_wait()}: the whole file. */
    public static int filemapWriteAndWait(AddressSpace mapping) {
        return filemapWriteAndWaitRange(mapping, 0, WritebackControl.LLONG_MAX);
    }

    // ------------------------------------------------------------------ the buffered write

    /**
     * mm/filemap.c: {@code grab_cache_page_write_begin(mapping, index, flags)} (v5.10): the page at
     * {@code index}, created if need be, locked and with a reference
     * ({@code pagecache_get_page(FGP_LOCK|FGP_WRITE|FGP_CREAT)}); null on {@code -ENOMEM}.
     * {@code wait_for_stable_page()} waits only for devices that need stable pages during
     * writeback, which the model's disks do not.
     */
    public static Page grabCachePageWriteBegin(AddressSpace mapping, long index, int flags) {
        return PageCache.pagecacheGetPage(mapping, index, PageCache.FGP_LOCK | PageCache.FGP_CREAT);
    }

    /**
     * mm/filemap.c: {@code generic_perform_write(file, i, pos)} (v5.10): page by page,
     * {@code fatal_signal_pending()} ({@code -EINTR}), {@code ->write_begin} (the page locked and
     * referenced), {@code iov_iter_copy_from_user_atomic()}, {@code ->write_end} (which dirties,
     * unlocks and puts the page and returns the bytes it took), {@code iov_iter_advance()}.
     * Returns the bytes written, or the error if none were.
     */
    public static long genericPerformWrite(File file, IovIter i, long pos) {
        AddressSpace mapping = file.fMapping;
        AddressSpaceOperations aOps = mapping.aOps;
        long status = 0;
        long written = 0;
        int flags = 0;

        do {
            int offset = (int) (pos & (PAGE_SIZE - 1)); /* Offset into pagecache page */
            int bytes = (int) Math.min(PAGE_SIZE - offset, i.iovIterCount()); /* Bytes to write to page */
            int copied; /* Bytes copied from user */

            /* iov_iter_fault_in_readable(): the model's user memory never faults. */
            if (Sched.fatalSignalPending(Sched.current())) {
                status = -Errno.EINTR;
                break;
            }

            Page[] pagep = new Page[1];
            status = aOps.writeBegin(file, mapping, pos, bytes, flags, pagep);
            if (status < 0) {
                break;
            }
            Page page = pagep[0];

            copied = i.copyFromUserAtomic(page, offset, bytes);
            Kernel.event("copy %s bytes into %s", copied, page);

            status = aOps.writeEnd(file, mapping, pos, bytes, copied, page);
            if (status < 0) {
                break;
            }
            copied = (int) status;

            i.advance(copied);
            if (copied == 0) {
                /* The model's copies never fault: a zero-length commit would loop for ever. */
                Kernel.BUG_ON(true, "generic_perform_write: ->write_end took 0 bytes");
            }
            pos += copied;
            written += copied;
        } while (i.iovIterCount() != 0);

        return written != 0 ? written : status;
    }

    /**
     * mm/filemap.c: {@code __generic_file_write_iter(iocb, from)} (v5.10), the buffered case:
     * {@code generic_perform_write()} at {@code ki_pos}, which advances by what was written.
     * The caller holds {@code i_rwsem} (regular files) or writes a block device.
     */
    public static long __genericFileWriteIter(Kiocb iocb, IovIter from) {
        File file = iocb.kiFilp;
        Kernel.BUG_ON((iocb.kiFlags & Kiocb.IOCB_DIRECT) != 0,
                "__generic_file_write_iter: IOCB_DIRECT is the file system's own model");
        long written = genericPerformWrite(file, from, iocb.kiPos);
        if (written > 0) {
            iocb.kiPos += written;
        }
        return written;
    }

    /**
     * mm/filemap.c: {@code generic_write_checks()} (v5.10), without the size limits: 0 for an
     * empty write, {@code IOCB_APPEND} moves to {@code i_size}, {@code IOCB_NOWAIT} without
     * {@code IOCB_DIRECT} is {@code -EINVAL}; else the byte count.
     */
    public static long genericWriteChecks(Kiocb iocb, IovIter from) {
        Inode inode = iocb.kiFilp.fMapping.host;
        if (from.iovIterCount() == 0) {
            return 0;
        }
        if ((iocb.kiFlags & Kiocb.IOCB_APPEND) != 0) {
            iocb.kiPos = inode.iSizeRead();
        }
        if ((iocb.kiFlags & Kiocb.IOCB_NOWAIT) != 0 && (iocb.kiFlags & Kiocb.IOCB_DIRECT) == 0) {
            return -Errno.EINVAL;
        }
        return from.iovIterCount();
    }

    /**
     * mm/filemap.c: {@code generic_file_write_iter(iocb, from)} (v5.10): under
     * {@code inode_lock()} ({@code i_rwsem} for writing), {@code generic_write_checks()} and
     * {@code __generic_file_write_iter()}; {@code generic_write_sync()} (only for
     * {@code IOCB_DSYNC}, not modelled) returns the count.
     */
    public static long genericFileWriteIter(Kiocb iocb, IovIter from) {
        Inode inode = iocb.kiFilp.fMapping.host;
        RwSemaphore.downWrite(inode.iRwsem);
        long ret = genericWriteChecks(iocb, from);
        if (ret > 0) {
            ret = __genericFileWriteIter(iocb, from);
        }
        RwSemaphore.upWrite(inode.iRwsem);
        return ret;
    }
}
