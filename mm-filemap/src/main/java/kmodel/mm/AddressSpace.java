package kmodel.mm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import kmodel.kernel.locking.Spinlock;

/**
 * include/linux/fs.h: {@code struct address_space}: a file's page cache ({@code i_pages}, an
 * xarray in the kernel, a sorted map here) and its operations.
 *
 * <p>Lock rule: {@code iPages} and {@code nrpages} are changed only under {@link #iPagesLock}
 * ({@code xa_lock_irq(&mapping->i_pages)}). The kernel's lookups are lockless under RCU with a
 * speculative reference ({@code page_cache_get_speculative()} and a re-check); the model does a
 * lookup and its reference under the lock, one atomic step that admits the same outcomes.
 */
public final class AddressSpace {
    /** {@code host}. */
    public final Inode host;
    /** {@code a_ops}. */
    public final AddressSpaceOperations aOps;
    /** {@code i_pages.xa_lock}. */
    public final Spinlock iPagesLock;
    /** {@code i_pages}: index to page; protected by {@link #iPagesLock}. */
    final TreeMap<Long, Page> iPages = new TreeMap<>();
    /** {@code nrpages}; protected by {@link #iPagesLock}. */
    long nrpages;
    /**
     * Where {@code page_cache_alloc()} takes pages from: the machine's memory, which also owns
     * the page wait table. Each address space starts with its own (created from the running
     * execution's configuration, so build inodes under a runtime); a scenario whose files should
     * share memory and wait table assigns one allocator to all of them before any page exists.
     */
    public PageAllocator allocator = new PageAllocator();
    /**
     * {@code inode_to_bdi(host)->io_pages}: the device's optimal I/O size in pages, which lets
     * read-ahead exceed {@code ra_pages} for large requests and bounds
     * {@code force_page_cache_ra()}. Default {@code VM_READAHEAD_PAGES} (128 KiB), as
     * {@code bdi_init()} sets it; a block device sets it from its queue limits.
     */
    public int ioPages = 32;

    AddressSpace(Inode host, AddressSpaceOperations aOps) {
        this.host = host;
        this.aOps = aOps;
        this.iPagesLock = new Spinlock(host + ".i_pages");
    }

    /** The cached pages in index order, without a scheduling point (checks and reports). */
    public List<Page> peekPages() {
        return new ArrayList<>(iPages.values());
    }

    /** The page at {@code index} without a scheduling point or reference (checks only). */
    public Page peekPage(long index) {
        return iPages.get(index);
    }

    /** {@code mapping->nrpages}, without a scheduling point. */
    public long peekNrpages() {
        return nrpages;
    }

    /** Entries of {@code i_pages}, for the invariant check. */
    Iterable<Map.Entry<Long, Page>> entries() {
        return iPages.entrySet();
    }

    @Override
    public String toString() {
        return host + ".i_mapping";
    }
}
