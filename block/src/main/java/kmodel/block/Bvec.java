package kmodel.block;

import kmodel.kernel.Kernel;
import kmodel.mm.Page;

/**
 * include/linux/bvec.h (v5.10): iterating a bvec table with a {@link BvecIter}. The
 * {@code mp_bvec_iter_*} helpers give the (possibly multi-page) bvec at the iterator, the
 * {@code bvec_iter_*} ones the single-page segment; in the model both coincide because bvecs
 * never span pages (a multi-page bvec is reported as {@code bug-on}).
 */
public final class Bvec {
    private Bvec() {
    }

    /** {@code __bvec_iter_bvec(bvec, iter)}: {@code &bvec[iter.bi_idx]}. */
    public static BioVec __bvecIterBvec(BioVec[] bvec, BvecIter iter) {
        return bvec[iter.biIdx];
    }

    /** {@code mp_bvec_iter_len(bvec, iter)}: {@code min(bi_size, bv_len - bi_bvec_done)}. */
    public static int mpBvecIterLen(BioVec[] bvec, BvecIter iter) {
        return Math.min(iter.biSize, __bvecIterBvec(bvec, iter).bvLen - iter.biBvecDone);
    }

    /** {@code mp_bvec_iter_offset(bvec, iter)}: {@code bv_offset + bi_bvec_done}. */
    public static int mpBvecIterOffset(BioVec[] bvec, BvecIter iter) {
        return __bvecIterBvec(bvec, iter).bvOffset + iter.biBvecDone;
    }

    /** {@code bvec_iter_offset(bvec, iter)}: the offset within the page. */
    public static int bvecIterOffset(BioVec[] bvec, BvecIter iter) {
        return mpBvecIterOffset(bvec, iter) % Page.PAGE_SIZE;
    }

    /** {@code bvec_iter_len(bvec, iter)}: the segment length, clipped to the page. */
    public static int bvecIterLen(BioVec[] bvec, BvecIter iter) {
        return Math.min(mpBvecIterLen(bvec, iter), Page.PAGE_SIZE - bvecIterOffset(bvec, iter));
    }

    /**
     * {@code bvec_iter_page(bvec, iter)}: {@code mp_bvec_iter_page + mp_bvec_iter_page_idx}. The
     * model has no {@code page + n}: a segment beyond the bvec's first page is a {@code bug-on}.
     */
    public static Page bvecIterPage(BioVec[] bvec, BvecIter iter) {
        BioVec bv = __bvecIterBvec(bvec, iter);
        int pageIdx = mpBvecIterOffset(bvec, iter) / Page.PAGE_SIZE;
        Kernel.BUG_ON(pageIdx != 0, "multi-page bvec " + bv + " (model pages have no physical neighbours)");
        return bv.bvPage;
    }

    /** {@code bvec_iter_bvec(bvec, iter)}: the single-page segment at {@code iter}, by value. */
    public static BioVec bvecIterBvec(BioVec[] bvec, BvecIter iter) {
        return new BioVec(bvecIterPage(bvec, iter), bvecIterLen(bvec, iter), bvecIterOffset(bvec, iter));
    }

    /**
     * include/linux/bvec.h: {@code bvec_iter_advance()} (v5.10): moves {@code iter} on by
     * {@code bytes}: {@code bi_size} shrinks, {@code bi_idx}/{@code bi_bvec_done} walk the table.
     * Advancing past the end is {@code WARN_ONCE(bytes > iter->bi_size, "Attempted to advance
     * past end of bvec iter")}; the model treats the warning as a failed check.
     */
    public static boolean bvecIterAdvance(BioVec[] bv, BvecIter iter, int bytes) {
        int idx = iter.biIdx;
        if (Kernel.WARN_ON(Integer.compareUnsigned(bytes, iter.biSize) > 0,
                "Attempted to advance past end of bvec iter (" + bytes + " > " + iter.biSize + ")")) {
            iter.biSize = 0;
            return false;
        }
        iter.biSize -= bytes;
        bytes += iter.biBvecDone;
        while (bytes != 0 && bytes >= bv[idx].bvLen) {
            bytes -= bv[idx].bvLen;
            idx++;
        }
        iter.biIdx = idx;
        iter.biBvecDone = bytes;
        return true;
    }
}
