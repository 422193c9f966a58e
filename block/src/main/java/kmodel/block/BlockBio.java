package kmodel.block;

import kmodel.kernel.sched.Work;
import static kmodel.block.BlkTypes.BIO_CLONED;
import static kmodel.block.BlkTypes.BIO_INLINE_VECS;
import static kmodel.block.BlkTypes.BIO_REFFED;
import static kmodel.block.BlkTypes.REQ_OP_DISCARD;
import static kmodel.block.BlkTypes.REQ_OP_READ;
import static kmodel.block.BlkTypes.REQ_OP_SECURE_ERASE;
import static kmodel.block.BlkTypes.REQ_OP_WRITE_SAME;
import static kmodel.block.BlkTypes.REQ_OP_WRITE_ZEROES;
import static kmodel.block.BlkTypes.REQ_SYNC;
import static kmodel.block.BlkTypes.SECTOR_SHIFT;

import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.Completion;
import kmodel.mm.Page;

/**
 * block/bio.c (v5.10, with {@code bio_clone_bioset()} and {@code bio_clone_bioset_partial()} as
 * they were in v4.13): allocating, building, cloning, splitting, completing and freeing bios.
 *
 * <h2>Implementation notes</h2>
 *
 * <h3>Clones</h3>
 * Two ways to copy a bio, which seed 001 ("Btrfs: use bio_clone_fast", v4.13) switches between:
 * <ul>
 *   <li>(a) {@link #bioCloneBioset} (v4.13): a new table with one bvec per segment of the
 *       source's {@code bi_iter}; the clone owns its data description, {@code bi_vcnt} is the
 *       number of segments, {@code bi_iter} starts at index 0. Not {@code BIO_CLONED}.</li>
 *   <li>(b) {@link #bioCloneFast}: no table; {@code bi_io_vec} points at the source's,
 *       {@code bi_iter} is copied by value (so it may start mid-table and mid-bvec),
 *       {@code bi_vcnt} stays 0, {@code BIO_CLONED} is set, and no reference is taken on the
 *       source.</li>
 * </ul>
 * After (b), only iterator-based walks are correct on the clone, and only while the table owner
 * lives. {@link #bioTrim} and {@link #bioSplit} build on (b).
 *
 * <h3>Completion</h3>
 * {@link #bioEndio} runs {@code bi_end_io} once every chained child has completed
 * ({@code __bi_remaining}); chained children hand their status to the parent and are put.
 */
public final class BlockBio {
    private BlockBio() {
    }

    /** block/bio.c: {@code bio_chain_endio()}; {@code bio_endio()} compares {@code bi_end_io} against it. */
    public static final BioEndIo BIO_CHAIN_ENDIO = new BioEndIo() {
        @Override
        public void endIo(Bio bio) {
            bioEndio(__bioChainEndio(bio));
        }

        @Override
        public String toString() {
            return "bio_chain_endio";
        }
    };

    // ------------------------------------------------------------------ allocation and freeing

    /**
     * block/bio.c: {@code bio_init()}: {@code __bi_remaining = __bi_cnt = 1}, table and size, all
     * else zero.
     */
    static void bioInit(Bio bio, BioVec[] table, int maxVecs) {
        bio.biIoVec = table;
        bio.biIoVecOwner = table != null ? bio : null;
        bio.biMaxVecs = maxVecs;
    }

    /**
     * block/bio.c: {@code bio_alloc_bioset(gfp, nr_iovecs, bs)} (v5.10): a bio from {@code bs}
     * with room for {@code nrIovecs} bvecs ({@code bi_max_vecs = nr_iovecs}; the kernel uses the
     * inline vecs up to {@value BlkTypes#BIO_INLINE_VECS} and a bvec pool allocation beyond).
     * Never fails (mempool; GFP flags are not modelled).
     */
    public static Bio bioAllocBioset(int nrIovecs, BioSet bs) {
        Kernel.rt().work(Work.BIO_ALLOC, 1);
        Bio bio = bs.factory.newBio(bs.layer.nextBioName());
        bioInit(bio, nrIovecs > 0 ? new BioVec[nrIovecs] : null, nrIovecs);
        bio.biPool = bs;
        return bio;
    }

    /** include/linux/bio.h: {@code bio_alloc(gfp, nr_iovecs)}: from {@code fs_bio_set}. */
    public static Bio bioAlloc(BlockLayer layer, int nrIovecs) {
        return bioAllocBioset(nrIovecs, layer.fsBioSet);
    }

    /** block/bio.c: {@code bio_free()}: the bio, and the table it owns, go back to the bio set. */
    private static void bioFree(Bio bio) {
        Kernel.event("bio_free(%s)", bio);
        bio.markFreed();
    }

    /**
     * block/bio.c: {@code bio_put()} (v5.10): a bio never {@code bio_get()}-ed is freed at once;
     * otherwise the last reference frees it. A put on a freed bio, or below zero, is a
     * {@code double-release} (the kernel's {@code BIO_BUG_ON(!atomic_read(&bio->__bi_cnt))}).
     */
    public static void bioPut(Bio bio) {
        if (bio.isFreed()) {
            Kernel.fail(ViolationKind.DOUBLE_RELEASE, "bio_put(" + bio + ") on a freed bio");
        }
        if (!Bio.bioFlagged(bio, BIO_REFFED)) {
            bioFree(bio);
            return;
        }
        int now = bio.biCnt.decReturn();
        if (now < 0) {
            Kernel.fail(ViolationKind.DOUBLE_RELEASE, "bio_put(" + bio + "): __bi_cnt dropped below zero");
        }
        if (now == 0) {
            bioFree(bio);
        }
    }

    // ------------------------------------------------------------------ chaining and completion

    /** block/bio.c: {@code __bio_chain_endio()}: hand the status to the parent, put the child. */
    static Bio __bioChainEndio(Bio bio) {
        Bio parent = (Bio) bio.biPrivate;
        if (bio.biStatus != 0 && parent.biStatus == 0) {
            parent.biStatus = bio.biStatus;
        }
        bioPut(bio);
        return parent;
    }

    /**
     * block/bio.c: {@code bio_chain(bio, parent)}: {@code parent}'s end_io waits for {@code bio}
     * too; {@code bio} is put when it completes. {@code BUG_ON(bio->bi_private || bio->bi_end_io)}.
     */
    public static void bioChain(Bio bio, Bio parent) {
        Kernel.BUG_ON(bio.biPrivate != null || bio.biEndIo != null,
                "bio_chain(" + bio + "): bi_private or bi_end_io already set");
        bio.biPrivate = parent;
        bio.biEndIo = BIO_CHAIN_ENDIO;
        Bio.bioIncRemaining(parent);
    }

    /**
     * block/bio.c: {@code bio_remaining_done()}: not chained, done; chained, done when this was
     * the last outstanding completion ({@code BUG_ON(atomic_read(&bio->__bi_remaining) <= 0)}).
     */
    static boolean bioRemainingDone(Bio bio) {
        if (!Bio.chained(bio)) {
            return true;
        }
        Kernel.BUG_ON(bio.biRemaining.read() <= 0, "bio_remaining_done(" + bio + "): __bi_remaining <= 0");
        if (bio.biRemaining.decAndTest()) {
            Bio.bioClearFlag(bio, BlkTypes.BIO_CHAIN);
            return true;
        }
        return false;
    }

    /**
     * block/bio.c: {@code bio_endio()} (v5.10): once no chained completion is outstanding, run
     * {@code bi_end_io}; a chained child's completion is unrolled iteratively into its parent's.
     */
    public static void bioEndio(Bio bio) {
        for (;;) {
            bio.touch();
            if (!bioRemainingDone(bio)) {
                return;
            }
            if (bio.biEndIo == BIO_CHAIN_ENDIO) {
                bio = __bioChainEndio(bio);
                continue;
            }
            if (BlkTypes.tracing()) {
                Kernel.event("bio_endio(%s) %s", bio, BlkTypes.statusName(bio.biStatus));
            }
            if (bio.biEndIo != null) {
                bio.biEndIo.endIo(bio);
            }
            return;
        }
    }

    // ------------------------------------------------------------------ building

    /**
     * block/bio.c: {@code page_is_mergeable()} (v5.10) for the model's pages: the kernel merges
     * when the new range starts at the physical address right after the last bvec (same page or
     * the physically next one). Model pages have no physical address, so only a range of the same
     * page that starts where the last bvec ends merges; multi-page bvecs never form.
     */
    static boolean pageIsMergeable(BioVec bv, Page page, int len, int off) {
        return bv.bvPage == page && bv.bvOffset + bv.bvLen == off;
    }

    /**
     * block/bio.c: {@code __bio_try_merge_page()} (v5.10): grow the last bvec if the range is
     * contiguous with it. {@code WARN_ON_ONCE(bio_flagged(bio, BIO_CLONED))}.
     */
    public static boolean __bioTryMergePage(Bio bio, Page page, int len, int off) {
        if (Kernel.WARN_ON(Bio.bioFlagged(bio, BIO_CLONED), "__bio_try_merge_page() on cloned " + bio)) {
            return false;
        }
        if (bio.biVcnt > 0) {
            BioVec bv = bio.ioVec()[bio.biVcnt - 1];
            if (pageIsMergeable(bv, page, len, off)) {
                if (Integer.toUnsignedLong(bio.biIter.biSize) > 0xffffffffL - len) {
                    return false;
                }
                bv.bvLen += len;
                bio.biIter.biSize += len;
                return true;
            }
        }
        return false;
    }

    /**
     * block/bio.c: {@code __bio_add_page()}: a new bvec at {@code bi_io_vec[bi_vcnt++]}; the caller
     * checked {@code bio_full()}. {@code WARN_ON_ONCE} on a clone or a full bio.
     */
    public static void __bioAddPage(Bio bio, Page page, int len, int off) {
        Kernel.WARN_ON(Bio.bioFlagged(bio, BIO_CLONED), "__bio_add_page() on cloned " + bio);
        Kernel.WARN_ON(Bio.bioFull(bio, len), "__bio_add_page() on full " + bio);
        bio.ioVec()[bio.biVcnt] = new BioVec(page, len, off);
        bio.biIter.biSize += len;
        bio.biVcnt++;
    }

    /**
     * block/bio.c: {@code bio_add_page(bio, page, len, offset)} (v5.10): merge into the last bvec
     * if contiguous, else take a new bvec unless {@code bio_full()}. Returns {@code len}, or 0 when
     * the bio is full (the caller submits it and starts a new one).
     *
     * <p>The only limits here are {@code bi_max_vecs} and the 32-bit size; the queue's
     * {@code max_sectors}/{@code max_segments} are enforced when the bio is submitted
     * ({@link BlkMerge#__blkQueueSplit}), as in v5.10 (only {@code bio_add_pc_page()} and
     * {@code bio_add_hw_page()}, not modelled, check queue limits while building).
     */
    public static int bioAddPage(Bio bio, Page page, int len, int offset) {
        bio.touch();
        Kernel.rt().work(Work.BIO_ADD_PAGE, 1);
        Kernel.BUG_ON(offset < 0 || len <= 0 || offset + len > Page.PAGE_SIZE,
                "bio_add_page(" + bio + ", " + page + ", " + len + ", " + offset + "): range outside the page");
        if (!__bioTryMergePage(bio, page, len, offset)) {
            if (Bio.bioFull(bio, len)) {
                return 0;
            }
            __bioAddPage(bio, page, len, offset);
        }
        return len;
    }

    /**
     * block/bio.c: {@code bio_advance()} (v5.10): {@code bio_advance_iter(bio, &bio->bi_iter,
     * bytes)}; what the block layer does as it completes a bio's bytes ({@code req_bio_endio()}),
     * leaving {@code bi_size == 0} when it calls {@code bio_endio()}.
     */
    public static void bioAdvance(Bio bio, int bytes) {
        bio.touch();
        Bio.bioAdvanceIter(bio, bio.biIter, bytes);
    }

    // ------------------------------------------------------------------ cloning

    /**
     * block/bio.c: {@code __bio_clone_fast(bio, bio_src)} (v5.10): share the source's table and copy
     * its iterator by value; {@code bi_vcnt} stays 0. {@code BUG_ON(bio->bi_pool &&
     * BVEC_POOL_IDX(bio))}: the target must not own a pool-allocated table.
     */
    public static void __bioCloneFast(Bio bio, Bio bioSrc) {
        Kernel.BUG_ON(bio.biPool != null && bio.biMaxVecs > BIO_INLINE_VECS,
                "__bio_clone_fast(" + bio + "): target owns a bvec table");
        bioSrc.touch();
        bio.biDisk = bioSrc.biDisk;
        Bio.bioSetFlag(bio, BIO_CLONED);
        bio.biOpf = bioSrc.biOpf;
        bio.biIter.set(bioSrc.biIter);
        bio.biIoVec = bioSrc.biIoVec;
        bio.biIoVecOwner = bioSrc.biIoVecOwner;
    }

    /**
     * block/bio.c: {@code bio_clone_fast(bio, gfp, bs)} (v5.10; same in v4.13): a bio with no
     * table of its own ({@code bio_alloc_bioset(gfp, 0, bs)}) cloned with
     * {@link #__bioCloneFast}. "Caller will own the returned bio, but not the actual data it
     * points to": no reference is taken on {@code bio}, which must outlive the clone.
     */
    public static Bio bioCloneFast(Bio bio, BioSet bs) {
        Bio b = bioAllocBioset(0, bs);
        Kernel.rt().work(Work.BIO_CLONE, 1);
        __bioCloneFast(b, bio);
        if (BlkTypes.tracing()) {
            Kernel.event("bio_clone_fast(%s) = %s iter %s", bio, b, b.biIter);
        }
        return b;
    }

    /**
     * block/bio.c: {@code bio_clone_bioset(bio_src, gfp, bs)} as in v4.13 (removed in v4.18): a bio
     * with its own table of {@code bio_segments(bio_src)} bvecs, filled from the source's
     * {@code bi_iter} ({@code bio->bi_io_vec[bio->bi_vcnt++] = bv}); {@code bi_iter} starts at
     * index 0 with the source's sector and size. WRITE_SAME copies only {@code bi_io_vec[0]};
     * DISCARD, SECURE_ERASE and WRITE_ZEROES copy none. Not {@code BIO_CLONED}.
     */
    public static Bio bioCloneBioset(Bio bioSrc, BioSet bs) {
        return __bioCloneBioset(bioSrc, bs, 0, bioSrc.biIter.biSize);
    }

    /**
     * block/bio.c: {@code bio_clone_bioset_partial(bio_src, gfp, bs, offset, size)} (v4.11 to
     * v4.17): {@link #bioCloneBioset} of the byte window {@code [offset, offset + size)} of the
     * source's data.
     */
    public static Bio bioCloneBiosetPartial(Bio bioSrc, BioSet bs, int offset, int size) {
        return __bioCloneBioset(bioSrc, bs, offset, size);
    }

    /** block/bio.c: {@code __bio_clone_bioset()} (v4.13): the common body of the two above. */
    private static Bio __bioCloneBioset(Bio bioSrc, BioSet bs, int offset, int size) {
        bioSrc.touch();
        BvecIter iterSrc = bioSrc.biIter.copy();
        if (offset != 0 || size != bioSrc.biIter.biSize) {
            Bio.bioAdvanceIter(bioSrc, iterSrc, offset);
            iterSrc.biSize = size;
        }
        int segs = 0;
        BvecIter iter = new BvecIter();
        for (BioVec bv : Bio.__bioForEachSegment(bioSrc, iter, iterSrc)) {
            segs++;
        }
        Bio bio = bioAllocBioset(segs, bs);
        Kernel.rt().work(Work.BIO_CLONE, 1);
        Kernel.rt().work(Work.BVEC_COPY_BYTES, (long) segs * BlkTypes.SIZEOF_BIO_VEC);
        bio.biDisk = bioSrc.biDisk;
        bio.biOpf = bioSrc.biOpf;
        bio.biIter.biSector = iterSrc.biSector;
        bio.biIter.biSize = iterSrc.biSize;
        switch (Bio.bioOp(bio)) {
            case REQ_OP_DISCARD:
            case REQ_OP_SECURE_ERASE:
            case REQ_OP_WRITE_ZEROES:
                break;
            case REQ_OP_WRITE_SAME:
                bio.ioVec()[bio.biVcnt++] = bioSrc.ioVec()[0].copy();
                break;
            default:
                for (BioVec bv : Bio.__bioForEachSegment(bioSrc, iter, iterSrc)) {
                    bio.ioVec()[bio.biVcnt++] = bv;
                }
                break;
        }
        if (BlkTypes.tracing()) {
            Kernel.event("bio_clone_bioset(%s) = %s, %s bvecs", bioSrc, bio, bio.biVcnt);
        }
        return bio;
    }

    /**
     * block/bio.c: {@code bio_trim(bio, offset, size)} (v5.10), in sectors: keep the window
     * {@code [offset, offset + size)} of the bio's current data, by advancing {@code bi_iter}
     * (which moves {@code bi_idx}/{@code bi_bvec_done} within the shared table) and setting
     * {@code bi_size}. A no-op when the window is already the whole bio. Like v5.10 it does not
     * check that the window fits (v5.16 added a {@code WARN_ON_ONCE}); an oversized window
     * breaks {@link BioChecks#checkInvariants}. Bug {@link BlockBugs#BIO_TRIM_RELIES_ON_BI_VCNT}
     * runs the pre-immutable-biovec body instead ({@link #mdTrimBio}).
     */
    public static void bioTrim(Bio bio, int offset, int size) {
        if (Kernel.bug(BlockBugs.BIO_TRIM_RELIES_ON_BI_VCNT)) {
            mdTrimBio(bio, offset, size);
            return;
        }
        size <<= SECTOR_SHIFT;
        if (offset == 0 && size == bio.biIter.biSize) {
            return;
        }
        bioAdvance(bio, offset << SECTOR_SHIFT);
        bio.biIter.biSize = size;
    }

    /**
     * drivers/md/md.c: {@code md_trim_bio(bio, offset, size)} (v3.1 to v3.13), in sectors: the
     * body of bio trimming before immutable biovecs, run by bug
     * {@link BlockBugs#BIO_TRIM_RELIES_ON_BI_VCNT}. It moves {@code bi_sector} and {@code bi_size},
     * then edits the table: whole bvecs before the window are skipped ({@code bi_idx++}), the first
     * one kept is shortened in place, the kept ones are moved down to index 0 ({@code memmove}), and
     * the last is cut to the window, lowering {@code bi_vcnt}. Every step walks
     * {@code bi_io_vec[bi_idx..bi_vcnt)}: right for md's {@code bio_clone_mddev()} clones, which
     * own their table; on a fast clone ({@code bi_vcnt == 0}) nothing of the table moves.
     * ({@code BIO_SEG_VALID}, cleared there, is not modelled.) The model's bvecs are objects: the
     * {@code memmove} copies them so that two slots never alias one bvec.
     */
    private static void mdTrimBio(Bio bio, int offset, int size) {
        size <<= SECTOR_SHIFT;
        if (offset == 0 && size == bio.biIter.biSize) {
            return;
        }
        bio.biIter.biSector += offset;
        bio.biIter.biSize = size;
        offset <<= SECTOR_SHIFT;
        /* && short-circuits as in C: a bio with bi_vcnt == 0 never reads its table here */
        while (bio.biIter.biIdx < bio.biVcnt && bio.ioVec()[bio.biIter.biIdx].bvLen <= offset) {
            /* remove this whole bio_vec */
            offset -= bio.ioVec()[bio.biIter.biIdx].bvLen;
            bio.biIter.biIdx++;
        }
        if (bio.biIter.biIdx < bio.biVcnt) {
            BioVec first = bio.ioVec()[bio.biIter.biIdx];
            first.bvOffset += offset;
            first.bvLen -= offset;
        }
        /* avoid any complications with bi_idx being non-zero */
        if (bio.biIter.biIdx != 0) {
            BioVec[] table = bio.ioVec();
            for (int i = 0; i < bio.biVcnt - bio.biIter.biIdx; i++) {
                table[i] = table[i + bio.biIter.biIdx].copy();
            }
            bio.biVcnt -= bio.biIter.biIdx;
            bio.biIter.biIdx = 0;
        }
        /* Make sure vcnt and last bv are not too big (v3.13's bio_for_each_segment: bi_idx..bi_vcnt) */
        int sofar = 0;
        for (int i = bio.biIter.biIdx; i < bio.biVcnt; i++) {
            BioVec bvec = bio.ioVec()[i];
            if (sofar + bvec.bvLen > size) {
                bvec.bvLen = size - sofar;
            }
            if (bvec.bvLen == 0) {
                bio.biVcnt = i;
                break;
            }
            sofar += bvec.bvLen;
        }
    }

    /**
     * block/bio.c: {@code bio_split(bio, sectors, gfp, bs)} (v5.10): a fast clone covering the
     * first {@code sectors} of {@code bio}, which is advanced past them. The split shares
     * {@code bio}'s table: {@code bio} must outlive it (callers chain the split to it).
     * {@code BUG_ON(sectors <= 0)}, {@code BUG_ON(sectors >= bio_sectors(bio))}.
     */
    public static Bio bioSplit(Bio bio, int sectors, BioSet bs) {
        Kernel.BUG_ON(sectors <= 0, "bio_split(" + bio + ", " + sectors + "): sectors <= 0");
        Kernel.BUG_ON(sectors >= Bio.bioSectors(bio), "bio_split(" + bio + ", " + sectors
                + "): not less than bio_sectors " + Bio.bioSectors(bio));
        Bio split = bioCloneFast(bio, bs);
        split.biIter.biSize = sectors << SECTOR_SHIFT;
        if (Kernel.bug(BlockBugs.BIO_SPLIT_ADVANCES_SECTOR_ONLY)) {
            bio.biIter.biSector += sectors;
            bio.biIter.biSize -= split.biIter.biSize;
        } else {
            bioAdvance(bio, split.biIter.biSize);
        }
        if (Bio.bioFlagged(bio, BlkTypes.BIO_TRACE_COMPLETION)) {
            Bio.bioSetFlag(split, BlkTypes.BIO_TRACE_COMPLETION);
        }
        return split;
    }

    /**
     * block/bio.c: {@code bio_truncate(bio, new_size)} (v5.10): shrink {@code bi_size}; for a read,
     * zero the part of the pages beyond {@code new_size} (the table itself is not touched, so
     * end_io can still find every page with {@code bio_for_each_segment_all}).
     */
    public static void bioTruncate(Bio bio, int newSize) {
        if (Integer.compareUnsigned(newSize, bio.biIter.biSize) >= 0) {
            return;
        }
        if (Bio.bioOp(bio) == REQ_OP_READ) {
            int done = 0;
            boolean truncated = false;
            BvecIter iter = new BvecIter();
            for (BioVec bv : Bio.bioForEachSegment(bio, iter)) {
                if (done + bv.bvLen > newSize) {
                    int offset = truncated ? 0 : newSize - done;
                    bv.bvPage.touch();
                    for (int i = bv.bvOffset + offset; i < bv.bvOffset + bv.bvLen; i++) {
                        bv.bvPage.data[i] = 0;
                    }
                    truncated = true;
                }
                done += bv.bvLen;
            }
        }
        bio.biIter.biSize = newSize;
    }

    /**
     * block/bio.c: {@code guard_bio_eod()} (v5.10): a bio that runs past the end of the disk is
     * truncated to it; one that starts beyond the end is let through (submit turns it into EIO).
     */
    public static void guardBioEod(Bio bio) {
        long maxsector = bio.biDisk.capacity();
        if (maxsector == 0) {
            return;
        }
        if (bio.biIter.biSector >= maxsector) {
            return;
        }
        maxsector -= bio.biIter.biSector;
        if (Integer.toUnsignedLong(bio.biIter.biSize >>> SECTOR_SHIFT) <= maxsector) {
            return;
        }
        bioTruncate(bio, (int) (maxsector << SECTOR_SHIFT));
    }

    // ------------------------------------------------------------------ synchronous I/O

    /** block/bio.c: {@code submit_bio_wait_endio()}: {@code complete(bio->bi_private)}. */
    private static final BioEndIo SUBMIT_BIO_WAIT_ENDIO = new BioEndIo() {
        @Override
        public void endIo(Bio bio) {
            Completion.complete((Completion) bio.biPrivate);
        }

        @Override
        public String toString() {
            return "submit_bio_wait_endio";
        }
    };

    /**
     * block/bio.c: {@code submit_bio_wait()} (v5.10): submit with {@code REQ_SYNC} and sleep
     * (uninterruptibly, {@code wait_for_completion_io}) until the bio completes; returns
     * {@code blk_status_to_errno(bi_status)}. The caller still owns the bio afterwards. Must not
     * be called in interrupt context.
     */
    public static int submitBioWait(Bio bio) {
        Completion done = new Completion(bio.name() + ".done");
        bio.biPrivate = done;
        bio.biEndIo = SUBMIT_BIO_WAIT_ENDIO;
        bio.biOpf |= REQ_SYNC;
        BlkCore.submitBio(bio);
        Completion.waitForCompletionIo(done);
        return BlkCore.blkStatusToErrno(bio.biStatus);
    }
}
