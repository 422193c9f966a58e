package kmodel.fs.btrfs;

import static kmodel.block.BlkTypes.SECTOR_SHIFT;

import java.util.Arrays;
import kmodel.block.Bio;
import kmodel.block.BioEndIo;
import kmodel.block.BioVec;
import kmodel.block.BlkCore;
import kmodel.block.BlkTypes;
import kmodel.block.BlockBio;
import kmodel.kernel.Kernel;
import kmodel.kernel.locking.Spinlock;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;
import kmodel.mm.IovIter;
import kmodel.mm.Kiocb;
import kmodel.mm.Page;

/**
 * fs/direct-io.c (v4.13), reduced to what {@code btrfs_direct_IO()} uses of it: a synchronous
 * {@code __blockdev_direct_IO()} with a {@code get_block} callback ({@code btrfs_get_blocks_direct()})
 * and a {@code submit_io} callback ({@code btrfs_submit_direct()}). Generic code, kept in the btrfs
 * module because btrfs is its only user in the model (btrfs moved to iomap in v5.8: v5.10's
 * {@code iomap_dio_rw()} builds the same bios from an {@code iomap_begin} callback).
 *
 * <h2>What is modelled</h2>
 * <ul>
 *   <li>(a) The user buffer. The model's {@link IovIter} is one byte array, not user memory with
 *       pages. {@code iov_iter_get_pages()} is modelled by allocating one page per 4 KiB of the
 *       (page-aligned: {@code check_direct_IO()}) buffer from the machine's memory, holding the
 *       user's reference, plus the reference {@code get_user_pages()} takes; a write copies the
 *       buffer into them first, a read copies them back into the buffer after the I/O, and the
 *       "user" then drops its reference. In between, every reference is taken and dropped as
 *       fs/direct-io.c does: the pin is dropped once the page is in a bio
 *       ({@code do_direct_IO()}: {@code put_page(page)} after {@code submit_page_section()}), the
 *       bio holds one per bvec ({@code dio_bio_add_page()}: {@code get_page()}), dropped by
 *       {@code dio_bio_complete()}. ({@code sdio->cur_page}'s own short-lived reference is folded
 *       into the pin.)</li>
 *   <li>(b) Mapping: one {@code get_block} call per run of blocks; a mapped run becomes one bio
 *       ({@code dio_new_bio()} from {@code fs_bio_set} with {@code bio_add_page()} per page, at the
 *       run's {@code b_blocknr}), handed to {@code submit_io} ({@code dio_bio_submit()}); an
 *       unmapped run of a read (a hole) is zero-filled ({@code dio_zero_block()}'s read-side
 *       counterpart in {@code do_direct_IO()}: {@code zero_user()}).</li>
 *   <li>(c) Completion of a synchronous dio: {@code dio_bio_end_io()} links the bio on
 *       {@code dio->bio_list} under {@code dio->bio_lock} and wakes {@code dio->waiter} when
 *       {@code --dio->refcount == 1}; the submitter reaps bios in {@code dio_await_completion()} /
 *       {@code dio_await_one()} and ends with {@code drop_refcount()} and {@code dio_complete()}.</li>
 * </ul>
 * Not modelled: async (AIO) dios, {@code DIO_LOCKING}, block sizes below the page size, partial
 * blocks, {@code dio->i_size} past EOF trimming beyond whole blocks, {@code should_dirty}.
 */
final class FsDirectIo {
    private FsDirectIo() {
    }

    /** include/linux/fs.h: {@code get_block_t} as {@code btrfs_get_blocks_direct()} implements it. */
    interface GetBlock {
        /** Map file byte {@code start} for up to {@code bh.bSize} bytes into {@code bh}; 0 or a negative errno. */
        int getBlock(BtrfsInode inode, long start, MapBh bh, boolean create);
    }

    /** fs/direct-io.c: {@code dio_submit_t} ({@code btrfs_submit_direct()}). */
    interface SubmitIo {
        /** Submit {@code bio}, which covers file bytes from {@code fileOffset}. */
        void submitIo(Bio bio, BtrfsInode inode, long fileOffset);
    }

    /** include/linux/buffer_head.h: the parts of {@code struct buffer_head map_bh} a get_block fills. */
    static final class MapBh {
        /** {@code b_blocknr}: first block (here: logical byte address >> PAGE_SHIFT). */
        long bBlocknr;
        /** {@code b_size}: bytes asked for, then bytes mapped. */
        long bSize;
        /** {@code buffer_mapped()}. */
        boolean mapped;
    }

    /** fs/direct-io.c: {@code struct dio} (v4.13), the fields used. */
    static final class Dio {
        /** {@code op}: {@code REQ_OP_READ} or {@code REQ_OP_WRITE}. */
        final int op;
        /** {@code bio_lock}. */
        final Spinlock bioLock;
        /** {@code refcount}: 1 for the submitter plus one per bio in flight; under {@link #bioLock}. */
        int refcount = 1;
        /** {@code bio_list}: completed bios not yet reaped (singly linked through a Java list); under {@link #bioLock}. */
        final java.util.ArrayList<Bio> bioList = new java.util.ArrayList<>();
        /** {@code waiter}: the submitter while it sleeps in {@code dio_await_one()}; under {@link #bioLock}. */
        Task waiter;
        /** {@code io_error}: the first bio error ({@code dio_bio_complete()}). */
        int ioError;
        /** {@code page_errors}: a {@code get_block} error. */
        int pageErrors;

        Dio(String name, int op) {
            this.op = op;
            this.bioLock = new Spinlock(name + ".bio_lock");
        }
    }

    /**
     * lib/iov_iter.c: {@code iov_iter_get_pages()} (v4.13) as {@code dio_refill_pages()} calls it,
     * over the model's user buffer (the class notes, (a)): the buffer's pages, each pinned.
     */
    static Page[] iovIterGetPages(BtrfsInode inode, IovIter iter, boolean write) {
        int nr = (int) (iter.count >> Page.PAGE_SHIFT);
        Page[] pages = new Page[nr];
        for (int i = 0; i < nr; i++) {
            Page p = inode.vfsInode.iMapping.allocator.allocPage();
            Kernel.BUG_ON(p == null, "iov_iter_get_pages: no memory for the user buffer");
            if (write) {
                p.touch();
                System.arraycopy(iter.buf, iter.iovOffset + i * Page.PAGE_SIZE, p.data, 0, Page.PAGE_SIZE);
            }
            Page.getPage(p); /* get_user_pages() */
            pages[i] = p;
        }
        return pages;
    }

    /**
     * fs/direct-io.c: {@code do_blockdev_direct_IO(iocb, inode, bdev, iter, get_block, end_io,
     * submit_io, flags)} (v4.13) for a synchronous, block-aligned dio (see the class notes):
     * returns the bytes transferred or a negative errno ({@code dio_complete()}: the
     * {@code get_block} error, else the I/O error, else the bytes).
     */
    static long doBlockdevDirectIO(Kiocb iocb, BtrfsInode inode, IovIter iter, boolean write, GetBlock getBlock,
            SubmitIo submitIo) {
        long offset = iocb.kiPos;
        long count = iter.count;
        long size = inode.vfsInode.iSizeRead();
        if (!write && offset >= size) {
            return 0;
        }
        long end = offset + count;
        if (!write && end > size) {
            /* the reduced model reads whole blocks within i_size only */
            end = (size + inode.fsInfo.sectorsize - 1) / inode.fsInfo.sectorsize * inode.fsInfo.sectorsize;
        }
        Dio dio = new Dio("dio@" + offset, write ? BlkTypes.REQ_OP_WRITE : BlkTypes.REQ_OP_READ);
        Page[] pages = iovIterGetPages(inode, iter, write);
        int pi = 0;
        long pos = offset;
        while (pos < end) {
            MapBh mapBh = new MapBh();
            mapBh.bSize = end - pos;
            int ret = getBlock.getBlock(inode, pos, mapBh, write);
            if (ret < 0) {
                dio.pageErrors = ret;
                break;
            }
            int nrPages = (int) (mapBh.bSize >> Page.PAGE_SHIFT);
            if (!mapBh.mapped) {
                /* a hole of a read: zero_user() the part of each page it covers */
                for (int i = 0; i < nrPages; i++, pi++) {
                    pages[pi].touch();
                    Arrays.fill(pages[pi].data, (byte) 0);
                    Page.putPage(pages[pi]); /* the pin */
                }
                pos += mapBh.bSize;
                continue;
            }
            Bio bio = dioNewBio(dio, inode, mapBh.bBlocknr << Page.PAGE_SHIFT, nrPages);
            for (int i = 0; i < nrPages; i++, pi++) {
                if (BlockBio.bioAddPage(bio, pages[pi], Page.PAGE_SIZE, 0) == Page.PAGE_SIZE) {
                    Page.getPage(pages[pi]); /* dio_bio_add_page(): the bio's reference */
                }
                Page.putPage(pages[pi]); /* do_direct_IO(): the pin, once queued */
            }
            dioBioSubmit(dio, bio, inode, pos, submitIo);
            pos += mapBh.bSize;
        }
        for (; pi < pages.length; pi++) {
            Page.putPage(pages[pi]); /* dio_cleanup(): pins of pages never queued */
        }
        dioAwaitCompletion(dio);
        long ret = dropRefcount(dio) == 0 ? dioComplete(dio, end - offset) : 0;
        if (!write) {
            /* the user's mapping of the pages is the buffer: copy back */
            int nr = Math.min(pages.length, (int) ((end - offset) >> Page.PAGE_SHIFT));
            for (int i = 0; i < nr; i++) {
                pages[i].touch();
                int n = (int) Math.min(Page.PAGE_SIZE, iter.buf.length - iter.iovOffset - (long) i * Page.PAGE_SIZE);
                System.arraycopy(pages[i].data, 0, iter.buf, iter.iovOffset + i * Page.PAGE_SIZE, n);
            }
        }
        for (Page p : pages) {
            Page.putPage(p); /* the user unmaps its buffer */
        }
        if (ret > 0) {
            long n = Math.min(ret, count);
            if (!write) {
                n = Math.min(n, size - offset);
            }
            /* dio_refill_pages(): iov_iter_get_pages() + iov_iter_advance(); ki_pos is the caller's */
            iter.iovOffset += (int) n;
            iter.count -= n;
            return n;
        }
        return ret;
    }

    /**
     * fs/direct-io.c: {@code dio_new_bio()} / {@code dio_bio_alloc()} (v4.13): a bio for
     * {@code nrPages} pages from {@code fs_bio_set} at logical byte {@code logical} of the file
     * system's {@code latest_bdev}, completing in {@link #DIO_BIO_END_IO}.
     */
    static Bio dioNewBio(Dio dio, BtrfsInode inode, long logical, int nrPages) {
        Bio bio = BlockBio.bioAlloc(inode.fsInfo.layer, Math.min(nrPages, BlkTypes.BIO_MAX_PAGES));
        Bio.bioSetDev(bio, inode.fsInfo.devices[0].bdev);
        bio.biIter.biSector = logical >> SECTOR_SHIFT;
        bio.biEndIo = DIO_BIO_END_IO;
        bio.biPrivate = dio;
        Bio.bioSetOpAttrs(bio, dio.op, dio.op == BlkTypes.REQ_OP_WRITE ? BlkTypes.REQ_SYNC : 0);
        return bio;
    }

    /**
     * fs/direct-io.c: {@code dio_bio_submit(dio, sdio)} (v4.13): count the bio in
     * {@code dio->refcount} under {@code bio_lock}, then {@code dio->submit_io(bio, inode,
     * file_offset)}.
     */
    static void dioBioSubmit(Dio dio, Bio bio, BtrfsInode inode, long fileOffset, SubmitIo submitIo) {
        long flags = Spinlock.spinLockIrqsave(dio.bioLock);
        dio.refcount++;
        Spinlock.spinUnlockIrqrestore(dio.bioLock, flags);
        submitIo.submitIo(bio, inode, fileOffset);
    }

    /**
     * fs/direct-io.c: {@code dio_bio_end_io(bio)} (v4.13), a synchronous dio's bio completion:
     * link the bio on {@code bio_list} and wake the waiter when it is the last one in flight.
     */
    static final BioEndIo DIO_BIO_END_IO = new BioEndIo() {
        @Override
        public void endIo(Bio bio) {
            Dio dio = (Dio) bio.biPrivate;
            long flags = Spinlock.spinLockIrqsave(dio.bioLock);
            dio.bioList.add(bio);
            if (--dio.refcount == 1 && dio.waiter != null) {
                Sched.wakeUpProcess(dio.waiter);
            }
            Spinlock.spinUnlockIrqrestore(dio.bioLock, flags);
        }

        @Override
        public String toString() {
            return "dio_bio_end_io";
        }
    };

    /**
     * fs/direct-io.c: {@code dio_end_io(bio)} (v4.13): what a file system's own end_io calls to
     * complete a dio bio ({@code dio_bio_end_io()} for a synchronous dio).
     */
    static void dioEndIo(Bio bio) {
        DIO_BIO_END_IO.endIo(bio);
    }

    /**
     * fs/direct-io.c: {@code dio_await_one(dio)} (v4.13): sleep until a bio has completed or none
     * is in flight; returns a completed bio, or null.
     */
    static Bio dioAwaitOne(Dio dio) {
        Bio bio = null;
        long flags = Spinlock.spinLockIrqsave(dio.bioLock);
        while (dio.refcount > 1 && dio.bioList.isEmpty()) {
            Sched.__setCurrentState(Task.TASK_UNINTERRUPTIBLE);
            dio.waiter = Sched.current();
            Sched.waitingOn("dio->waiter (" + (dio.refcount - 1) + " bio(s) in flight)");
            Spinlock.spinUnlockIrqrestore(dio.bioLock, flags);
            Sched.ioSchedule();
            flags = Spinlock.spinLockIrqsave(dio.bioLock);
            dio.waiter = null;
        }
        if (!dio.bioList.isEmpty()) {
            bio = dio.bioList.remove(dio.bioList.size() - 1);
        }
        Spinlock.spinUnlockIrqrestore(dio.bioLock, flags);
        return bio;
    }

    /**
     * fs/direct-io.c: {@code dio_bio_complete(dio, bio)} (v4.13): record an error, drop the bio's
     * reference on each of its pages ({@code bio_for_each_segment_all}: the dio owns the bio), put
     * the bio.
     */
    static void dioBioComplete(Dio dio, Bio bio) {
        if (bio.biStatus != BlkTypes.BLK_STS_OK) {
            dio.ioError = BlkCore.blkStatusToErrno(bio.biStatus);
        }
        for (BioVec bvec : Bio.bioForEachSegmentAll(bio)) {
            Page.putPage(bvec.bvPage);
        }
        BlockBio.bioPut(bio);
    }

    /** fs/direct-io.c: {@code dio_await_completion(dio)}: reap every bio. */
    static void dioAwaitCompletion(Dio dio) {
        Bio bio;
        do {
            bio = dioAwaitOne(dio);
            if (bio != null) {
                dioBioComplete(dio, bio);
            }
        } while (bio != null);
    }

    /** fs/direct-io.c: {@code drop_refcount(dio)}: the submitter's reference; returns what is left. */
    static int dropRefcount(Dio dio) {
        long flags = Spinlock.spinLockIrqsave(dio.bioLock);
        int ret = --dio.refcount;
        Spinlock.spinUnlockIrqrestore(dio.bioLock, flags);
        return ret;
    }

    /** fs/direct-io.c: {@code dio_complete(dio, ret, is_async)} (v4.13): the errors first, else the bytes. */
    static long dioComplete(Dio dio, long transferred) {
        long ret = dio.pageErrors;
        if (ret == 0) {
            ret = dio.ioError;
        }
        if (ret == 0) {
            ret = transferred;
        }
        return ret;
    }
}
