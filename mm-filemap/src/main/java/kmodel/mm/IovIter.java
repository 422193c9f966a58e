package kmodel.mm;

import kmodel.kernel.Kernel;
import kmodel.kernel.sched.Work;

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

    /** A source iterator over {@code data} (a write's user buffer), all of it still to be consumed. */
    public IovIter(byte[] data) {
        this.buf = data;
        this.count = data.length;
    }

    /**
     * lib/iov_iter.c: {@code iov_iter_copy_from_user_atomic(page, i, offset, bytes)} (v5.10):
     * copies up to {@code bytes} from the iterator into {@code page} at {@code offset} without
     * advancing it; returns the bytes copied (the model's user memory never faults). The caller
     * holds the page locked and referenced.
     */
    public int copyFromUserAtomic(Page page, int offset, int bytes) {
        page.touch();
        int n = (int) Math.min(bytes, count);
        System.arraycopy(buf, iovOffset, page.data, offset, n);
        return n;
    }

    /** lib/iov_iter.c: {@code iov_iter_advance()}: consume {@code bytes}. */
    public void advance(int bytes) {
        iovOffset += bytes;
        count -= bytes;
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
        Kernel.rt().work(Work.COPY_BYTES, n);
        System.arraycopy(page.contentsSeen(), offset, buf, iovOffset, n);
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
