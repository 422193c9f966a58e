package kmodel.block;

import static kmodel.block.BlkTypes.REQ_NOMERGE;
import static kmodel.block.BlkTypes.SECTOR_SHIFT;

import java.util.List;
import kmodel.kernel.Kernel;
import kmodel.mm.Page;

/**
 * block/blk-merge.c (v5.10): splitting a bio to the queue's limits at submit time. Request
 * merging (back/front merges, plug merges) is not modelled.
 */
public final class BlkMerge {
    private BlkMerge() {
    }

    /**
     * block/blk-merge.c: {@code bvec_split_segs()} for the model's single-page bvecs with
     * {@code max_segment_size >= PAGE_SIZE} and no virt boundary: take as much of {@code bv} as
     * {@code max_sectors} and {@code max_segs} allow. Returns true when the bvec did not fit
     * whole (the bio must be split here).
     */
    private static boolean bvecSplitSegs(BioVec bv, int[] nsegs, int[] sectors, int maxSegs, int maxSectors) {
        int maxLen = (maxSectors - sectors[0]) << SECTOR_SHIFT;
        int len = Math.min(bv.bvLen, maxLen);
        int totalLen = 0;
        if (len > 0 && nsegs[0] < maxSegs) {
            nsegs[0]++;
            totalLen = len;
            len = 0;
        }
        sectors[0] += totalLen >>> SECTOR_SHIFT;
        return len > 0 || bv.bvLen > maxLen;
    }

    /**
     * block/blk-merge.c: {@code blk_bio_segment_split()} (v5.10): walk the bio's bvecs counting
     * segments and sectors against {@code max_segments} and {@code max_sectors}
     * ({@code get_max_io_size()}, 512-byte physical blocks); if the bio does not fit, split off
     * the part that does ({@code bio_split()}, a fast clone from {@code q->bio_split}).
     */
    static Bio blkBioSegmentSplit(RequestQueue q, Bio bio, BioSet bs, int[] segs) {
        int[] nsegs = new int[1];
        int[] sectors = new int[1];
        int maxSectors = q.limits.maxSectors;
        int maxSegs = q.limits.maxSegments;
        BvecIter iter = new BvecIter();
        for (BioVec bv : Bio.bioForEachBvec(bio, iter)) {
            if (nsegs[0] < maxSegs && sectors[0] + (bv.bvLen >>> SECTOR_SHIFT) <= maxSectors
                    && bv.bvOffset + bv.bvLen <= Page.PAGE_SIZE) {
                nsegs[0]++;
                sectors[0] += bv.bvLen >>> SECTOR_SHIFT;
            } else if (bvecSplitSegs(bv, nsegs, sectors, maxSegs, maxSectors)) {
                segs[0] = nsegs[0];
                return BlockBio.bioSplit(bio, sectors[0], bs);
            }
        }
        segs[0] = nsegs[0];
        return null;
    }

    /**
     * block/blk-merge.c: {@code __blk_queue_split()} (v5.10): a one-page bio is never split;
     * otherwise split to the limits, chain the split to the remainder ({@code bio_chain(split,
     * bio)}), resubmit the remainder ({@code submit_bio_noacct()}, which queues it on the
     * submitter's {@code current->bio_list}) and go on with the split.
     */
    static Bio __blkQueueSplit(Bio bio, int[] nrSegs, List<Bio> bioList) {
        RequestQueue q = bio.biDisk.queue;
        Bio split = null;
        switch (Bio.bioOp(bio)) {
            case BlkTypes.REQ_OP_DISCARD:
            case BlkTypes.REQ_OP_SECURE_ERASE:
            case BlkTypes.REQ_OP_WRITE_ZEROES:
            case BlkTypes.REQ_OP_WRITE_SAME:
                nrSegs[0] = 0;
                break;
            default:
                // "a quick and dirty check that relies on the fact that bi_io_vec[0] is always
                // valid if a bio has data" (false negatives on clones, whose bi_vcnt is 0)
                if (bio.biVcnt == 1) {
                    BioVec bv0 = bio.ioVec()[0];
                    if (bv0.bvLen + bv0.bvOffset <= Page.PAGE_SIZE) {
                        nrSegs[0] = 1;
                        break;
                    }
                }
                split = blkBioSegmentSplit(q, bio, q.bioSplit, nrSegs);
                break;
        }
        if (split != null) {
            split.biOpf |= REQ_NOMERGE;
            BlockBio.bioChain(split, bio);
            q.disk.stats.splits++;
            if (BlkTypes.tracing()) {
                Kernel.event("blk_queue_split(%s): %s takes %s sectors", bio, split, Bio.bioSectors(split));
            }
            BlkCore.submitBioNoacctNested(bio, bioList);
            bio = split;
        }
        return bio;
    }
}
