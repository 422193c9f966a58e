package kmodel.block;

import static kmodel.block.BlkTypes.BLK_STS_AGAIN;
import static kmodel.block.BlkTypes.BLK_STS_DEV_RESOURCE;
import static kmodel.block.BlkTypes.BLK_STS_IOERR;
import static kmodel.block.BlkTypes.BLK_STS_NOSPC;
import static kmodel.block.BlkTypes.BLK_STS_NOTSUPP;
import static kmodel.block.BlkTypes.BLK_STS_OK;
import static kmodel.block.BlkTypes.BLK_STS_RESOURCE;
import static kmodel.block.BlkTypes.BLK_STS_TIMEOUT;
import static kmodel.block.BlkTypes.REQ_NOWAIT;

import java.util.ArrayList;
import java.util.List;
import kmodel.kernel.Errno;
import kmodel.kernel.FaultInject;
import kmodel.kernel.Kernel;
import kmodel.kernel.sched.Sched;

/**
 * block/blk-core.c (v5.10): {@code submit_bio()} and its checks, request completion
 * ({@code blk_update_request()}, {@code req_bio_endio()}), and {@code blk_status_to_errno()}.
 *
 * <h2>Submission, in order</h2>
 * <ol>
 *   <li>{@code submit_bio()}: accounting (the model's {@link DiskStats}).</li>
 *   <li>{@code submit_bio_checks()}: (a) {@code REQ_NOWAIT} to a queue without
 *       {@code QUEUE_FLAG_NOWAIT} (v5.10: {@code !blk_queue_nowait(q)}): {@code BLK_STS_NOTSUPP};
 *       (a') fault injection, {@code should_fail_bio()} ({@code FAIL_MAKE_REQUEST}):
 *       {@code BLK_STS_IOERR}; (b) beyond the end of the device:
 *       {@code BLK_STS_IOERR}; (c) discard-like ops the device lacks: {@code BLK_STS_NOTSUPP}.
 *       A failed check completes the bio at once, in the submitter's context.</li>
 *   <li>{@code __submit_bio_noacct_mq()}: with {@code current->bio_list} active, hand each bio to
 *       {@code blk_mq_submit_bio()} ({@link BlkMq}); split remainders queued meanwhile follow.</li>
 * </ol>
 */
public final class BlkCore {
    private BlkCore() {
    }

    /** block/blk-core.c: {@code blk_status_to_errno()} ({@code blk_errors[]}). */
    public static int blkStatusToErrno(int status) {
        switch (status) {
            case BLK_STS_OK: return 0;
            case BLK_STS_NOTSUPP: return -Errno.EOPNOTSUPP;
            case BLK_STS_TIMEOUT: return -110; // -ETIMEDOUT
            case BLK_STS_NOSPC: return -Errno.ENOSPC;
            case BLK_STS_RESOURCE: return -Errno.ENOMEM;
            case BLK_STS_DEV_RESOURCE: return -16; // -EBUSY
            case BLK_STS_AGAIN: return -Errno.EAGAIN;
            case BLK_STS_IOERR: return -Errno.EIO;
            default:
                Kernel.WARN_ON(true, "blk_status_to_errno(" + status + "): unknown status");
                return -Errno.EIO;
        }
    }

    /**
     * block/blk-core.c: {@code submit_bio()} (v5.10): count the I/O, then
     * {@code submit_bio_noacct()}. The bio must be fully set up ({@code bi_disk},
     * {@code bi_iter}, {@code bi_end_io}); the caller must not touch it again until its
     * {@code bi_end_io} runs, which may happen before this returns (early failures).
     */
    public static void submitBio(Bio bio) {
        bio.touch();
        Kernel.BUG_ON(bio.biDisk == null, "submit_bio(" + bio + ") without bi_disk");
        /* Model-only: I/O started inside an IOCB_NOIO section is blocked-in-nowait. */
        Sched.mayIssueIo("submit_bio(" + bio + ")");
        if (Bio.bioHasData(bio)) {
            bio.biDisk.stats.countSubmit(bio, Bio.bioSegments(bio));
        }
        if (BlkTypes.tracing()) {
            Kernel.event("submit_bio(%s) %s", bio, BlkTypes.opfName(bio.biOpf) + " sector " + bio.biIter.biSector
                    + " +" + Bio.bioSectors(bio));
        }
        submitBioNoacct(bio);
    }

    /**
     * block/blk-core.c: {@code submit_bio_noacct()} (v5.10) from outside any
     * {@code ->submit_bio}: checks, then {@code __submit_bio_noacct_mq()}.
     */
    public static void submitBioNoacct(Bio bio) {
        if (!submitBioChecks(bio)) {
            return;
        }
        __submitBioNoacctMq(bio);
    }

    /**
     * block/blk-core.c: {@code submit_bio_noacct()} called while the submitter's
     * {@code current->bio_list} is active (from {@code __blk_queue_split()}): checks, then queue
     * the bio on that list.
     */
    static void submitBioNoacctNested(Bio bio, List<Bio> bioList) {
        if (!submitBioChecks(bio)) {
            return;
        }
        bioList.add(bio);
    }

    /**
     * block/blk-core.c: {@code __submit_bio_noacct_mq()} (v5.10): the loop that turns recursive
     * submissions into iteration; {@code bio_queue_enter()} never fails here (queues are not frozen
     * in the model).
     */
    static void __submitBioNoacctMq(Bio bio) {
        ArrayList<Bio> bioList = new ArrayList<>();
        do {
            Kernel.rt().loopStep("__submit_bio_noacct_mq");
            BlkMq.blkMqSubmitBio(bio, bioList);
            bio = bioList.isEmpty() ? null : bioList.remove(0);
        } while (bio != null);
    }

    /**
     * block/blk-core.c: {@code bio_check_eod()}: a bio reaching past the capacity fails with
     * -EIO.
     */
    static boolean bioCheckEod(Bio bio, long maxsector) {
        int nrSectors = Bio.bioSectors(bio);
        if (nrSectors != 0 && maxsector != 0
                && (nrSectors > maxsector || bio.biIter.biSector > maxsector - nrSectors)) {
            Kernel.event("attempt to access beyond end of device: %s", bio);
            return true;
        }
        return false;
    }

    /**
     * block/blk-core.c: {@code submit_bio_checks()} (v5.10), for the cases the model has: "For a
     * REQ_NOWAIT based request, return -EOPNOTSUPP if queue does not support NOWAIT"
     * ({@code if ((bio->bi_opf & REQ_NOWAIT) && !blk_queue_nowait(q)) goto not_supported;}, as
     * 021a24460dc2 made it in v5.10-rc1; before, {@code !queue_is_mq(q)}; see {@link DiskKind}), then
     * the end-of-device check, then ops the device does not support. On failure the bio is
     * completed here ({@code bio->bi_status = status; bio_endio(bio)}) and false is returned.
     *
     * <p>First, as in v5.9+, a bio submitted under a plug with {@code nowait} set becomes
     * {@code REQ_NOWAIT} (f44268f81295: {@code plug = blk_mq_plug(q, bio); if (plug &&
     * plug->nowait) bio->bi_opf |= REQ_NOWAIT;}).
     *
     * <p>Then, as in v5.10, fault injection: {@code if (should_fail_bio(bio)) goto end_io;}
     * ({@code FAIL_MAKE_REQUEST}: the bio ends with {@code BLK_STS_IOERR}).
     *
     * <p>Not modelled: read-only checks, partitions, flush filtering,
     * throttling and cgroups.
     */
    static boolean submitBioChecks(Bio bio) {
        RequestQueue q = bio.biDisk.queue;
        int status = BLK_STS_IOERR;
        boolean notSupported = false;
        BlkPlug plug = BlkPlug.blkMqPlug();
        if (plug != null && plug.nowait) {
            bio.biOpf |= REQ_NOWAIT;
        }
        if ((bio.biOpf & REQ_NOWAIT) != 0 && !RequestQueue.blkQueueNowait(q)) {
            notSupported = true;
        } else if (shouldFailBio(bio) != 0) {
            status = BLK_STS_IOERR;
        } else if (bioCheckEod(bio, bio.biDisk.capacity())) {
            status = BLK_STS_IOERR;
        } else {
            switch (Bio.bioOp(bio)) {
                case BlkTypes.REQ_OP_DISCARD:
                case BlkTypes.REQ_OP_SECURE_ERASE:
                case BlkTypes.REQ_OP_WRITE_SAME:
                case BlkTypes.REQ_OP_WRITE_ZEROES:
                case BlkTypes.REQ_OP_FLUSH:
                    notSupported = true;
                    break;
                default:
                    return true;
            }
        }
        if (notSupported) {
            status = BLK_STS_NOTSUPP;
            bio.biDisk.stats.notsupp++;
        } else {
            bio.biDisk.stats.ioErrors++;
        }
        if (BlkTypes.tracing()) {
            Kernel.event("submit_bio_checks(%s): %s", bio, BlkTypes.statusName(status));
        }
        bio.biStatus = status;
        BlockBio.bioEndio(bio);
        return false;
    }

    /**
     * block/blk-core.c: {@code should_fail_request(part, bytes)} (v5.10,
     * {@code CONFIG_FAIL_MAKE_REQUEST}): {@code part->make_it_fail && should_fail(&fail_make_request,
     * bytes)}, for the whole disk ({@code part0}: the model has no partitions).
     */
    static boolean shouldFailRequest(GenDisk disk, int bytes, Bio bio) {
        return disk.makeItFail && disk.layer != null && FaultInject.shouldFail(disk.layer.failMakeRequest, Integer.toUnsignedLong(bytes),
                "submit_bio_noacct", bio);
    }

    /**
     * block/blk-core.c: {@code should_fail_bio(bio)} (v5.10, {@code ALLOW_ERROR_INJECTION}):
     * {@code -EIO} when {@code should_fail_request(&bio->bi_disk->part0, bio->bi_iter.bi_size)}.
     */
    static int shouldFailBio(Bio bio) {
        if (shouldFailRequest(bio.biDisk, bio.biIter.biSize, bio)) {
            return -Errno.EIO;
        }
        return 0;
    }

    /**
     * block/blk-core.c: {@code req_bio_endio()} (v5.10): record the error, advance the bio by the
     * bytes done ({@code bio_advance()}), and end it when nothing is left. This is why a
     * completed bio's {@code bi_iter} is consumed when its {@code bi_end_io} runs.
     */
    static void reqBioEndio(Request rq, Bio bio, int nbytes, int error) {
        if (error != 0) {
            bio.biStatus = error;
        }
        BlockBio.bioAdvance(bio, nbytes);
        if (bio.biIter.biSize == 0) {
            BlockBio.bioEndio(bio);
        }
    }

    /**
     * block/blk-core.c: {@code blk_update_request(req, error, nr_bytes)} (v5.10): complete
     * {@code nr_bytes} of the request, bio by bio ({@code req_bio_endio()}); returns true while
     * bytes remain.
     */
    public static boolean blkUpdateRequest(Request req, int error, int nrBytes) {
        if (req.bio == null) {
            return false;
        }
        int totalBytes = 0;
        while (req.bio != null) {
            /* Counted against the step bound: a corrupted (cyclic) bi_next chain ends there. */
            Kernel.rt().loopStep("blk_update_request");
            Bio bio = req.bio;
            int bioBytes = Math.min(bio.biIter.biSize, nrBytes);
            if (bioBytes == bio.biIter.biSize) {
                req.bio = bio.biNext;
            }
            Bio.bioClearFlag(bio, BlkTypes.BIO_TRACE_COMPLETION);
            reqBioEndio(req, bio, bioBytes, error);
            totalBytes += bioBytes;
            nrBytes -= bioBytes;
            if (nrBytes == 0) {
                break;
            }
        }
        if (req.bio == null) {
            req.__dataLen = 0;
            return false;
        }
        req.__dataLen -= totalBytes;
        req.__sector += totalBytes >>> BlkTypes.SECTOR_SHIFT;
        return true;
    }
}
