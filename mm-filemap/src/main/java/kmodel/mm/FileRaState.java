package kmodel.mm;

import kmodel.kernel.sched.Footprinted;

/**
 * include/linux/fs.h: {@code struct file_ra_state}: the read-ahead window. {@code start} and
 * {@code size} give the current window; when the reader reaches the page at
 * {@code start + size - async_size} (marked PG_readahead) the next window is read
 * asynchronously. {@code ra_pages == 0} disables read-ahead.
 *
 * <p>Shared by every task that reads through the same {@code struct file}, and read and written
 * without a lock, as in the kernel (a racy but tolerated heuristic): every step that touches it
 * reports it ({@code Kernel.accessRead}, {@code Kernel.access}), so that the partial-order
 * reduction orders two readers' uses of the window (the footprint audit found it unreported).
 */
public final class FileRaState extends Footprinted {
    /** Where the read-ahead window starts (page index). */
    public long start;
    /** Pages in the window. */
    public int size;
    /** Do asynchronous read-ahead when only this many pages of the window are left. */
    public int asyncSize;
    /** Maximum read-ahead window, in pages (0: read-ahead disabled). */
    public int raPages;
    /** {@code mmap_miss}: unused by the model's read path. */
    public int mmapMiss;
    /** Cache last read() position; -1 before the first read. */
    public long prevPos = -1;

    public FileRaState(int raPages) {
        this.raPages = raPages;
    }
}
