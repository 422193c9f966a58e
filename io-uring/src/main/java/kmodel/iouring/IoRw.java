package kmodel.iouring;

import kmodel.block.RequestQueue;
import kmodel.fs.blockdev.BlockDev;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.sched.CallbackHead;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;
import kmodel.kernel.wait.Wait;
import kmodel.kernel.wait.WaitQueueEntry;
import kmodel.mm.File;
import kmodel.mm.Filemap;
import kmodel.mm.FilemapBugs;
import kmodel.mm.FilemapRead;
import kmodel.mm.IovIter;
import kmodel.mm.Kiocb;
import kmodel.mm.WaitPageKey;
import kmodel.mm.WaitPageQueue;

/**
 * fs/io_uring.c (v5.10): the read path: {@code io_read_prep()}, {@code io_read()} with its
 * non-blocking attempt, {@code -EAGAIN} handling, {@code io_setup_async_rw()} and the retry loop,
 * {@code io_rw_should_retry()} (arming the page-unlock callback), the callback
 * {@code io_async_buf_func()}, and the completion {@code kiocb_done()} /
 * {@code io_complete_rw()} / {@code io_rw_reissue()} (KERNEL-NOTES A.7).
 *
 * <h2>io_read() in v5.10, as modelled</h2>
 * <pre>
 *   IOCB_NOWAIT if force_nonblock
 *   file can't do nowait (io_file_supports_async)   -&gt; copy_iov, then -EAGAIN: punt
 *   ret = -&gt;read_iter()
 *     0                 -&gt; done
 *     -EIOCBQUEUED      -&gt; (armed already) return 0
 *     -EAGAIN           -&gt; blocking attempt or O_NONBLOCK: done; else revert, copy_iov
 *     &lt; 0               -&gt; done
 *     all read, or blocking attempt, or O_NONBLOCK -&gt; done
 *     short             -&gt; copy_iov
 *   copy_iov: io_setup_async_rw(force): the iterator becomes req-&gt;async_data-&gt;iter
 *   retry: bytes_done += ret
 *     !io_rw_should_retry() (REQ_F_NOWAIT, IOCB_DIRECT, file_can_poll, !FMODE_BUF_RASYNC)
 *                       -&gt; clear IOCB_WAITQ, return -EAGAIN (__io_queue_sqe punts, or fails
 *                          the request with -EAGAIN under REQ_F_NOWAIT)
 *     ret = -&gt;read_iter() with IOCB_WAITQ
 *     -EIOCBQUEUED      -&gt; return 0 (the callback will queue the retry)
 *     0 &lt; ret &lt; io_size -&gt; retry
 *   done: kiocb_done(ret + bytes_done)
 * </pre>
 *
 * <h2>Direct I/O</h2>
 * {@code O_DIRECT} sets {@code IOCB_DIRECT} ({@code iocb_flags()}), which
 * {@code io_rw_should_retry()} refuses, so a direct read that would block is punted. The model's
 * block-device file has no {@code ->direct_IO} ({@code blkdev_direct_IO()} is not modelled:
 * mm-filemap's {@code generic_file_read_iter()} is the buffered half only), so a direct read
 * reaching {@code ->read_iter} is a {@code bug-on} naming the limitation.
 */
public final class IoRw {
    private IoRw() {
    }

    /**
     * fs/io_uring.c: {@code io_prep_rw()} + {@code io_read_prep()} (v5.10): the kiocb at
     * {@code sqe->off} with {@code iocb_flags(file)} ({@code O_DIRECT} -&gt; {@code IOCB_DIRECT})
     * and {@code kiocb_set_rw_flags()} ({@code RWF_NOWAIT} -&gt; {@code IOCB_NOWAIT}, refused with
     * {@code -EOPNOTSUPP} without {@code FMODE_NOWAIT}); {@code REQ_F_NOWAIT} if the kiocb is
     * {@code IOCB_NOWAIT} ("don't allow async punt if RWF_NOWAIT was requested");
     * {@code ki_complete = io_complete_rw}. With {@code asyncData} ({@code io_req_defer_prep()}
     * for {@code IOSQE_ASYNC}), the iovec is imported into the async data now
     * ({@code io_rw_prep_async()}).
     */
    static int ioReadPrep(IoKiocb req, IoUringSqe sqe, boolean asyncData) {
        File f = req.file.file;
        if (!isBlockDevice(f)) {
            req.flags |= IoKiocb.REQ_F_ISREG;
        }
        int kiFlags = 0;
        if ((req.file.fFlags & IoFd.O_DIRECT) != 0) {
            kiFlags |= Kiocb.IOCB_DIRECT;
        }
        if ((sqe.rwFlags & IoUringSqe.RWF_NOWAIT) != 0) {
            if ((f.fMode & File.FMODE_NOWAIT) == 0) {
                return -Errno.EOPNOTSUPP;
            }
            kiFlags |= Kiocb.IOCB_NOWAIT;
        }
        req.kiocb = new Kiocb(f, sqe.off, kiFlags);
        if ((kiFlags & Kiocb.IOCB_NOWAIT) != 0) {
            req.flags |= IoKiocb.REQ_F_NOWAIT;
        }
        req.rwAddr = sqe.addr;
        req.rwLen = sqe.addr == null ? 0 : sqe.addr.length;
        if ((f.fMode & File.FMODE_READ) == 0) {
            return -Errno.EBADF;
        }
        if (asyncData) {
            req.asyncData = new IoAsyncRw(ioImportIovec(req), req.name());
        }
        return 0;
    }

    /** Whether {@code f} is the block-device file ({@code S_ISBLK(file_inode(f)->i_mode)}). */
    static boolean isBlockDevice(File f) {
        return f.fMapping.aOps instanceof BlockDev.DefBlkAops;
    }

    /** fs/io_uring.c: {@code __io_import_iovec()}: a fresh iterator over the user buffer (one iovec, or the single range). */
    static IovIter ioImportIovec(IoKiocb req) {
        return new IovIter(req.rwAddr);
    }

    /**
     * fs/io_uring.c: {@code io_file_supports_async(file, READ)} (v5.10): a block device only if
     * its queue is {@code QUEUE_FLAG_NOWAIT} ({@code io_bdev_nowait()}); the model's regular
     * files (their {@code s_bdev}) are taken as nowait-capable.
     */
    static boolean ioFileSupportsAsync(File f) {
        if (isBlockDevice(f)) {
            RequestQueue q = ((BlockDev.DefBlkAops) f.fMapping.aOps).bdev().bdDisk.queue;
            return RequestQueue.blkQueueNowait(q);
        }
        return true;
    }

    /** include/linux/fs.h: {@code file_can_poll()}: files with {@code ->poll}; none of the model's read files. */
    static boolean fileCanPoll(File f) {
        return false;
    }

    /**
     * fs/io_uring.c: {@code io_iter_do_read()} (v5.10): {@code call_read_iter()}, the file's
     * {@code ->read_iter}: {@code btrfs_file_read_iter()} for a btrfs file
     * ({@link kmodel.fs.btrfs.BtrfsReadIter}), {@code blkdev_read_iter()}'s
     * {@code generic_file_read_iter()} for the block device and the model's other files.
     */
    static long ioIterDoRead(IoKiocb req, IovIter iter) {
        Kernel.BUG_ON((req.kiocb.kiFlags & Kiocb.IOCB_DIRECT) != 0,
                "io_read: O_DIRECT reads through ->read_iter are not modelled (no blkdev_direct_IO())");
        if (kmodel.fs.btrfs.BtrfsReadIter.isBtrfsFile(req.kiocb.kiFilp)) {
            return kmodel.fs.btrfs.BtrfsReadIter.btrfsFileReadIter(req.kiocb, iter);
        }
        return FilemapRead.genericFileReadIter(req.kiocb, iter);
    }

    /** fs/io_uring.c: {@code io_setup_async_rw(req, iovec, fast_iov, iter, force)}: allocate the async data, copying the iterator. */
    static void ioSetupAsyncRw(IoKiocb req, IovIter iter) {
        if (req.asyncData == null) {
            req.asyncData = new IoAsyncRw(iter, req.name());
        }
    }

    /**
     * fs/io_uring.c: {@code io_read()} (v5.10); see the class comment. Returns 0 when the request
     * completed or armed a callback, {@code -EAGAIN} to be punted (or failed under
     * {@code REQ_F_NOWAIT}), or an import error.
     */
    static int ioRead(IoKiocb req, boolean forceNonblock) {
        req.touch();
        Kiocb kiocb = req.kiocb;
        IoAsyncRw rw = req.asyncData;
        IovIter iter;
        long ret;
        if (rw != null) {
            iter = rw.iter;
            ret = iter.iovIterCount();
        } else {
            iter = ioImportIovec(req);
            ret = req.rwLen;
        }
        long iovCount = iter.iovIterCount();
        long ioSize = ret;
        req.result = ioSize;
        ret = 0;

        /* Ensure we clear previously set non-block flag */
        if (!forceNonblock) {
            kiocb.kiFlags &= ~Kiocb.IOCB_NOWAIT;
        } else {
            kiocb.kiFlags |= Kiocb.IOCB_NOWAIT;
        }

        /* If the file doesn't support async, just async punt */
        boolean noAsync = forceNonblock && !ioFileSupportsAsync(req.file.file);
        boolean copyIov = noAsync;
        if (!noAsync) {
            ret = ioIterDoRead(req, iter);
            if (ret == 0) {
                return kiocbDone(req, 0);
            } else if (ret == -Errno.EIOCBQUEUED) {
                return 0;
            } else if (ret == -Errno.EAGAIN) {
                /* IOPOLL retry should happen for io-wq threads */
                if (!forceNonblock) {
                    return kiocbDone(req, ret);
                }
                /* no retry on NONBLOCK marked file */
                if ((req.file.fFlags & IoFd.O_NONBLOCK) != 0) {
                    return kiocbDone(req, ret);
                }
                /* some cases will consume bytes even on error returns */
                iter.revert((int) (iovCount - iter.iovIterCount()));
                ret = 0;
                copyIov = true;
            } else if (ret < 0) {
                return kiocbDone(req, ret);
            }
            if (!copyIov) {
                /* read it all, or we did blocking attempt. no retry. */
                if (iter.iovIterCount() == 0 || !forceNonblock || (req.file.fFlags & IoFd.O_NONBLOCK) != 0) {
                    return kiocbDone(req, ret);
                }
                ioSize -= ret;
            }
        }
        /* copy_iov: */
        ioSetupAsyncRw(req, iter);
        if (noAsync) {
            return -Errno.EAGAIN;
        }
        rw = req.asyncData;
        iter = rw.iter;
        for (;;) {
            /* retry: */
            rw.bytesDone += ret;
            /* if we can retry, do so with the callbacks armed */
            if (!ioRwShouldRetry(req)) {
                kiocb.kiFlags &= ~Kiocb.IOCB_WAITQ;
                return -Errno.EAGAIN;
            }
            /*
             * Now retry read with the IOCB_WAITQ parts set in the iocb. If we get -EIOCBQUEUED,
             * then we'll get a notification when the desired page gets unlocked. We can also get
             * a partial read here, and if we do, then just retry at the new offset.
             */
            ret = ioIterDoRead(req, iter);
            if (ret == -Errno.EIOCBQUEUED) {
                req.ctx.nrEiocbqueued++;
                Kernel.event("io_read(%s): -EIOCBQUEUED, callback armed", req.name());
                return 0;
            } else if (ret > 0 && ret < ioSize) {
                /* we got some bytes, but not all. retry. */
                continue;
            }
            return kiocbDone(req, ret);
        }
    }

    /**
     * fs/io_uring.c: {@code io_rw_should_retry()} (v5.10): never for {@code REQ_F_NOWAIT}, direct
     * or polled I/O, a pollable file or one without {@code FMODE_BUF_RASYNC}; otherwise arm the
     * wait entry in the async data ({@code func = io_async_buf_func}, {@code private = req},
     * non-exclusive, not queued), set {@code IOCB_WAITQ}, clear {@code IOCB_NOWAIT}, point
     * {@code ki_waitq} at it.
     */
    static boolean ioRwShouldRetry(IoKiocb req) {
        IoAsyncRw rw = req.asyncData;
        WaitPageQueue wait = rw.wpq;
        Kiocb kiocb = req.kiocb;
        /* never retry for NOWAIT, we just complete with -EAGAIN */
        if ((req.flags & IoKiocb.REQ_F_NOWAIT) != 0) {
            return false;
        }
        /* Only for buffered IO */
        if ((kiocb.kiFlags & (Kiocb.IOCB_DIRECT | Kiocb.IOCB_HIPRI)) != 0) {
            return false;
        }
        /* just use poll if we can, and don't attempt if the fs doesn't support callback based unlocks */
        if (fileCanPoll(req.file.file) || (req.file.file.fMode & File.FMODE_BUF_RASYNC) == 0) {
            return false;
        }
        WaitQueueEntry w = wait.wait;
        w.setFunc(IoRw::ioAsyncBufFunc);
        w.setPrivate(req);
        w.setFlags(0);
        w.initListHead();
        kiocb.kiFlags |= Kiocb.IOCB_WAITQ;
        kiocb.kiFlags &= ~Kiocb.IOCB_NOWAIT;
        kiocb.kiWaitq = wait;
        return true;
    }

    /**
     * fs/io_uring.c: {@code io_async_buf_func()} (v5.10), the page-unlock callback, called by the
     * page's wake-up walk with {@code q->lock} held, possibly in interrupt context (it must not
     * sleep): {@code wake_page_match()} (recording {@code page_match}); on a match clear
     * {@code IOCB_WAITQ}, unlink the entry ({@code list_del_init}: nobody checks it locklessly),
     * queue {@code io_req_task_submit} with a context reference and a request reference ("submit
     * ref gets dropped, acquire a new one") by {@code io_req_task_work_add(req, true)}; if that
     * fails (the task is exiting), queue {@code io_req_task_cancel} on the io-wq manager instead
     * and wake it. Returns 1: the entry is non-exclusive.
     *
     * <p>Bugs: {@code async-page-match-not-set} (v1's own comparison, no {@code page_match}),
     * {@code uring-no-req-ref}, {@code uring-no-ctx-ref}.
     */
    public static int ioAsyncBufFunc(WaitQueueEntry wait, int mode, int sync, Object arg) {
        WaitPageQueue wpq = (WaitPageQueue) wait.containerOf();
        IoKiocb req = (IoKiocb) wait.private_();
        WaitPageKey key = (WaitPageKey) arg;

        if (Kernel.bug(FilemapBugs.ASYNC_PAGE_MATCH_NOT_SET)) {
            /* v1: its own comparison, key->page_match never set. */
            if (wpq.page != key.page || wpq.bitNr != key.bitNr) {
                return 0;
            }
        } else if (!Filemap.wakePageMatch(wpq, key)) {
            return 0;
        }

        req.touch();
        req.kiocb.kiFlags &= ~Kiocb.IOCB_WAITQ;
        Wait.listDelInit(wait);
        Kernel.event("io_async_buf_func: %s", req.name());
        wpq.spuriousIfReused(key);

        CallbackHead.initTaskWork(req.taskWork, IoUring::ioReqTaskSubmit);
        if (!Kernel.bug(IoUringBugs.URING_NO_CTX_REF)) {
            req.ctx.refs.get();
        }
        /* submit ref gets dropped, acquire a new one */
        if (!Kernel.bug(IoUringBugs.URING_NO_REQ_REF)) {
            req.refs.inc();
        }
        int ret = IoUring.ioReqTaskWorkAdd(req);
        if (ret != 0) {
            /* queue just for cancelation */
            CallbackHead.initTaskWork(req.taskWork, IoUring::ioReqTaskCancel);
            Task tsk = IoWq.ioWqGetTask(req.ctx.ioWq);
            Sched.taskWorkAdd(tsk, req.taskWork, Sched.TWA_NONE);
            Sched.wakeUpProcess(tsk);
        }
        return 1;
    }

    /**
     * fs/io_uring.c: {@code kiocb_done()} (v5.10): add the bytes earlier attempts read
     * ({@code bytes_done}: an error after some bytes reports the bytes), then
     * {@code __io_complete_rw()} for a result, {@code io_rw_done()} for an error (which passes
     * {@code -EIOCBQUEUED} by and calls {@code ki_complete}, {@code io_complete_rw}, otherwise).
     * Returns 0 ({@code io_read()}'s {@code ret = 0} after {@code done:}).
     */
    static int kiocbDone(IoKiocb req, long ret) {
        IoAsyncRw io = req.asyncData;
        if (io != null && io.bytesDone > 0) {
            if (ret < 0) {
                ret = io.bytesDone;
            } else {
                ret += io.bytesDone;
            }
        }
        if (ret != -Errno.EIOCBQUEUED) {
            __ioCompleteRw(req, ret);
        }
        return 0;
    }

    /**
     * fs/io_uring.c: {@code __io_complete_rw()} (v5.10): {@code io_rw_reissue()} first, else
     * {@code io_complete_rw_common()}: post the CQE and drop the completion reference.
     */
    static void __ioCompleteRw(IoKiocb req, long res) {
        if (!ioRwReissue(req, res)) {
            IoCqring.ioReqComplete(req, res);
        }
    }

    /**
     * fs/io_uring.c: {@code io_rw_reissue()} (v5.10, b63534c41e20): a block-device or regular-file
     * request that ended with {@code -EAGAIN} (or {@code -EOPNOTSUPP}) outside an io-wq worker is
     * re-issued from io-wq, with one more reference, instead of completing: this is how a bio
     * failed with {@code BLK_STS_AGAIN} under a nowait plug is retried in blocking mode.
     */
    static boolean ioRwReissue(IoKiocb req, long res) {
        if ((res != -Errno.EAGAIN && res != -Errno.EOPNOTSUPP) || IoUring.ioWqCurrentIsWorker()) {
            return false;
        }
        /* io_resubmit_prep(): the async data exists or is set up now */
        if (req.asyncData == null) {
            IovIter iter = ioImportIovec(req);
            req.asyncData = new IoAsyncRw(iter, req.name());
        }
        req.refs.inc();
        IoUring.ioQueueAsyncWork(req);
        return true;
    }
}
