package kmodel.mm;

import java.util.List;

/**
 * include/linux/fs.h: {@code struct address_space_operations}. The read side: a file system
 * provides {@code readpage} and either {@code readahead} (v5.8+) or the older
 * {@code readpages}; {@link #hasReadahead()} / {@link #hasReadpages()} say which, as the kernel
 * tests the function pointers. The write side ({@code writepage}, {@code writepages},
 * {@code set_page_dirty}, {@code write_begin}, {@code write_end}, {@code launder_page}) has
 * defaults that stand for a NULL pointer, so read-only file systems need not mention it; the
 * {@code has*} methods say which pointers are set.
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

    // ------------------------------------------------------------------ the write side

    /** Whether {@code ->writepage} is provided (NULL: {@code generic_writepages()} writes nothing). */
    default boolean hasWritepage() {
        return false;
    }

    /**
     * {@code ->writepage(page, wbc)}: write a locked page whose dirty bit
     * {@code clear_page_dirty_for_io()} just cleared. The file system sets PG_writeback
     * ({@code set_page_writeback()}), unlocks the page and submits the I/O, whose completion calls
     * {@code end_page_writeback()}; or it redirties the page and unlocks it. Returns 0 or a
     * negative errno (the page is unlocked either way).
     */
    default int writepage(Page page, WritebackControl wbc) {
        throw new UnsupportedOperationException("->writepage not provided");
    }

    /** Whether {@code ->writepages} is provided (else {@code do_writepages()} uses {@code generic_writepages()}). */
    default boolean hasWritepages() {
        return false;
    }

    /** {@code ->writepages(mapping, wbc)}: write back the dirty pages {@code wbc} selects. */
    default int writepages(AddressSpace mapping, WritebackControl wbc) {
        throw new UnsupportedOperationException("->writepages not provided");
    }

    /**
     * {@code ->set_page_dirty(page)}; returns 1 if the page was newly dirtied. The default stands
     * for a NULL pointer, for which mm/page-writeback.c: {@code set_page_dirty()} uses
     * {@code __set_page_dirty_buffers()} (CONFIG_BLOCK); the model attaches no buffers, so that
     * is {@link PageWriteback#__setPageDirtyNobuffers}.
     */
    default int setPageDirty(Page page) {
        return PageWriteback.__setPageDirtyNobuffers(page);
    }

    /** Whether {@code ->write_begin}/{@code ->write_end} are provided. */
    default boolean hasWriteBegin() {
        return false;
    }

    /**
     * {@code ->write_begin(file, mapping, pos, len, flags, pagep, fsdata)}: find or create the page
     * cache page for {@code [pos, pos + len)} (within one page), locked and with a reference, and
     * make the bytes outside the range valid if the page is not uptodate; store it in
     * {@code pagep[0]}. Returns 0 or a negative errno.
     */
    default int writeBegin(File file, AddressSpace mapping, long pos, int len, int flags, Page[] pagep) {
        throw new UnsupportedOperationException("->write_begin not provided");
    }

    /**
     * {@code ->write_end(file, mapping, pos, len, copied, page, fsdata)}: commit the {@code copied}
     * bytes the caller copied into the locked page: mark it uptodate and dirty as appropriate,
     * extend {@code i_size}, unlock the page and drop {@code write_begin}'s reference. Returns the
     * bytes committed (maybe fewer than {@code copied}) or a negative errno.
     */
    default int writeEnd(File file, AddressSpace mapping, long pos, int len, int copied, Page page) {
        throw new UnsupportedOperationException("->write_end not provided");
    }

    /** Whether {@code ->launder_page} is provided. */
    default boolean hasLaunderPage() {
        return false;
    }

    /** {@code ->launder_page(page)}: write a locked dirty page synchronously before invalidation. */
    default int launderPage(Page page) {
        throw new UnsupportedOperationException("->launder_page not provided");
    }
}
