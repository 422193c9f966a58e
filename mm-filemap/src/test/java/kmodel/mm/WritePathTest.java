package kmodel.mm;

import static kmodel.mm.Page.PAGE_SIZE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.TreeMap;
import kmodel.kernel.Errno;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.Program;
import kmodel.kernel.sched.Runtime;
import org.junit.jupiter.api.Test;

/**
 * The write side of mm-filemap (mm/filemap.c, mm/page-writeback.c, mm/truncate.c, v5.10) over an
 * in-memory file system whose writeback completes in interrupt tasks, under seeded random
 * schedules: what direct I/O calls before it goes to the disk
 * ({@code filemap_write_and_wait_range()}, {@code invalidate_inode_pages2_range()}), and the
 * buffered write it flushes.
 */
class WritePathTest {
    private static final int RUNS = 300;

    /**
     * {@code simple_write_begin}/{@code simple_write_end}-like operations (fs/libfs.c) and a
     * {@code ->writepage} that sets PG_writeback, unlocks and completes from an interrupt task,
     * copying the page into {@link #disk}.
     */
    static final class MemAops implements AddressSpaceOperations {
        final TreeMap<Long, byte[]> disk = new TreeMap<>();
        int writepages;

        @Override
        public int readpage(File file, Page page) {
            byte[] d = disk.get(page.index);
            System.arraycopy(d != null ? d : new byte[PAGE_SIZE], 0, page.data, 0, PAGE_SIZE);
            PageFlags.SetPageUptodate(page);
            Filemap.unlockPage(page);
            return 0;
        }

        @Override
        public boolean hasWritepage() {
            return true;
        }

        @Override
        public int writepage(Page page, WritebackControl wbc) {
            writepages++;
            Filemap.setPageWriteback(page);
            Filemap.unlockPage(page);
            Kernel.rt().spawn("irq:wb" + page.index, "irq", true, false, () -> {
                disk.put(page.index, page.data.clone());
                Filemap.endPageWriteback(page);
            });
            return 0;
        }

        @Override
        public boolean hasWriteBegin() {
            return true;
        }

        @Override
        public int writeBegin(File file, AddressSpace mapping, long pos, int len, int flags, Page[] pagep) {
            Page page = FilemapWrite.grabCachePageWriteBegin(mapping, pos >> Page.PAGE_SHIFT, flags);
            if (page == null) {
                return -Errno.ENOMEM;
            }
            if (!PageFlags.PageUptodate(page) && len != PAGE_SIZE) {
                Arrays.fill(page.data, (byte) 0);
            }
            pagep[0] = page;
            return 0;
        }

        @Override
        public int writeEnd(File file, AddressSpace mapping, long pos, int len, int copied, Page page) {
            if (!PageFlags.PageUptodate(page)) {
                PageFlags.SetPageUptodate(page);
            }
            long last = pos + copied;
            if (last > mapping.host.iSizeRead()) {
                mapping.host.iSizeWrite(last);
            }
            PageWriteback.setPageDirty(page);
            Filemap.unlockPage(page);
            Page.putPage(page);
            return copied;
        }
    }

    /** A world: one file on {@link MemAops}, written back by its own mapping. */
    abstract static class World implements Program {
        MemAops aops;
        Inode inode;
        File file;

        @Override
        public void boot(Runtime rt) {
            aops = new MemAops();
            inode = new Inode("f", 0, aops, Page.PAGE_SHIFT);
            inode.iMapping.canWriteback = true;
            file = new File("f.0", inode, 0);
            tasks(rt);
        }

        abstract void tasks(Runtime rt);

        /** A cached page at {@code index} holding {@code v} (set-up only): clean, or dirty. */
        Page cache(long index, byte v, boolean dirty) {
            Page p = PageCache.pageCacheAlloc(inode.iMapping);
            Arrays.fill(p.data, v);
            PageCache.addToPageCacheLru(p, inode.iMapping, index);
            PageFlags.SetPageUptodate(p);
            if (dirty) {
                PageWriteback.setPageDirty(p);
            }
            Filemap.unlockPage(p);
            Page.putPage(p);
            inode.iSize.setPlain(Math.max(inode.iSize.plain(), (index + 1) * PAGE_SIZE));
            return p;
        }

        long write(long pos, byte v, int len) {
            byte[] b = new byte[len];
            Arrays.fill(b, v);
            return FilemapWrite.genericFileWriteIter(new Kiocb(file, pos, 0), new IovIter(b));
        }

        byte diskByte(long index) {
            byte[] d = aops.disk.get(index);
            return d == null ? 0 : d[0];
        }

        /** The end-of-run checks: cache references, nothing locked, dirty or under writeback. */
        void checkCache() {
            PageCache.checkInvariants(inode.iMapping);
            PageCache.expectCacheReferences(inode.iMapping, Kernel.lifetimes());
            for (Page p : inode.iMapping.peekPages()) {
                if ((p.flags.peek() & (1L << PageFlags.PG_writeback)) != 0) {
                    Kernel.fail(ViolationKind.BUG_ON, p.describe() + " still under writeback at the end");
                }
            }
            inode.iMapping.allocator.waitTable().checkInvariants();
        }
    }

    @Test
    void writeAndWaitWithNothingDirtyWaitsForWritebackAlreadyUnderWay() {
        Sim.Outcome o = Sim.explore(() -> new World() {
            Page p;
            String seen;

            @Override
            void tasks(Runtime rt) {
                p = cache(0, (byte) 1, true);
                /* writeback started earlier, by somebody else */
                Filemap.lockPage(p);
                PageWriteback.clearPageDirtyForIo(p);
                aops.writepage(p, null);
                rt.spawn("dio", null, false, false, () -> {
                    int err = FilemapWrite.filemapWriteAndWaitRange(inode.iMapping, 0, PAGE_SIZE - 1);
                    seen = err + ":" + PageFlags.PageWriteback(p) + ":" + diskByte(0);
                });
            }

            @Override
            public String finish() {
                checkCache();
                return seen;
            }
        }, Kconfig.defaults(), RUNS, 11);
        assertNull(o.firstViolation, o::describe);
        assertEquals(1, o.outcomes.size(), o::describe);
        assertTrue(o.outcomes.containsKey("0:false:1"), o::describe);
    }

    @Test
    void writeAndWaitPutsWhatWasWrittenOnDiskBeforeItReturns() {
        Sim.Outcome o = Sim.explore(() -> new World() {
            String seen;

            @Override
            void tasks(Runtime rt) {
                cache(0, (byte) 1, false);
                rt.spawn("writer", null, false, false, () -> {
                    write(0, (byte) 2, PAGE_SIZE);
                    int err = FilemapWrite.filemapWriteAndWaitRange(inode.iMapping, 0, PAGE_SIZE - 1);
                    seen = err + ":" + diskByte(0);
                });
                rt.spawn("flusher", null, false, false, () -> FilemapWrite.filemapFlush(inode.iMapping));
            }

            @Override
            public String finish() {
                checkCache();
                if (inode.iMapping.peekPage(0).data[0] != 2 || diskByte(0) != 2) {
                    Kernel.fail(ViolationKind.DATA_CORRUPTION, "cache or disk lost the write");
                }
                return seen;
            }
        }, Kconfig.defaults(), RUNS, 12);
        assertNull(o.firstViolation, o::describe);
        assertEquals(java.util.Set.of("0:2"), o.outcomes.keySet(), o::describe);
    }

    @Test
    void invalidateRemovesCleanPagesAfterWaitingForWritebackAndRefusesDirtyOnes() {
        Sim.Outcome o = Sim.explore(() -> new World() {
            int ret;

            @Override
            void tasks(Runtime rt) {
                cache(0, (byte) 1, false);
                Page p1 = cache(1, (byte) 1, true);
                cache(2, (byte) 1, true);
                Filemap.lockPage(p1);
                PageWriteback.clearPageDirtyForIo(p1);
                aops.writepage(p1, null);
                rt.spawn("dio", null, false, false, () -> ret = Truncate.invalidateInodePages2Range(inode.iMapping, 0, 2));
            }

            @Override
            public String finish() {
                checkCache();
                return Errno.name(ret) + " cached=" + inode.iMapping.peekNrpages();
            }
        }, Kconfig.defaults(), RUNS, 13);
        assertNull(o.firstViolation, o::describe);
        /* pages 0 and 1 (clean once its writeback ended) go; dirty page 2 stays: -EBUSY */
        assertEquals(java.util.Set.of("-EBUSY cached=1"), o.outcomes.keySet(), o::describe);
    }

    @Test
    void invalidateAfterWriteAndWaitEmptiesTheRangeEvenWithAFlusherRacing() {
        Sim.Outcome o = Sim.explore(() -> new World() {
            String seen;

            @Override
            void tasks(Runtime rt) {
                cache(0, (byte) 1, true);
                cache(1, (byte) 1, true);
                rt.spawn("dio", null, false, false, () -> {
                    int a = FilemapWrite.filemapWriteAndWaitRange(inode.iMapping, 0, 2L * PAGE_SIZE - 1);
                    int b = Truncate.invalidateInodePages2Range(inode.iMapping, 0, 1);
                    seen = a + "," + b + " cached=" + inode.iMapping.peekNrpages() + " disk=" + diskByte(0) + diskByte(1);
                });
                rt.spawn("flusher", null, false, false, () -> FilemapWrite.filemapFlush(inode.iMapping));
            }

            @Override
            public String finish() {
                checkCache();
                return seen;
            }
        }, Kconfig.defaults(), RUNS, 14);
        assertNull(o.firstViolation, o::describe);
        assertEquals(java.util.Set.of("0,0 cached=0 disk=11"), o.outcomes.keySet(), o::describe);
    }

    @Test
    void aLeakedLookupReferenceIsCaught() {
        /* the checks above can fail: a page kept by an extra get_page() is a ref-leak */
        Sim.Outcome o = Sim.explore(() -> new World() {
            @Override
            void tasks(Runtime rt) {
                Page p = cache(0, (byte) 1, false);
                rt.spawn("dio", null, false, false, () -> {
                    Page.getPage(p);
                    Truncate.invalidateInodePages2Range(inode.iMapping, 0, 0);
                });
            }

            @Override
            public String finish() {
                checkCache();
                return "";
            }
        }, Kconfig.defaults(), 5, 15);
        assertEquals(5, o.count(ViolationKind.REF_LEAK), o::describe);
    }
}
