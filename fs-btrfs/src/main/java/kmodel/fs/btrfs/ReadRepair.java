package kmodel.fs.btrfs;

import static kmodel.block.BlkTypes.SECTOR_SHIFT;

import kmodel.block.Bio;
import kmodel.block.BioVec;
import kmodel.block.BlkTypes;
import kmodel.block.BlockBio;
import kmodel.kernel.Kernel;
import kmodel.kernel.locking.Spinlock;
import kmodel.mm.Page;

/**
 * fs/btrfs/extent_io.c (v5.10), read repair: {@code btrfs_submit_read_repair()} and its helpers
 * ({@code btrfs_get_io_failure_record()}, {@code btrfs_check_repairable()},
 * {@code btrfs_io_needs_validation()}, {@code clean_io_failure()}, {@code free_io_failure()}).
 *
 * <h2>The protocol</h2>
 * A block that failed (an I/O error, or a checksum mismatch) gets a failure record in the inode's
 * {@code io_failure_tree}. (a) A checksum error names the bad block: try the next mirror
 * ({@code this_mirror++}, skipping {@code failed_mirror}). (b) An I/O error of a multi-block bio does
 * not say which block failed: first re-read this block alone from the same mirror
 * ({@code in_validation}, {@code REQ_FAILFAST_DEV}); if that fails too, go on as (a). Each repair is
 * a one-page bio that ends in {@code end_bio_extent_readpage()} again, carrying the checksum of the
 * block copied from the failed bio at {@code phy_offset}. When a copy verifies,
 * {@code clean_io_failure()} frees the record (and would rewrite the bad mirror with
 * {@code repair_io_failure()}: the model has no write path yet, so it only counts the repair). When
 * {@code this_mirror} passes {@code btrfs_num_copies()} the block is an error.
 */
final class ReadRepair {
    private ReadRepair() {
    }

    /**
     * fs/btrfs/extent_io.c: {@code btrfs_get_io_failure_record(inode, start, end)} (v5.10): the
     * record for {@code start}, or a new one ({@code this_mirror = 0}, {@code logical} from the
     * extent map: the block's disk address, or the compressed extent's start).
     */
    static IoFailureRecord btrfsGetIoFailureRecord(BtrfsInode inode, long start, long end) {
        Spinlock.spinLock(inode.ioFailureLock);
        IoFailureRecord failrec = inode.ioFailureTree.get(start);
        Spinlock.spinUnlock(inode.ioFailureLock);
        if (failrec != null) {
            return failrec;
        }
        failrec = new IoFailureRecord();
        failrec.start = start;
        failrec.len = end - start + 1;
        ExtentMapTree emTree = inode.extentTree;
        Spinlock.spinLock(emTree.lock);
        ExtentMap em = emTree.lookupExtentMapping(start, failrec.len);
        Spinlock.spinUnlock(emTree.lock);
        Kernel.BUG_ON(em == null, "btrfs_get_io_failure_record: no extent map at " + start);
        long logical = start - em.start;
        logical = em.blockStart + logical;
        if (em.test(ExtentMap.EXTENT_FLAG_COMPRESSED)) {
            logical = em.blockStart;
            failrec.bioFlags = ExtentIo.extentSetCompressType(ExtentIo.EXTENT_BIO_COMPRESSED, em.compressType);
        }
        ExtentMap.freeExtentMap(em);
        failrec.logical = logical;
        Spinlock.spinLock(inode.ioFailureLock);
        inode.ioFailureTree.put(start, failrec);
        Spinlock.spinUnlock(inode.ioFailureLock);
        return failrec;
    }

    /** fs/btrfs/extent_io.c: {@code free_io_failure(failure_tree, io_tree, rec)}. */
    static void freeIoFailure(BtrfsInode inode, IoFailureRecord failrec) {
        Spinlock.spinLock(inode.ioFailureLock);
        inode.ioFailureTree.remove(failrec.start);
        Spinlock.spinUnlock(inode.ioFailureLock);
    }

    /**
     * fs/btrfs/extent_io.c: {@code btrfs_io_needs_validation(inode, bio)} (v5.10): an I/O error
     * ({@code bi_status} set) of a bio of more than one block: which block failed is not known.
     */
    static boolean btrfsIoNeedsValidation(BtrfsInode inode, Bio bio) {
        if (bio.biStatus == BlkTypes.BLK_STS_OK) {
            return false;
        }
        int blocksize = inode.fsInfo.sectorsize;
        if (Bio.bioFlagged(bio, BlkTypes.BIO_CLONED)) {
            return BtrfsIoBio.btrfsIoBio(bio).iter.biSize > blocksize;
        }
        long len = 0;
        for (BioVec bv : Bio.bioForEachSegmentAll(bio)) {
            len += bv.bvLen;
            if (len > blocksize) {
                return true;
            }
        }
        return false;
    }

    /**
     * fs/btrfs/extent_io.c: {@code btrfs_check_repairable(inode, needs_validation, failrec,
     * failed_mirror)} (v5.10): pick the mirror to read next (see the class notes); false when there
     * is a single copy or every mirror has been tried.
     */
    static boolean btrfsCheckRepairable(BtrfsInode inode, boolean needsValidation, IoFailureRecord failrec,
            int failedMirror) {
        int numCopies = Volumes.btrfsNumCopies(inode.fsInfo, failrec.logical, failrec.len);
        if (numCopies == 1) {
            return false;
        }
        if (needsValidation) {
            /* if the following BUG_ON triggers, our validation request got merged */
            Kernel.BUG_ON(failrec.inValidation, "btrfs_check_repairable: failrec->in_validation");
            failrec.inValidation = true;
            failrec.thisMirror = failedMirror;
        } else {
            if (failrec.inValidation) {
                Kernel.BUG_ON(failrec.thisMirror != failedMirror, "btrfs_check_repairable: this_mirror "
                        + failrec.thisMirror + " != failed_mirror " + failedMirror);
                failrec.inValidation = false;
                failrec.thisMirror = 0;
            }
            failrec.failedMirror = failedMirror;
            failrec.thisMirror++;
            if (failrec.thisMirror == failedMirror) {
                failrec.thisMirror++;
            }
        }
        if (failrec.thisMirror > numCopies) {
            Kernel.event("check_repairable: (fail) num_copies=%s, next_mirror %s, failed_mirror %s", numCopies,
                    failrec.thisMirror, failedMirror);
            return false;
        }
        return true;
    }

    /**
     * fs/btrfs/extent_io.c: {@code btrfs_submit_read_repair(inode, failed_bio, phy_offset, page,
     * pgoff, start, end, failed_mirror, submit_bio_hook)} (v5.10): if another copy may be good,
     * submit a one-page read of it (its checksum copied from {@code failed_bio->csum} at
     * {@code phy_offset}, completing in {@code failed_bio}'s end_io) and return
     * {@code BLK_STS_OK}; otherwise free the record and return {@code BLK_STS_IOERR}: the caller
     * ends the page in error.
     */
    static int btrfsSubmitReadRepair(BtrfsInode inode, Bio failedBio, long phyOffset, Page page, int pgoff, long start,
            long end, int failedMirror) {
        BtrfsIoBio failedIoBio = BtrfsIoBio.btrfsIoBio(failedBio);
        int icsum = (int) (phyOffset >> Page.PAGE_SHIFT);
        Kernel.BUG_ON(BlkTypes.opIsWrite(Bio.bioOp(failedBio)), "btrfs_submit_read_repair on a write");
        IoFailureRecord failrec = btrfsGetIoFailureRecord(inode, start, end);
        boolean needValidation = btrfsIoNeedsValidation(inode, failedBio);
        if (!btrfsCheckRepairable(inode, needValidation, failrec, failedMirror)) {
            freeIoFailure(inode, failrec);
            return BlkTypes.BLK_STS_IOERR;
        }
        Bio repairBio = BlockBio.bioAllocBioset(1, inode.fsInfo.btrfsBioset);
        BtrfsIoBio repairIoBio = BtrfsIoBio.btrfsIoBio(repairBio);
        repairBio.biOpf = BlkTypes.REQ_OP_READ;
        if (needValidation) {
            repairBio.biOpf |= BlkTypes.REQ_FAILFAST_DEV;
        }
        repairBio.biEndIo = failedBio.biEndIo;
        repairBio.biIter.biSector = failrec.logical >> SECTOR_SHIFT;
        repairBio.biPrivate = inode;
        if (failedIoBio.csum != null) {
            repairIoBio.csum = new int[] {icsum < failedIoBio.csum.length ? failedIoBio.csum[icsum] : 0};
        }
        BlockBio.bioAddPage(repairBio, page, (int) failrec.len, pgoff);
        repairIoBio.logical = failrec.start;
        repairIoBio.iter.set(repairBio.biIter);
        inode.fsInfo.stats.repairs++;
        Kernel.event("repair read of %s from mirror %s" + (needValidation ? " (validation)" : ""), page, failrec.thisMirror);
        repairBio.biPrivate = null;
        int status = BtrfsInodeOps.btrfsSubmitDataBio(inode, repairBio, failrec.thisMirror, failrec.bioFlags);
        if (status != BlkTypes.BLK_STS_OK) {
            freeIoFailure(inode, failrec);
        }
        return status;
    }

    /**
     * fs/btrfs/extent_io.c: {@code clean_io_failure(fs_info, failure_tree, io_tree, start, page, ino,
     * pg_offset)} (v5.10): a block verified; if it had a failure record, free it
     * ({@code BUG_ON(!failrec->this_mirror)}); a record not in validation means a later mirror
     * repaired the block, whose bad copy {@code repair_io_failure()} would rewrite (counted only).
     */
    static void cleanIoFailure(BtrfsInode inode, long start, Page page) {
        /*
         * The kernel's first test, count_range_bits(failure_tree, ..., EXTENT_DIRTY), is made under
         * the tree's lock; the model makes it without (coarse: the tree is empty unless a repair is
         * under way, and a record for this block can only be added by this block's own repair).
         */
        if (inode.ioFailureTree.isEmpty()) {
            return;
        }
        Spinlock.spinLock(inode.ioFailureLock);
        IoFailureRecord failrec = inode.ioFailureTree.get(start);
        Spinlock.spinUnlock(inode.ioFailureLock);
        if (failrec == null) {
            return;
        }
        Kernel.BUG_ON(failrec.thisMirror == 0, "clean_io_failure: BUG_ON(!failrec->this_mirror) at " + start);
        if (!failrec.inValidation) {
            inode.fsInfo.stats.repaired++;
            Kernel.event("read error corrected: ino %s off %s (mirror " + failrec.failedMirror + " would be rewritten)",
                    inode, start);
        }
        freeIoFailure(inode, failrec);
    }
}
