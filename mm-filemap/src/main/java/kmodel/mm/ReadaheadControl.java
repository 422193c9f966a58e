package kmodel.mm;

import java.util.ArrayList;

/**
 * include/linux/pagemap.h (v5.8+): {@code struct readahead_control}: a batch of consecutive
 * locked pages, already in the page cache, for {@code ->readahead}.
 *
 * <p>Read-ahead marking: every page a file system gets through a {@code ReadaheadControl}
 * ({@code ->readahead(rac)}) is read-ahead, and its bios carry {@code REQ_RAHEAD}, as
 * {@code mpage_readahead()} marks them; pages read by {@code ->readpage()} are not (see
 * {@link Readahead}). Filled by {@code page_cache_ra_unbounded()}: {@link #pages} grows by one
 * batch at a time and every batch is consumed before the next is added.
 */
public final class ReadaheadControl {
    /** {@code rac->file}. */
    public final File file;
    /** {@code rac->mapping}. */
    public final AddressSpace mapping;
    /** {@code _index}: the index of the first page not yet taken. */
    public long index;
    /** {@code _nr_pages}: pages not yet taken. */
    public int nrPages;
    /** {@code _batch_count}. */
    public int batchCount;
    /** The pages of the batch, in index order (the model's stand-in for the xarray walk). */
    public final ArrayList<Page> pages = new ArrayList<>();
    private int taken;

    public ReadaheadControl(File file, AddressSpace mapping, long index) {
        this.file = file;
        this.mapping = mapping;
        this.index = index;
    }

    /**
     * include/linux/pagemap.h: {@code readahead_page()}: the next page of the batch, with a
     * reference the caller must drop, or null when the batch is exhausted.
     */
    public Page readaheadPage() {
        index += batchCount;
        nrPages -= batchCount;
        batchCount = 0;
        if (nrPages == 0 || taken >= pages.size()) {
            return null;
        }
        Page p = pages.get(taken++);
        batchCount = 1;
        return p;
    }

    /**
     * include/linux/pagemap.h: {@code readahead_page_batch(rac, array)} ({@code __readahead_batch()},
     * v5.8-v5.10): the next pages of the batch, up to {@code array.length}, each with the reference
     * read-ahead allocated it with (the caller must put it); returns how many, 0 when exhausted.
     * The kernel's {@code VM_BUG_ON_PAGE(!PageLocked(page), page)} (CONFIG_DEBUG_VM) is left out,
     * as {@link #readaheadPage()} leaves it out.
     */
    public int readaheadPageBatch(Page[] array) {
        nrPages -= batchCount;
        index += batchCount;
        batchCount = 0;
        int i = 0;
        while (i < array.length && batchCount < nrPages && taken < pages.size()) {
            Page p = pages.get(taken++);
            PageFlags.VM_BUG_ON_PAGE(!PageFlags.PageLocked(p), p, "!PageLocked(page)");
            array[i++] = p;
            batchCount++;
        }
        return i;
    }

    /** include/linux/pagemap.h: {@code readahead_index()}. */
    public long readaheadIndex() {
        return index;
    }

    /** include/linux/pagemap.h: {@code readahead_count()}. */
    public int readaheadCount() {
        return nrPages;
    }
}
