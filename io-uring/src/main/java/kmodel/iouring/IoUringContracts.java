package kmodel.iouring;

import kmodel.block.RequestQueue;
import kmodel.fs.blockdev.BlockDev;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.mm.File;
import kmodel.mm.Kiocb;
import kmodel.mm.MmOptions;

/**
 * What io_uring promises its users about reads, checked at the step that would break it
 * (model-only, no kernel function; issue 26, docs/contracts.md). Reads no shared state at a
 * scheduling point.
 */
final class IoUringContracts {
    private IoUringContracts() {
    }

    /**
     * Seed 002's claim as a property (the series' cover letter: "we only have the one task
     * performing IO", no io-wq thread for buffered reads; {@code io_rw_should_retry()} in v5.10):
     * with {@code ASYNC_BUFFERED_READS=y}, a read that may wait ({@code REQ_F_NOWAIT} clear), is
     * not forced async ({@code IOSQE_ASYNC}), is buffered ({@code IOCB_DIRECT}, {@code IOCB_HIPRI}
     * clear) on a file that cannot be polled and supports non-blocking issue
 * ({@code io_file_supports_async()}: not a block device without {@code QUEUE_FLAG_NOWAIT}), is served by the page-unlock callback and its
     * task_work retry, so handing it to io-wq ({@code io_queue_async_work()}) when its
     * non-blocking issue returns {@code -EAGAIN} ({@code __io_queue_sqe()}, from the submitting
     * task or its task_work) is {@code needless-punt}. Not checked: the re-issue of a read that
     * ended with {@code -EAGAIN} after its {@code IOCB_WAITQ} attempt ({@code io_rw_reissue()}),
     * which the kernel's own comment allows ({@code io_rw_should_retry()}, v5.10: "The retry will
     * generally succeed, or in rare cases where it fails, we then fall back to using the async
     * worker threads for a blocking retry"), and {@code IOSQE_ASYNC} requests. What the series needs from the file ({@code FMODE_BUF_RASYNC}, set by every
     * filesystem the model has when the series is on) is not an excuse: a file that lost it is
     * the break this check exists to see.
     */
    static void noNeedlessPunt(IoKiocb req) {
        if (!Kernel.config().enabled(MmOptions.ASYNC_BUFFERED_READS) || IoUring.ioWqCurrentIsWorker()) {
            return;
        }
        if (req.opcode != IoUringSqe.IORING_OP_READ && req.opcode != IoUringSqe.IORING_OP_READV) {
            return;
        }
        if ((req.flags & (IoKiocb.REQ_F_NOWAIT | IoKiocb.REQ_F_FORCE_ASYNC)) != 0 || req.kiocb == null
                || (req.kiocb.kiFlags & (Kiocb.IOCB_DIRECT | Kiocb.IOCB_HIPRI)) != 0 || req.file == null
                || IoRw.fileCanPoll(req.file.file)) {
            return;
        }
        File f = req.file.file;
        if (IoRw.isBlockDevice(f)) {
            /* io_file_supports_async() (v5.10): a block device whose queue is not QUEUE_FLAG_NOWAIT is punted before any attempt */
            RequestQueue q = ((BlockDev.DefBlkAops) f.fMapping.aOps).bdev().bdDisk.queue;
            if ((q.queueFlags.peek() & (1L << RequestQueue.QUEUE_FLAG_NOWAIT)) == 0) {
                return;
            }
        }
        Kernel.fail(ViolationKind.NEEDLESS_PUNT, "contract uring-no-punt: " + req.name() + " (a buffered read of " + f
                + ((f.fMode & File.FMODE_BUF_RASYNC) == 0 ? ", which lacks FMODE_BUF_RASYNC" : "")
                + ") is punted to io-wq with the async buffered read series on");
    }
}
