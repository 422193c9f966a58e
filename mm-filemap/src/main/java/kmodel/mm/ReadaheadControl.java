package kmodel.mm;

import java.util.ArrayList;

/**
 * include/linux/pagemap.h (v5.8+): {@code struct readahead_control}: a batch of consecutive
 * locked pages, already in the page cache, for {@code ->readahead}.
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

    /** {@code readahead_index()}. */
    public long readaheadIndex() {
        return index;
    }

    /** {@code readahead_count()}. */
    public int readaheadCount() {
        return nrPages;
    }
}
