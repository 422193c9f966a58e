package kmodel.mm;

/**
 * include/linux/uio.h: {@code struct iov_iter}, reduced to one user buffer ({@code ITER_UBUF}):
 * where the read's bytes go and how many are still wanted.
 */
public final class IovIter {
    /** The destination buffer ("user memory"). */
    public final byte[] buf;
    /** Bytes already copied ({@code iov_offset}). */
    public int iovOffset;
    /** {@code count}: bytes still wanted. */
    public long count;

    public IovIter(int length) {
        this.buf = new byte[length];
        this.count = length;
    }

    /** include/linux/uio.h: {@code iov_iter_count()}. */
    public long iovIterCount() {
        return count;
    }

    /**
     * lib/iov_iter.c: {@code copy_page_to_iter()}: copies {@code bytes} from {@code page} at
     * {@code offset} into the buffer; returns the bytes copied. The caller holds a reference.
     */
    public int copyPageToIter(Page page, int offset, int bytes) {
        page.touch();
        int n = (int) Math.min(bytes, count);
        System.arraycopy(page.data, offset, buf, iovOffset, n);
        iovOffset += n;
        count -= n;
        return n;
    }

    /** lib/iov_iter.c: {@code iov_iter_revert()}: un-consume {@code unroll} bytes. */
    public void revert(int unroll) {
        iovOffset -= unroll;
        count += unroll;
    }
}
