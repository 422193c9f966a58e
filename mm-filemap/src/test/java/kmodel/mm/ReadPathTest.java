package kmodel.mm;

import static kmodel.mm.Page.PAGE_SIZE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import kmodel.kernel.Errno;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Program;
import kmodel.kernel.sched.Run;
import kmodel.kernel.sched.Runtime;
import kmodel.kernel.sched.Task;
import kmodel.kernel.sched.TraceEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** generic_file_buffered_read() semantics (v5.10), pinned one claim per test. */
class ReadPathTest {

    /** Runs {@code body} as one task in a world built inside it; fails the test on any violation. */
    static void inTask(Kconfig c, Runnable body) {
        ExecutionResult r = Run.task(c, body);
        assertNull(r.violation(), () -> r.violation().summary() + (r.oops() != null ? " " + r.oops() : ""));
    }

    static void check(boolean cond, String what) {
        if (!cond) {
            Kernel.fail(ViolationKind.BUG_ON, "test expectation failed: " + what);
        }
    }

    @ParameterizedTest
    @EnumSource(FakeAops.Mode.class)
    void aReadSpanningPagesReturnsEveryByte(FakeAops.Mode mode) {
        for (int ra : new int[] {0, 4, 32}) {
            inTask(Kconfig.defaults(), () -> {
                ReadWorld w = new ReadWorld(3 * PAGE_SIZE + 100, ra, mode, false);
                IovIter[] it = new IovIter[1];
                Kiocb iocb = w.kiocb(4000, 0);
                IovIter iter = new IovIter(5000);
                long ret = FilemapRead.genericFileReadIter(iocb, iter);
                check(ret == 5000, "read returned " + ret);
                check(iocb.kiPos == 9000, "ki_pos " + iocb.kiPos);
                ReadWorld.checkBytes(iter, 4000, 5000);
                check(w.read(0, 3 * PAGE_SIZE + 100, 0, it) == 3 * PAGE_SIZE + 100, "whole file");
                ReadWorld.checkBytes(it[0], 0, 3 * PAGE_SIZE + 100);
                w.finish();
            });
        }
    }

    @Test
    void aReadAcrossEndOfFileIsShortAndAReadAtOrPastItReturnsZero() {
        inTask(Kconfig.defaults(), () -> {
            ReadWorld w = new ReadWorld(5000, 8, FakeAops.Mode.READAHEAD, false);
            IovIter[] it = new IovIter[1];
            check(w.read(4096, 2 * PAGE_SIZE, 0, it) == 904, "short read at EOF");
            ReadWorld.checkBytes(it[0], 4096, 904);
            check(w.read(5000, 10, 0, null) == 0, "read at EOF");
            check(w.read(3 * PAGE_SIZE, 10, 0, null) == 0, "read past EOF");
            check(w.read(0, 0, 0, null) == 0, "empty read");
            w.finish();
        });
        inTask(Kconfig.defaults(), () -> {
            ReadWorld w = new ReadWorld(0, 8, FakeAops.Mode.READAHEAD, false);
            check(w.read(0, 100, 0, null) == 0, "empty file");
            w.finish();
        });
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void nowaitOnAnUncachedPageReturnsEagainAfterStartingReadahead(boolean readaheadNowait) {
        Kconfig c = Kconfig.defaults().with(MmOptions.READAHEAD_NOWAIT, readaheadNowait);
        int[] issued = {-1};
        ExecutionResult r = Run.once(new Program() {
            ReadWorld w;

            @Override
            public void boot(Runtime rt) {
                w = new ReadWorld(4 * PAGE_SIZE, 4, FakeAops.Mode.READAHEAD, true);
                rt.spawn("reader", null, false, false, () -> {
                    long ret = w.read(0, PAGE_SIZE, Kiocb.IOCB_NOWAIT, null);
                    check(ret == -Errno.EAGAIN, "IOCB_NOWAIT read returned " + Errno.name(ret));
                    issued[0] = w.aops.raheadPages;
                });
            }

            @Override
            public String finish() {
                w.finish();
                return "";
            }
        }, c);
        assertNull(r.violation(), () -> r.violation().summary());
        /* initial window for a one-page read with ra_pages 4: get_init_ra_size(1, 4) = 2 */
        assertEquals(readaheadNowait ? 2 : 0, issued[0], "read-ahead started under IOCB_NOWAIT");
    }

    @Test
    void nowaitSucceedsWhenTheReadaheadItStartedCompletedAtOnce() {
        inTask(Kconfig.defaults(), () -> {
            ReadWorld w = new ReadWorld(4 * PAGE_SIZE, 4, FakeAops.Mode.READAHEAD, false);
            IovIter[] it = new IovIter[1];
            check(w.read(0, 2 * PAGE_SIZE, Kiocb.IOCB_NOWAIT, it) == 2 * PAGE_SIZE, "cached after sync read-ahead");
            ReadWorld.checkBytes(it[0], 0, 2 * PAGE_SIZE);
            w.finish();
        });
        inTask(Kconfig.defaults().with(MmOptions.READAHEAD_NOWAIT, false), () -> {
            ReadWorld w = new ReadWorld(4 * PAGE_SIZE, 4, FakeAops.Mode.READAHEAD, false);
            check(w.read(0, PAGE_SIZE, Kiocb.IOCB_NOWAIT, null) == -Errno.EAGAIN, "v5.7: no read-ahead under NOWAIT");
            check(w.mapping().peekNrpages() == 0, "nothing cached");
            w.finish();
        });
    }

    @Test
    void noioNeverStartsIoAndStopsShortAtTheReadaheadMarker() {
        inTask(Kconfig.defaults(), () -> {
            ReadWorld w = new ReadWorld(8 * PAGE_SIZE, 4, FakeAops.Mode.READAHEAD, false);
            check(w.read(0, PAGE_SIZE, Kiocb.IOCB_NOIO, null) == -Errno.EAGAIN, "uncached under NOIO");
            check(w.mapping().peekNrpages() == 0, "no I/O under NOIO");
            check(w.read(0, PAGE_SIZE, 0, null) == PAGE_SIZE, "plain read");
            long cached = w.mapping().peekNrpages();
            IovIter[] it = new IovIter[1];
            long ret = w.read(0, 8 * PAGE_SIZE, Kiocb.IOCB_NOIO, it);
            check(ret > 0 && ret < 8 * PAGE_SIZE, "NOIO read stops at the marker or the first miss: " + ret);
            ReadWorld.checkBytes(it[0], 0, ret);
            check(w.mapping().peekNrpages() == cached, "NOIO started no read-ahead");
            w.finish();
        });
    }

    /**
     * An IOCB_WAITQ reader whose pages complete in interrupt context: -EIOCBQUEUED is returned
     * only with the callback queued, and the retry reads the bytes.
     */
    static Program waitqReader(long pos, int len, boolean precacheFirstPage, List<String> log) {
        return new Program() {
            ReadWorld w;
            boolean retried;

            @Override
            public void boot(Runtime rt) {
                w = new ReadWorld(4 * PAGE_SIZE, 4, FakeAops.Mode.READAHEAD, true);
                Task[] me = new Task[1];
                me[0] = rt.spawn("uring", null, false, false, () -> {
                    if (precacheFirstPage) {
                        Page p = PageCache.pagecacheGetPage(w.mapping(), pos >> Page.PAGE_SHIFT,
                                PageCache.FGP_CREAT | PageCache.FGP_LOCK);
                        w.mapping().aOps.readpage(w.file, p);
                        Filemap.lockPage(p);
                        Filemap.unlockPage(p);
                        Page.putPage(p);
                    }
                    AsyncPageWaiter waiter = new AsyncPageWaiter("uring.wpq", me[0], cb -> retried = true, null, null);
                    long done = 0;
                    for (int attempt = 0; done < len; attempt++) {
                        Kiocb iocb = w.kiocb(pos + done, Kiocb.IOCB_NOWAIT);
                        waiter.arm(iocb);
                        IovIter iter = new IovIter((int) (len - done));
                        int firedBefore = waiter.fired();
                        long ret = FilemapRead.genericFileBufferedRead(iocb, iter, 0);
                        /* Armed: still queued, or already fired (the unlock may come before we look). */
                        boolean queued = armed(w, waiter) || waiter.fired() > firedBefore;
                        log.add(Errno.name(ret) + (queued ? " armed" : ""));
                        if (ret == -Errno.EIOCBQUEUED) {
                            check(queued, "-EIOCBQUEUED without the callback armed");
                            retried = false;
                            Sim.sleepUntil(() -> retried, "uring.wpq retry");
                            continue;
                        }
                        check(!queued, Errno.name(ret) + " returned with the callback still queued");
                        check(ret > 0, "IOCB_WAITQ read returned " + Errno.name(ret));
                        ReadWorld.checkBytes(iter, pos + done, ret);
                        done += ret;
                        check(attempt < 20, "too many attempts");
                    }
                });
            }

            @Override
            public String finish() {
                w.finish();
                return "";
            }
        };
    }

    /** Whether the waiter's entry is queued on any head of the wait table (no scheduling point). */
    static boolean armed(ReadWorld w, AsyncPageWaiter waiter) {
        PageWaitTable t = w.mapping().allocator.waitTable();
        for (int i = 0; i < t.size(); i++) {
            if (t.head(i).peekContains(waiter.wpq.wait)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void waitqReturnsEiocbqueuedOnlyWithTheCallbackArmedAndTheRetryReadsTheBytes() {
        List<String> log = new ArrayList<>();
        ExecutionResult r = Run.once(waitqReader(0, 2 * PAGE_SIZE, false, log), Kconfig.defaults());
        assertNull(r.violation(), () -> r.violation().summary());
        assertEquals("-EIOCBQUEUED armed", log.get(0), log::toString);
        long total = 0;
        for (String e : log) {
            assertTrue(e.equals("-EIOCBQUEUED armed") || !e.endsWith("armed"), log::toString);
            if (!e.startsWith("-")) {
                total += Long.parseLong(e);
            }
        }
        assertEquals(2 * PAGE_SIZE, total, log::toString);
    }

    @Test
    void waitqNeverArmsTheCallbackOnceItHasCopiedBytes() {
        List<String> log = new ArrayList<>();
        ExecutionResult r = Run.once(waitqReader(0, 2 * PAGE_SIZE, true, log), Kconfig.defaults());
        assertNull(r.violation(), () -> r.violation().summary());
        assertEquals(String.valueOf(PAGE_SIZE), log.get(0), "the cached first page comes back alone: " + log);
    }

    @Test
    void waitqReadsAreCleanUnderRandomSchedules() {
        Sim.Outcome o = Sim.explore(() -> waitqReader(100, 3 * PAGE_SIZE, false, new ArrayList<>()), Kconfig.defaults(),
                1500, 31);
        assertEquals(0, o.violations(), o::describe);
        assertEquals(0, o.stepBounds, o::describe);
    }

    @Test
    void withoutAsyncBufferedReadsANowaitReaderGetsEagain() {
        Kconfig c = Kconfig.defaults().with(MmOptions.ASYNC_BUFFERED_READS, false);
        ExecutionResult r = Run.once(new Program() {
            ReadWorld w;

            @Override
            public void boot(Runtime rt) {
                w = new ReadWorld(4 * PAGE_SIZE, 4, FakeAops.Mode.READAHEAD, true);
                rt.spawn("reader", null, false, false, () -> {
                    long ret = w.read(0, PAGE_SIZE, Kiocb.IOCB_NOWAIT, null);
                    check(ret == -Errno.EAGAIN, "got " + Errno.name(ret));
                });
            }

            @Override
            public String finish() {
                w.finish();
                return "";
            }
        }, c);
        assertNull(r.violation(), () -> r.violation().summary());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 4})
    void aReadErrorReturnsEioOrTheBytesCopiedBeforeIt(int ra) {
        for (boolean irq : new boolean[] {false, true}) {
            ExecutionResult r = Run.once(new Program() {
                ReadWorld w;

                @Override
                public void boot(Runtime rt) {
                    w = new ReadWorld(4 * PAGE_SIZE, ra, FakeAops.Mode.READAHEAD, irq);
                    w.aops.badPages.add(1L);
                    rt.spawn("reader", null, false, false, () -> {
                        IovIter[] it = new IovIter[1];
                        long ret = w.read(100, 3 * PAGE_SIZE, 0, it);
                        check(ret == PAGE_SIZE - 100, "partial count before the bad page: " + Errno.name(ret));
                        ReadWorld.checkBytes(it[0], 100, ret);
                        ret = w.read(PAGE_SIZE + 5, 100, 0, null);
                        check(ret == -Errno.EIO, "read of the bad page: " + Errno.name(ret));
                        check(PageFlags.PageError(w.mapping().peekPage(1)), "PG_error on the bad page");
                    });
                }

                @Override
                public String finish() {
                    w.finish();
                    return "";
                }
            }, Kconfig.defaults());
            assertNull(r.violation(), () -> "irq=" + irq + ": " + r.violation().summary());
        }
    }

    @Test
    void withReadaheadDisabledTheNeededPageIsStillReadAsReadahead() {
        inTask(Kconfig.defaults(), () -> {
            ReadWorld w = new ReadWorld(4 * PAGE_SIZE, 0, FakeAops.Mode.READAHEAD, false);
            IovIter[] it = new IovIter[1];
            check(w.read(0, 3 * PAGE_SIZE, 0, it) == 3 * PAGE_SIZE, "read");
            ReadWorld.checkBytes(it[0], 0, 3 * PAGE_SIZE);
            check(w.aops.raheadPages == 3, "one forced read-ahead page per miss, got " + w.aops.raheadPages);
            check(w.aops.readpageCalls == 0, "no ->readpage");
            check(w.mapping().peekNrpages() == 3, "nothing beyond the request");
            for (Page p : w.mapping().peekPages()) {
                check(!PageFlags.PageReadahead(p), "no marker with read-ahead off");
            }
            w.finish();
        });
    }

    @Test
    void readaheadMarksItsWindowAndTheMarkerPushesItForward() {
        inTask(Kconfig.defaults(), () -> {
            ReadWorld w = new ReadWorld(64 * PAGE_SIZE, 8, FakeAops.Mode.READAHEAD, false);
            check(w.read(0, PAGE_SIZE, 0, null) == PAGE_SIZE, "first page");
            FileRaState ra = w.file.fRa;
            /* initial window: get_init_ra_size(1, 8) = 2 pages, async_size 1: the marker is page 1 */
            check(ra.start == 0, "window start " + ra.start);
            long window = ra.size;
            check(window > 1 && window <= 8, "window size " + window);
            long marker = ra.start + ra.size - ra.asyncSize;
            check(PageFlags.PageReadahead(w.mapping().peekPage(marker)), "PG_readahead at " + marker);
            check(w.mapping().peekNrpages() == window, "pages read " + w.mapping().peekNrpages());
            /* Reading on to the marker starts the next window asynchronously. */
            check(w.read(PAGE_SIZE, (int) (marker * PAGE_SIZE), 0, null) == marker * PAGE_SIZE, "read to the marker");
            check(!PageFlags.PageReadahead(w.mapping().peekPage(marker)), "marker consumed");
            check(ra.start == window, "window pushed to " + ra.start);
            check(w.mapping().peekNrpages() > window, "next window read");
            w.finish();
        });
    }

    @ParameterizedTest
    @EnumSource(FakeAops.Mode.class)
    void readersRacingOnUncachedPagesGetTheFilesBytes(FakeAops.Mode mode) {
        for (int ra : new int[] {0, 4}) {
            Sim.Outcome o = Sim.explore(() -> new Program() {
                ReadWorld w;

                @Override
                public void boot(Runtime rt) {
                    w = new ReadWorld(3 * PAGE_SIZE - 10, ra, mode, true);
                    for (int t = 0; t < 2; t++) {
                        long pos = t * 1000;
                        rt.spawn("reader" + t, null, false, false, () -> {
                            IovIter[] it = new IovIter[1];
                            long want = 2 * PAGE_SIZE;
                            long ret = w.read(pos, (int) want, 0, it);
                            check(ret == want, "read returned " + Errno.name(ret));
                            ReadWorld.checkBytes(it[0], pos, ret);
                        });
                    }
                }

                @Override
                public String finish() {
                    w.finish();
                    return "pages=" + w.mapping().peekNrpages();
                }
            }, Kconfig.defaults(), 1500, 32 + ra);
            assertEquals(0, o.violations(), () -> mode + " ra=" + ra + ": " + o.describe());
            assertEquals(0, o.stepBounds, o::describe);
        }
    }

    /**
     * The read path's own {@code ->readpage} returns {@code AOP_TRUNCATED_PAGE}: read-ahead's
     * {@code ->readpage} fails the page (a transient media error), so the reader finds it not
     * uptodate, locks it and calls {@code ->readpage} itself; that call finds the page truncated
     * (it deletes it from the cache, unlocks it and says so). The reader drops the page, looks
     * the index up again, and the third {@code ->readpage}, from read-ahead again, reads it.
     */
    @Test
    void readpageTruncatedPageMakesTheReaderLookAgain() {
        int[] readpages = {0};
        ExecutionResult r = Run.once(new Program() {
            Inode inode;

            @Override
            public void boot(Runtime rt) {
                FakeAops disk = new FakeAops(FakeAops.Mode.READPAGE_ONLY, false);
                disk.fileSize = PAGE_SIZE;
                disk.badPages.add(0L);
                inode = new Inode("inode", PAGE_SIZE, new AddressSpaceOperations() {
                    @Override
                    public int readpage(File file, Page page) {
                        if (++readpages[0] == 2) {
                            PageCache.deleteFromPageCache(page);
                            Filemap.unlockPage(page);
                            return FilemapRead.AOP_TRUNCATED_PAGE;
                        }
                        int ret = disk.readpage(file, page);
                        disk.badPages.clear(); /* the media error was transient */
                        return ret;
                    }
                }, Page.PAGE_SHIFT);
                rt.spawn("reader", null, false, false, () -> {
                    IovIter iter = new IovIter(PAGE_SIZE);
                    long ret = FilemapRead.genericFileBufferedRead(new Kiocb(new File("file", inode, 0), 0, 0), iter, 0);
                    check(ret == PAGE_SIZE, "read after AOP_TRUNCATED_PAGE: " + Errno.name(ret));
                    ReadWorld.checkBytes(iter, 0, PAGE_SIZE);
                });
            }

            @Override
            public String finish() {
                PageCache.checkInvariants(inode.iMapping);
                PageCache.expectCacheReferences(inode.iMapping, Kernel.lifetimes());
                return "";
            }
        }, Run.nonPreemptive(), Kconfig.defaults(), true);
        assertNull(r.violation(), () -> r.violation().summary());
        List<String> events = new ArrayList<>();
        for (TraceEvent e : r.trace()) {
            if (e.level() == TraceEvent.Level.INFO) {
                events.add(e.text());
            }
        }
        assertTrue(events.contains("->readpage(0) = AOP_TRUNCATED_PAGE: find_page again"), events::toString);
        assertEquals(3, readpages[0], "read-ahead's failed ->readpage, the reader's truncated one, read-ahead's again");
    }

    @Test
    void aFatalSignalStopsTheReadBeforeTheNextPage() {
        inTask(Kconfig.defaults(), () -> {
            ReadWorld w = new ReadWorld(4 * PAGE_SIZE, 4, FakeAops.Mode.READAHEAD, false);
            kmodel.kernel.sched.Sched.sendSigkill(Kernel.current());
            check(w.read(0, PAGE_SIZE, 0, null) == -Errno.EINTR, "-EINTR");
            w.finish();
        });
    }
}
