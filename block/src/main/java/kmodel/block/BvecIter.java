package kmodel.block;

/**
 * include/linux/bvec.h: {@code struct bvec_iter}, a position in a bvec table. A value type in the
 * kernel (assigned by copy: {@code bio->bi_iter = src->bi_iter}); here a mutable holder copied
 * with {@link #set} and {@link #copy}.
 *
 * <p>Invariant (checked by {@link BioChecks}): while {@code biSize > 0}, {@code biIdx} names a
 * bvec of the table and {@code biBvecDone < bv[biIdx].bvLen}; the bytes left in the table from
 * there cover {@code biSize}.
 */
public final class BvecIter {
    /** {@code bi_sector}: device address in 512-byte sectors. */
    public long biSector;
    /** {@code bi_size}: residual I/O count in bytes (unsigned in the kernel; below 2^31 here). */
    public int biSize;
    /** {@code bi_idx}: current index into the bvec table. */
    public int biIdx;
    /** {@code bi_bvec_done}: bytes completed in the current bvec. */
    public int biBvecDone;

    public BvecIter() {
    }

    /** A copy ({@code struct bvec_iter iter = other;}). */
    public BvecIter copy() {
        BvecIter c = new BvecIter();
        c.set(this);
        return c;
    }

    /** Assignment ({@code *this = *src}). */
    public void set(BvecIter src) {
        biSector = src.biSector;
        biSize = src.biSize;
        biIdx = src.biIdx;
        biBvecDone = src.biBvecDone;
    }

    @Override
    public String toString() {
        return "{sector " + biSector + ", size " + biSize + ", idx " + biIdx + ", done " + biBvecDone + "}";
    }
}
