package kmodel.block;

import static kmodel.block.BlkTypes.BIO_CHAIN;
import static kmodel.block.BlkTypes.BIO_CLONED;
import static kmodel.block.BlkTypes.BIO_QUIET;
import static kmodel.block.BlkTypes.BIO_REFFED;
import static kmodel.block.BlkTypes.BLK_STS_AGAIN;
import static kmodel.block.BlkTypes.BLK_STS_IOERR;
import static kmodel.block.BlkTypes.REQ_OP_DISCARD;
import static kmodel.block.BlkTypes.REQ_OP_SECURE_ERASE;
import static kmodel.block.BlkTypes.REQ_OP_WRITE_SAME;
import static kmodel.block.BlkTypes.REQ_OP_WRITE_ZEROES;
import static kmodel.block.BlkTypes.SECTOR_SHIFT;

import java.util.Iterator;
import java.util.NoSuchElementException;
import kmodel.kernel.Kernel;
import kmodel.kernel.atomic.AtomicT;
import kmodel.kernel.atomic.Barriers;
import kmodel.kernel.lifetime.KObject;
import kmodel.mm.Page;

/**
 * include/linux/blk_types.h: {@code struct bio} (v5.10), and the inline helpers of
 * include/linux/bio.h. The functions of block/bio.c are in {@link BlockBio}.
 *
 * <h2>Ownership and field rules</h2>
 * A bio has one owner at a time: the code that builds it, then (after {@code submit_bio()}) the
 * block layer and the driver, then its {@code bi_end_io}. Plain fields are touched only by the
 * current owner; the hand-offs go through scheduling points (the tag allocation, the disk's
 * completion task), so the model needs no lock here. The two counters are atomics, as in the
 * kernel: {@code __bi_cnt} (references, {@code bio_get()}/{@code bio_put()}) and
 * {@code __bi_remaining} (outstanding chained completions, {@code bio_chain()}).
 *
 * <h2>The bvec table and clones</h2>
 * {@code bi_io_vec} is allocated with the bio that owns it and freed with it
 * ({@code bio_free()}). A fast clone ({@code bio_clone_fast()}) points at its parent's table,
 * sets {@code BIO_CLONED} and keeps {@code bi_vcnt == 0}; it takes <em>no</em> reference on the
 * parent (kernel-doc: "Caller must ensure that bio_src is not freed before bio"). The model
 * records whose allocation holds the table ({@link #ioVecOwner()}); reading the table through a
 * clone whose table owner was freed is a {@code use-after-free}.
 *
 * <h2>Lifetime</h2>
 * A bio is a tracked object: freed by the last {@code bio_put()}; a put on a freed bio, or a count
 * dropping below zero, is a {@code double-release}; a bio still alive at the end of a run is a
 * {@code ref-leak} unless declared.
 */
public class Bio extends KObject {
    /** {@code bi_next}: request queue link. Owner only. */
    public Bio biNext;
    /** {@code bi_disk} (v5.10; {@code bi_bdev} in v4.13 and again from v5.12). */
    public GenDisk biDisk;
    /** {@code bi_opf}: {@code REQ_OP_*} in the low 8 bits, {@code REQ_*} flags above. */
    public long biOpf;
    /** {@code bi_flags}: {@code BIO_*} bits, changed with plain |= as in the kernel (owner only). */
    public int biFlags;
    /** {@code bi_status}: a {@code BLK_STS_*} value, set before {@code bi_end_io} runs. */
    public int biStatus;
    /** {@code bi_iter}: the part of the table still to be transferred. */
    public final BvecIter biIter = new BvecIter();
    /** {@code __bi_remaining}: 1 + outstanding chained children while {@code BIO_CHAIN} is set. */
    final AtomicT biRemaining;
    /** {@code bi_end_io}. */
    public BioEndIo biEndIo;
    /** {@code bi_private}. */
    public Object biPrivate;
    /**
     * {@code bi_vcnt}: how many bvecs are in use. Owner only; stays 0 on a fast clone ("should not
     * be looked at or relied upon by code that does not own the bio").
     */
    public int biVcnt;
    /** {@code bi_max_vecs}: the size of the table allocated with this bio. */
    public int biMaxVecs;
    /** {@code __bi_cnt}: the reference count (only used once {@code BIO_REFFED} is set). */
    final AtomicT biCnt;
    /** {@code bi_io_vec}: the table, shared with fast clones. Read through {@link #ioVec()}. */
    BioVec[] biIoVec;
    /** The bio whose allocation holds {@link #biIoVec} (itself, or the parent of a fast clone). */
    Bio biIoVecOwner;
    /** {@code bi_pool}: the bio set this bio came from. */
    BioSet biPool;

    /**
     * A bio named {@code name}; only {@link BlockBio#bioAllocBioset} (through a
     * {@link BioSet.Factory}) creates bios. Subclasses stand for the kernel's front pad (e.g.
     * {@code struct btrfs_io_bio}).
     */
    public Bio(String name) {
        super("bio", name);
        this.biRemaining = new AtomicT(name + ".__bi_remaining", 1);
        this.biCnt = new AtomicT(name + ".__bi_cnt", 1);
    }

    void markFreed() {
        released();
    }

    /** {@code __bi_cnt} for the leak check. */
    @Override
    public int refs() {
        return biCnt.peek();
    }

    /** {@code __bi_cnt} without a scheduling point (checks and tests). */
    public int peekCnt() {
        return biCnt.peek();
    }

    /** {@code __bi_remaining} without a scheduling point (checks and tests). */
    public int peekRemaining() {
        return biRemaining.peek();
    }

    /** {@code bio->bi_io_vec}: the table (possibly the parent's), touching this bio and its owner. */
    public BioVec[] ioVec() {
        touch();
        Bio owner = biIoVecOwner;
        if (owner != null && owner != this) {
            owner.touch();
        }
        return biIoVec;
    }

    /** The bio whose allocation holds the table: itself, or the parent of a fast clone. */
    public Bio ioVecOwner() {
        return biIoVecOwner;
    }

    /** {@code bi_pool}. */
    public BioSet pool() {
        return biPool;
    }

    // ------------------------------------------------------------------ flags and accessors

    /** include/linux/bio.h: {@code bio_flagged()}. */
    public static boolean bioFlagged(Bio bio, int bit) {
        return (bio.biFlags & (1 << bit)) != 0;
    }

    /** include/linux/bio.h: {@code bio_set_flag()}: a plain {@code |=}. */
    public static void bioSetFlag(Bio bio, int bit) {
        bio.biFlags |= 1 << bit;
    }

    /** include/linux/bio.h: {@code bio_clear_flag()}. */
    public static void bioClearFlag(Bio bio, int bit) {
        bio.biFlags &= ~(1 << bit);
    }

    /** include/linux/blk_types.h: {@code bio_op()}. */
    public static int bioOp(Bio bio) {
        return BlkTypes.opOf(bio.biOpf);
    }

    /** include/linux/blk_types.h: {@code bio_set_op_attrs(bio, op, op_flags)}. */
    public static void bioSetOpAttrs(Bio bio, int op, long opFlags) {
        bio.biOpf = op | opFlags;
    }

    /** include/linux/bio.h: {@code bio_sectors()}: {@code bi_size >> 9}. */
    public static int bioSectors(Bio bio) {
        return bio.biIter.biSize >>> SECTOR_SHIFT;
    }

    /** include/linux/bio.h: {@code bio_end_sector()}. */
    public static long bioEndSector(Bio bio) {
        return bio.biIter.biSector + bioSectors(bio);
    }

    /** include/linux/bio.h: {@code bio_set_dev(bio, bdev)}: {@code bi_disk = bdev->bd_disk}. */
    public static void bioSetDev(Bio bio, BlockDevice bdev) {
        bio.biDisk = bdev.bdDisk;
    }

    /** include/linux/bio.h: {@code bio_has_data()}. */
    public static boolean bioHasData(Bio bio) {
        if (bio != null && bio.biIter.biSize != 0) {
            int op = bioOp(bio);
            return op != REQ_OP_DISCARD && op != REQ_OP_SECURE_ERASE && op != REQ_OP_WRITE_ZEROES;
        }
        return false;
    }

    /** include/linux/bio.h: {@code bio_no_advance_iter()}: ops whose payload is not walked. */
    public static boolean bioNoAdvanceIter(Bio bio) {
        int op = bioOp(bio);
        return op == REQ_OP_DISCARD || op == REQ_OP_SECURE_ERASE || op == REQ_OP_WRITE_SAME
                || op == REQ_OP_WRITE_ZEROES;
    }

    /** include/linux/bio.h: {@code bio_full()}: no free bvec, or {@code bi_size + len} would overflow. */
    public static boolean bioFull(Bio bio, int len) {
        if (bio.biVcnt >= bio.biMaxVecs) {
            return true;
        }
        return Integer.toUnsignedLong(bio.biIter.biSize) > 0xffffffffL - Integer.toUnsignedLong(len);
    }

    // ------------------------------------------------------------------ references

    /** include/linux/bio.h: {@code bio_get()}: sets {@code BIO_REFFED} and takes a reference. */
    public static void bioGet(Bio bio) {
        bio.touch();
        bioSetFlag(bio, BIO_REFFED);
        bio.biCnt.inc();
    }

    /**
     * include/linux/bio.h: {@code bio_inc_remaining()} (v5.10): one more chained completion to
     * wait for: {@code bio_set_flag(BIO_CHAIN)}, {@code smp_mb__before_atomic()},
     * {@code atomic_inc(&bio->__bi_remaining)}.
     */
    public static void bioIncRemaining(Bio bio) {
        bioSetFlag(bio, BIO_CHAIN);
        Barriers.smpMbBeforeAtomic("bio_inc_remaining");
        bio.biRemaining.inc();
    }

    /** include/linux/bio.h: {@code bio_io_error()}: complete with {@code BLK_STS_IOERR}. */
    public static void bioIoError(Bio bio) {
        bio.biStatus = BLK_STS_IOERR;
        BlockBio.bioEndio(bio);
    }

    /**
     * include/linux/bio.h: {@code bio_wouldblock_error()}: a {@code REQ_NOWAIT} bio that would have
     * to wait is completed at once with {@code BLK_STS_AGAIN}, in the submitter's context.
     */
    public static void bioWouldblockError(Bio bio) {
        bioSetFlag(bio, BIO_QUIET);
        bio.biStatus = BLK_STS_AGAIN;
        BlockBio.bioEndio(bio);
    }

    // ------------------------------------------------------------------ iteration

    /** include/linux/bio.h: {@code bio_iter_iovec(bio, iter)}: the segment at {@code iter}, by value. */
    public static BioVec bioIterIovec(Bio bio, BvecIter iter) {
        return Bvec.bvecIterBvec(bio.ioVec(), iter);
    }

    /** include/linux/bio.h: {@code bio_iovec(bio)}: the segment at {@code bio->bi_iter}. */
    public static BioVec bioIovec(Bio bio) {
        return bioIterIovec(bio, bio.biIter);
    }

    /**
     * include/linux/bio.h: {@code bio_advance_iter()} (v5.10): {@code bi_sector += bytes >> 9},
     * then either shrink {@code bi_size} (ops without payload) or walk the table.
     */
    public static void bioAdvanceIter(Bio bio, BvecIter iter, int bytes) {
        iter.biSector += bytes >>> SECTOR_SHIFT;
        if (bioNoAdvanceIter(bio)) {
            iter.biSize -= bytes;
        } else {
            Bvec.bvecIterAdvance(bio.ioVec(), iter, bytes);
        }
    }

    /**
     * include/linux/bio.h: {@code __bio_for_each_segment(bvl, bio, iter, start)}: the
     * single-page segments from {@code start} on, {@code iter} being the caller's loop variable
     * (reset to {@code start} now, advanced after each body; a {@code break} leaves it at the
     * segment it broke on, as in C). Use with a for-each loop.
     */
    public static Iterable<BioVec> __bioForEachSegment(Bio bio, BvecIter iter, BvecIter start) {
        iter.set(start);
        return new Iterable<BioVec>() {
            @Override
            public Iterator<BioVec> iterator() {
                return new SegmentIterator(bio, iter);
            }
        };
    }

    /**
     * include/linux/bio.h: {@code bio_for_each_segment(bvl, bio, iter)}: from
     * {@code bio->bi_iter}. After the block layer completed a bio its {@code bi_iter} is consumed
     * ({@code bi_size == 0}) and this yields nothing: end_io code must use
     * {@link #__bioForEachSegment} with an iterator saved at submit time.
     */
    public static Iterable<BioVec> bioForEachSegment(Bio bio, BvecIter iter) {
        return __bioForEachSegment(bio, iter, bio.biIter);
    }

    /**
     * include/linux/bio.h: {@code bio_for_each_bvec(bvl, bio, iter)}: multi-page bvecs; the same as
     * {@link #bioForEachSegment} in the model, where bvecs never span pages.
     */
    public static Iterable<BioVec> bioForEachBvec(Bio bio, BvecIter iter) {
        return bioForEachSegment(bio, iter);
    }

    /**
     * include/linux/bio.h: {@code bio_for_each_segment_all(bvl, bio, iter_all)}: every bvec of
     * {@code bi_io_vec[0..bi_vcnt)}, whatever {@code bi_iter} says. Only the owner of the table
     * may do this ("drivers should _never_ use the all version - the bio may have been split
     * before it got to the driver and the driver won't own all of it"): on a fast clone
     * {@code bi_vcnt} is 0 and the walk would silently see nothing.
     *
     * <p>The v5.10 macro itself does not check; its siblings {@code bio_first_bvec_all()} and
     * {@code bio_last_bvec_all()} carry {@code WARN_ON_ONCE(bio_flagged(bio, BIO_CLONED))}. The
     * model makes the contract a check: on a {@code BIO_CLONED} bio this is a {@code bug-on}.
     */
    public static Iterable<BioVec> bioForEachSegmentAll(Bio bio) {
        Kernel.WARN_ON(bioFlagged(bio, BIO_CLONED), "bio_for_each_segment_all() on cloned " + bio
                + ": a fast clone does not own bi_io_vec and has bi_vcnt == 0");
        final BioVec[] table = bio.ioVec();
        final int vcnt = bio.biVcnt;
        return new Iterable<BioVec>() {
            @Override
            public Iterator<BioVec> iterator() {
                return new Iterator<BioVec>() {
                    private int idx;

                    @Override
                    public boolean hasNext() {
                        return idx < vcnt;
                    }

                    @Override
                    public BioVec next() {
                        if (idx >= vcnt) {
                            throw new NoSuchElementException();
                        }
                        bio.touch();
                        return table[idx++].copy();
                    }
                };
            }
        };
    }

    /** include/linux/bio.h: {@code bio_first_bvec_all()}: {@code WARN_ON_ONCE} on a clone. */
    public static BioVec bioFirstBvecAll(Bio bio) {
        Kernel.WARN_ON(bioFlagged(bio, BIO_CLONED), "bio_first_bvec_all() on cloned " + bio);
        return bio.ioVec()[0];
    }

    /** include/linux/bio.h: {@code bio_first_page_all()}. */
    public static Page bioFirstPageAll(Bio bio) {
        return bioFirstBvecAll(bio).bvPage;
    }

    /** include/linux/bio.h: {@code bio_last_bvec_all()}: {@code WARN_ON_ONCE} on a clone. */
    public static BioVec bioLastBvecAll(Bio bio) {
        Kernel.WARN_ON(bioFlagged(bio, BIO_CLONED), "bio_last_bvec_all() on cloned " + bio);
        return bio.ioVec()[bio.biVcnt - 1];
    }

    /**
     * include/linux/bio.h: {@code bio_segments()} (v5.10): segments from {@code bi_iter} on (0 for
     * discard-like ops, 1 for WRITE_SAME).
     */
    public static int bioSegments(Bio bio) {
        switch (bioOp(bio)) {
            case REQ_OP_DISCARD:
            case REQ_OP_SECURE_ERASE:
            case REQ_OP_WRITE_ZEROES:
                return 0;
            case REQ_OP_WRITE_SAME:
                return 1;
            default:
                break;
        }
        int segs = 0;
        BvecIter iter = new BvecIter();
        for (BioVec bv : bioForEachSegment(bio, iter)) {
            segs++;
        }
        return segs;
    }

    /** The loop of {@code __bio_for_each_segment}: test, body, {@code bio_advance_iter(bv_len)}. */
    private static final class SegmentIterator implements Iterator<BioVec> {
        private final Bio bio;
        private final BvecIter iter;
        /** Length of the segment handed out last, to advance by before the next test. */
        private int pending;

        SegmentIterator(Bio bio, BvecIter iter) {
            this.bio = bio;
            this.iter = iter;
        }

        @Override
        public boolean hasNext() {
            if (pending != 0) {
                bioAdvanceIter(bio, iter, pending);
                pending = 0;
            }
            return iter.biSize != 0;
        }

        @Override
        public BioVec next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            BioVec bv = bioIterIovec(bio, iter);
            // The kernel would spin here forever; the model has no scheduling point in this loop.
            Kernel.BUG_ON(bv.bvLen == 0, "empty segment with " + iter.biSize + " bytes left: " + bio + " iter " + iter);
            pending = bv.bvLen;
            return bv;
        }
    }

    /** Name, iterator and counts, for reports. */
    public String describe() {
        return name() + " (" + BlkTypes.opfName(biOpf) + ", iter " + biIter + ", vcnt " + biVcnt + "/" + biMaxVecs
                + ", cnt " + biCnt.peek() + ", flags 0x" + Integer.toHexString(biFlags) + ", status "
                + BlkTypes.statusName(biStatus) + (biIoVecOwner != this && biIoVecOwner != null
                        ? ", table of " + biIoVecOwner.name() : "") + ")";
    }

    /** {@code BIO_CHAIN} is set. */
    static boolean chained(Bio bio) {
        return bioFlagged(bio, BIO_CHAIN);
    }
}
