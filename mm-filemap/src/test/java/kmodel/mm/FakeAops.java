package kmodel.mm;

import java.util.List;
import java.util.TreeSet;
import kmodel.kernel.Kernel;

/**
 * A test double for {@code address_space_operations}: an in-memory "disk" whose reads complete
 * either synchronously (inside {@code ->readpage}/{@code ->readahead}) or from an interrupt task
 * per page (so the explorer picks the completion order), with injectable per-page read errors.
 * Counts what it was asked to read, separating read-ahead I/O ({@code REQ_RAHEAD}) from
 * {@code ->readpage} I/O.
 */
final class FakeAops implements AddressSpaceOperations {
    /** How a method of the kernel reaches the file system. */
    enum Mode {
        /** {@code ->readahead} and {@code ->readpage} (v5.8+ file systems, the block device). */
        READAHEAD,
        /** {@code ->readpages} and {@code ->readpage} (btrfs before v5.8). */
        READPAGES,
        /** {@code ->readpage} only. */
        READPAGE_ONLY
    }

    final Mode mode;
    final boolean viaIrq;
    final TreeSet<Long> badPages = new TreeSet<>();
    long fileSize;
    int readpageCalls;
    int raheadPages;
    int irqs;

    FakeAops(Mode mode, boolean viaIrq) {
        this.mode = mode;
        this.viaIrq = viaIrq;
    }

    /** The byte the "disk" holds at file position {@code pos}. */
    static byte byteAt(long pos) {
        return (byte) (pos * 7 + (pos >> 12) * 13 + 1);
    }

    @Override
    public int readpage(File file, Page page) {
        readpageCalls++;
        submit(page);
        return 0;
    }

    @Override
    public boolean hasReadahead() {
        return mode == Mode.READAHEAD;
    }

    @Override
    public void readahead(ReadaheadControl rac) {
        Page page;
        while ((page = rac.readaheadPage()) != null) {
            raheadPages++;
            submit(page);
            Page.putPage(page);
        }
    }

    @Override
    public boolean hasReadpages() {
        return mode == Mode.READPAGES;
    }

    @Override
    public int readpages(File file, AddressSpace mapping, List<Page> pages, int nrPages) {
        while (!pages.isEmpty()) {
            Page page = pages.remove(0);
            if (PageCache.addToPageCacheLru(page, mapping, page.index) == 0) {
                raheadPages++;
                submit(page);
            }
            Page.putPage(page);
        }
        return 0;
    }

    private void submit(Page page) {
        if (!viaIrq) {
            complete(page);
            return;
        }
        Kernel.rt().spawn("irq" + (irqs++), "irq", true, false, () -> complete(page));
    }

    /**
     * The end_io: fill the page (zeroes past EOF), mark it uptodate or in error, unlock it. A page
     * wholly past EOF needs no disk I/O (as block_read_full_page() zero-fills it), so it cannot
     * fail.
     */
    private void complete(Page page) {
        page.touch();
        long base = page.index << Page.PAGE_SHIFT;
        boolean bad = badPages.contains(page.index) && base < fileSize;
        for (int i = 0; i < Page.PAGE_SIZE; i++) {
            long pos = base + i;
            page.data[i] = bad || pos >= fileSize ? 0 : byteAt(pos);
        }
        if (bad) {
            PageFlags.SetPageError(page);
        } else {
            PageFlags.SetPageUptodate(page);
        }
        Filemap.unlockPage(page);
    }
}
