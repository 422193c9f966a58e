package kmodel.verification.scenarios;

import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.mm.AddressSpace;
import kmodel.mm.AddressSpaceOperations;
import kmodel.mm.File;
import kmodel.mm.Filemap;
import kmodel.mm.Inode;
import kmodel.mm.Page;
import kmodel.mm.PageCache;
import kmodel.mm.PageFlags;

/**
 * A file whose pages are all in the page cache and uptodate, for scenarios about the page lock
 * and wait protocol rather than I/O. It has no backing store: {@code ->readpage} is a bug.
 * Build it in a scenario's setup (scheduling is off there).
 */
final class CachedFile {
    final Inode inode;
    final AddressSpace mapping;
    final Page[] pages;

    /** {@code nrPages} cached, uptodate, unlocked pages; each holds only the cache's reference. */
    CachedFile(String name, int nrPages) {
        AddressSpaceOperations noIo = new AddressSpaceOperations() {
            @Override
            public int readpage(File file, Page page) {
                Kernel.fail(ViolationKind.BUG_ON, "->readpage(" + page + ") on " + name + ", which has no backing store");
                return 0;
            }
        };
        inode = new Inode(name, (long) nrPages * Page.PAGE_SIZE, noIo, Page.PAGE_SHIFT);
        mapping = inode.iMapping;
        pages = new Page[nrPages];
        for (int i = 0; i < nrPages; i++) {
            Page p = PageCache.pageCacheAlloc(mapping);
            PageCache.addToPageCacheLru(p, mapping, i);
            PageFlags.SetPageUptodate(p);
            Filemap.unlockPage(p);
            Page.putPage(p);
            pages[i] = p;
        }
    }

    /** End-of-run checks: the cache's references, no page left locked, the wait-table invariants. */
    void check() {
        PageCache.checkInvariants(mapping);
        PageCache.expectCacheReferences(mapping, Kernel.lifetimes());
        mapping.allocator.waitTable().checkInvariants();
    }
}
