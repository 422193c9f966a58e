package kmodel.mm;

import java.util.List;

/**
 * include/linux/fs.h: {@code struct address_space_operations}, the read side. A file system
 * provides {@code readpage} and either {@code readahead} (v5.8+) or the older
 * {@code readpages}; {@link #hasReadahead()} / {@link #hasReadpages()} say which, as the kernel
 * tests the function pointers.
 */
public interface AddressSpaceOperations {
    /**
     * {@code ->readpage(file, page)}: start reading a locked, not-uptodate page that is in the
     * page cache; the page is unlocked when the read completes (or on error). Returns 0 or a
     * negative errno (the page is then already unlocked).
     */
    int readpage(File file, Page page);

    /** Whether {@code ->readahead} is provided. */
    default boolean hasReadahead() {
        return false;
    }

    /**
     * {@code ->readahead(rac)} (v5.8+): read the locked pages of {@code rac}, which are already in
     * the page cache; take them with {@code readahead_page()}.
     */
    default void readahead(ReadaheadControl rac) {
        throw new UnsupportedOperationException("->readahead not provided");
    }

    /** Whether {@code ->readpages} is provided. */
    default boolean hasReadpages() {
        return false;
    }

    /**
     * {@code ->readpages(file, mapping, pages, nr_pages)} (before v5.8, btrfs's
     * {@code extent_readpages}): {@code pages} holds newly allocated pages not yet in the page
     * cache, in index order, each with one reference and {@code index} set; the file system
     * takes each one off the list ({@code list_del}), adds it with
     * {@code add_to_page_cache_lru()} and drops that reference. Pages left on the list are put
     * by {@code read_pages()} ({@code put_pages_list}). All of it is read-ahead
     * ({@code REQ_RAHEAD}).
     */
    default int readpages(File file, AddressSpace mapping, List<Page> pages, int nrPages) {
        throw new UnsupportedOperationException("->readpages not provided");
    }
}
