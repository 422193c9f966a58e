package kmodel.block;

import kmodel.mm.Page;

/**
 * include/linux/bvec.h: {@code struct bio_vec}: a contiguous range of a page. In the model every
 * bvec lies within one page ({@code bvOffset + bvLen <= PAGE_SIZE}): model pages have no physical
 * addresses, so the multi-page bvecs of v5.1+ never form (see {@link BlockBio#bioAddPage}).
 */
public final class BioVec {
    /** {@code bv_page}. */
    public Page bvPage;
    /** {@code bv_len}. */
    public int bvLen;
    /** {@code bv_offset}. */
    public int bvOffset;

    public BioVec(Page page, int len, int offset) {
        this.bvPage = page;
        this.bvLen = len;
        this.bvOffset = offset;
    }

    /** A copy (bvecs are returned by value by the iteration macros). */
    public BioVec copy() {
        return new BioVec(bvPage, bvLen, bvOffset);
    }

    @Override
    public String toString() {
        return "{" + bvPage + " +" + bvOffset + " len " + bvLen + "}";
    }
}
