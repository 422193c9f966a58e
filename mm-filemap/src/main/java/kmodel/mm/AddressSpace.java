package kmodel.mm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import kmodel.kernel.atomic.FlagsWord;
import kmodel.kernel.atomic.Plain;
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
    /**
     * {@code nrpages}; protected by {@link #iPagesLock}. Plain accesses, as in the kernel, so they
     * are checked for data races ({@code data-race}): every model access holds the lock.
     */
    final Plain<Long> nrpages = new Plain<>("mapping->nrpages", 0L);
    /**
     * The xarray marks of {@code i_pages} (include/linux/fs.h): {@code PAGECACHE_TAG_DIRTY},
     * {@code PAGECACHE_TAG_WRITEBACK}, {@code PAGECACHE_TAG_TOWRITE}, as the sets of indexes that
     * carry them; protected by {@link #iPagesLock}, and cleared for an index when its page is
     * deleted ({@code __delete_from_page_cache()} erases the entry with its marks).
     */
    final TreeSet<Long> tagDirty = new TreeSet<>();
    /** {@code PAGECACHE_TAG_WRITEBACK}; see {@link #tagDirty}. */
    final TreeSet<Long> tagWriteback = new TreeSet<>();
    /** {@code PAGECACHE_TAG_TOWRITE}; see {@link #tagDirty}. */
    final TreeSet<Long> tagTowrite = new TreeSet<>();
    /**
     * {@code mapping->flags}: {@code AS_EIO} and {@code AS_ENOSPC} (include/linux/pagemap.h),
     * set by {@code mapping_set_error()} and tested-and-cleared by
     * {@code filemap_check_errors()} with atomic bit operations.
     */
    public final FlagsWord flags;
    /**
     * {@code mapping_use_writeback_tags()} / {@code mapping_can_writeback()} (v5.10: the bdi can
     * write back): whether dirty and writeback state is kept in the marks above. Off by default,
     * so the read-side worlds, which set PG_writeback by hand on pages they never dirtied, keep
     * their exact scheduling points; a world that uses the write path ({@code FilemapWrite},
     * {@code PageWriteback}) turns it on before any page exists.
     */
    public boolean canWriteback;
    /** {@code writeback_index}: where a {@code range_cyclic} writeback starts next; written by writeback only. */
    long writebackIndex;
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
        this.flags = new FlagsWord(host + ".i_mapping.flags");
    }

    /** The cached pages in index order, without a scheduling point (checks and reports). */
    public List<Page> peekPages() {
        return new ArrayList<>(iPages.values());
    }

    /** The page at {@code index} without a scheduling point or reference (checks only). */
    public Page peekPage(long index) {
        return iPages.get(index);
    }

    /** {@code mapping->nrpages} for an observer (a test, a check): not a kernel access, not checked for races. */
    public long peekNrpages() {
        return nrpages.racy();
    }

    /** {@code mapping->nrpages}: a plain read by kernel code (checked for data races). */
    public long nrpages() {
        return nrpages.get();
    }

    /** include/linux/fs.h: {@code PAGECACHE_TAG_DIRTY} ({@code XA_MARK_0}). */
    public static final int PAGECACHE_TAG_DIRTY = 0;
    /** include/linux/fs.h: {@code PAGECACHE_TAG_WRITEBACK} ({@code XA_MARK_1}). */
    public static final int PAGECACHE_TAG_WRITEBACK = 1;
    /** include/linux/fs.h: {@code PAGECACHE_TAG_TOWRITE} ({@code XA_MARK_2}). */
    public static final int PAGECACHE_TAG_TOWRITE = 2;
    /** include/linux/pagemap.h: {@code AS_EIO}: an I/O error in an async write. */
    public static final int AS_EIO = 0;
    /** include/linux/pagemap.h: {@code AS_ENOSPC}: ENOSPC in an async write. */
    public static final int AS_ENOSPC = 1;

    /** The index set of mark {@code tag}; the caller holds {@link #iPagesLock} (or is a check). */
    TreeSet<Long> tagSet(int tag) {
        switch (tag) {
            case PAGECACHE_TAG_DIRTY:
                return tagDirty;
            case PAGECACHE_TAG_WRITEBACK:
                return tagWriteback;
            case PAGECACHE_TAG_TOWRITE:
                return tagTowrite;
            default:
                throw new IllegalArgumentException("xa mark " + tag);
        }
    }

    /**
     * include/linux/fs.h: {@code mapping_tagged(mapping, tag)}: whether any page carries the mark.
     * The kernel reads {@code xa_flags} locklessly; the model reads under {@link #iPagesLock},
     * one atomic step with the same outcomes.
     */
    public boolean mappingTagged(int tag) {
        Spinlock.spinLockIrq(iPagesLock);
        boolean any = !tagSet(tag).isEmpty();
        Spinlock.spinUnlockIrq(iPagesLock);
        return any;
    }

    /** Whether index {@code index} carries {@code PAGECACHE_TAG_DIRTY}, without a scheduling point (checks). */
    public boolean peekTaggedDirty(long index) {
        return tagDirty.contains(index);
    }

    /** Whether index {@code index} carries {@code PAGECACHE_TAG_WRITEBACK}, without a scheduling point (checks). */
    public boolean peekTaggedWriteback(long index) {
        return tagWriteback.contains(index);
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
