package kmodel.mm;

import static kmodel.mm.Page.PAGE_SIZE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The two read-path forms side by side ({@link MmOptions#READ_PATH_V59}: v5.9 as merged, n:
 * v5.10 with 324bcf54c449), and the non-blocking sections of {@code generic_file_buffered_read()}
 * (IOCB_NOWAIT and IOCB_WAITQ must not sleep, IOCB_NOIO must not start I/O). Each claim is one
 * deterministic run (non-preemptive; completions from interrupt tasks run when the reader
 * yields).
 */
class ReadPathFormsTest {

    private static Kconfig form(boolean v59) {
        return Kconfig.defaults().with(MmOptions.READ_PATH_V59, v59);
    }

    static void check(boolean cond, String what) {
        if (!cond) {
            Kernel.fail(ViolationKind.BUG_ON, "test expectation failed: " + what);
        }
    }

    /** What one run saw: the read-path's results and the fake file system's counters. */
    static final class Seen {
        final List<String> results = new ArrayList<>();
        int readpageCalls = -1;
        int raheadPages = -1;
        long nrpages = -1;
        boolean pageUptodate;
        boolean pageLocked;
    }

    /**
     * One task reads page 0 of an uncached four-page file with read-ahead off
     * ({@code ra_pages == 0}) and {@code flags}; completions come from interrupt tasks. An
     * IOCB_WAITQ read arms a page-unlock callback, and on {@code -EIOCBQUEUED} waits for its
     * task_work and reads again.
     */
    static Seen readWithReadaheadOff(Kconfig c, int flags) {
        Seen seen = new Seen();
        ExecutionResult r = Run.once(new Program() {
            ReadWorld w;
            boolean retried;

            @Override
            public void boot(Runtime rt) {
                w = new ReadWorld(4 * PAGE_SIZE, 0, FakeAops.Mode.READAHEAD, true);
                Task[] me = new Task[1];
                me[0] = rt.spawn("reader", null, false, false, () -> {
                    if ((flags & Kiocb.IOCB_WAITQ) == 0) {
                        seen.results.add(Errno.name(w.read(0, PAGE_SIZE, flags, null)));
                    } else {
                        AsyncPageWaiter waiter = new AsyncPageWaiter("reader.wpq", me[0], cb -> retried = true, null, null);
                        for (int attempt = 0; attempt < 3; attempt++) {
                            Kiocb iocb = w.kiocb(0, Kiocb.IOCB_NOWAIT);
                            waiter.arm(iocb);
                            IovIter iter = new IovIter(PAGE_SIZE);
                            long ret = FilemapRead.genericFileBufferedRead(iocb, iter, 0);
                            seen.results.add(Errno.name(ret));
                            if (attempt == 0) {
                                seen.readpageCalls = w.aops.readpageCalls;
                                seen.raheadPages = w.aops.raheadPages;
                            }
                            if (ret != -Errno.EIOCBQUEUED) {
                                ReadWorld.checkBytes(iter, 0, Math.max(0, ret));
                                break;
                            }
                            retried = false;
                            Sim.sleepUntil(() -> retried, "reader.wpq retry");
                        }
                    }
                    if (seen.readpageCalls < 0) {
                        seen.readpageCalls = w.aops.readpageCalls;
                        seen.raheadPages = w.aops.raheadPages;
                    }
                    seen.nrpages = w.mapping().peekNrpages();
                    Page p = w.mapping().peekPage(0);
                    if (p != null) {
                        seen.pageUptodate = PageFlags.PageUptodate(p);
                        seen.pageLocked = PageFlags.PageLocked(p);
                    }
                });
            }

            @Override
            public String finish() {
                w.finish();
                return "";
            }
        }, c);
        assertNull(r.violation(), () -> r.violation().summary() + (r.oops() != null ? " " + r.oops() : ""));
        return seen;
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aPlainReadWithReadaheadOffIsReadaheadInV510AndReadpageInV59(boolean v59) {
        Seen s = readWithReadaheadOff(form(v59), 0);
        assertEquals(List.of(String.valueOf(PAGE_SIZE)), s.results);
        /* v5.10: page_cache_sync_ra() forces a one-page read-ahead (->readahead, REQ_RAHEAD) */
        /* v5.9: page_cache_sync_readahead() returns; no_cached_page adds the page, readpage: reads it */
        assertEquals(v59 ? 0 : 1, s.raheadPages, "pages read as read-ahead");
        assertEquals(v59 ? 1 : 0, s.readpageCalls, "->readpage calls by the read path");
        assertEquals(1, s.nrpages, "only the needed page is cached");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aWaitqReadOfAnUncachedPageWithReadaheadOffQueuesInBothFormsByDifferentLabels(boolean v59) {
        Seen s = readWithReadaheadOff(form(v59), Kiocb.IOCB_WAITQ);
        /* Both forms return -EIOCBQUEUED first, then the retry copies the page. */
        assertEquals(List.of("-EIOCBQUEUED", String.valueOf(PAGE_SIZE)), s.results);
        /*
         * v5.10: find_page: the forced read-ahead added the page; !PageUptodate:
         * wait_on_page_locked_async(). v5.9: no_cached_page: -> readpage: ->readpage() ->
         * lock_page_async() (IOCB_WAITQ cleared IOCB_NOWAIT, so readpage: does not give up).
         */
        assertEquals(v59 ? 0 : 1, s.raheadPages, "read-ahead before the first -EIOCBQUEUED");
        assertEquals(v59 ? 1 : 0, s.readpageCalls, "->readpage before the first -EIOCBQUEUED");
        assertTrue(s.pageUptodate, "uptodate at the end");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aNowaitReadOfAnUncachedPageWithReadaheadOffReturnsEagain(boolean v59) {
        Seen s = readWithReadaheadOff(form(v59), Kiocb.IOCB_NOWAIT);
        assertEquals(List.of("-EAGAIN"), s.results);
        if (v59) {
            /* no_cached_page added the page, readpage: gave up: a new page, not uptodate, unlocked, no I/O */
            assertEquals(0, s.raheadPages + s.readpageCalls, "no I/O under IOCB_NOWAIT in v5.9");
            assertEquals(1, s.nrpages, "the page no_cached_page added stays cached");
            assertTrue(!s.pageUptodate && !s.pageLocked, "left not uptodate and unlocked");
        } else {
            /* v5.10: the forced read-ahead is started (\"it doesn't prevent readahead\") */
            assertEquals(1, s.raheadPages, "one forced read-ahead page");
            assertEquals(0, s.readpageCalls, "no ->readpage");
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aNoioReadOfAnUncachedPageStartsNothingInEitherForm(boolean v59) {
        Seen s = readWithReadaheadOff(form(v59), Kiocb.IOCB_NOIO);
        assertEquals(List.of("-EAGAIN"), s.results);
        assertEquals(0, s.raheadPages + s.readpageCalls, "no I/O under IOCB_NOIO");
        assertEquals(0, s.nrpages, "nothing cached");
    }

    @Test
    void withReadaheadOnBothFormsReadTheSameWindow() {
        int[][] counts = new int[2][];
        for (int v = 0; v < 2; v++) {
            int[] out = new int[3];
            boolean v59 = v == 1;
            ExecutionResult r = Run.task(form(v59), () -> {
                ReadWorld w = new ReadWorld(16 * PAGE_SIZE, 4, FakeAops.Mode.READAHEAD, false);
                check(w.read(0, 3 * PAGE_SIZE, 0, null) == 3 * PAGE_SIZE, "read");
                out[0] = w.aops.raheadPages;
                out[1] = w.aops.readpageCalls;
                out[2] = (int) w.mapping().peekNrpages();
                w.finish();
            });
            assertNull(r.violation(), () -> r.violation().summary());
            counts[v] = out;
        }
        assertEquals(List.of(counts[0][0], counts[0][1], counts[0][2]), List.of(counts[1][0], counts[1][1], counts[1][2]));
    }

    // ------------------------------------------------------------------ non-blocking sections

    /**
     * A file system whose {@code ->readahead} first takes the page lock of a page another task
     * holds ({@code lock_page()}): a deliberately blocking call, to show the section's check.
     */
    static ExecutionResult readaheadThatLocksAHeldPage(int flags) {
        return Run.once(new Program() {
            Inode inode;
            Page held;

            @Override
            public void boot(Runtime rt) {
                FakeAops disk = new FakeAops(FakeAops.Mode.READAHEAD, false);
                disk.fileSize = 4 * PAGE_SIZE;
                AddressSpaceOperations sleepy = new AddressSpaceOperations() {
                    @Override
                    public int readpage(File file, Page page) {
                        return disk.readpage(file, page);
                    }

                    @Override
                    public boolean hasReadahead() {
                        return true;
                    }

                    @Override
                    public void readahead(ReadaheadControl rac) {
                        Filemap.lockPage(held);
                        Filemap.unlockPage(held);
                        disk.readahead(rac);
                    }
                };
                inode = new Inode("inode", 4 * PAGE_SIZE, sleepy, Page.PAGE_SHIFT);
                File file = new File("file", inode, 2);
                file.fMode |= File.FMODE_NOWAIT | File.FMODE_BUF_RASYNC;
                held = PageCache.pageCacheAlloc(inode.iMapping);
                PageFlags.__SetPageLocked(held);
                rt.spawn("reader", null, false, false, () -> {
                    FilemapRead.genericFileBufferedRead(new Kiocb(file, 0, flags), new IovIter(PAGE_SIZE), 0);
                    Page.putPage(held);
                });
                rt.spawn("holder", null, false, false, () -> Filemap.unlockPage(held));
            }

            @Override
            public String finish() {
                PageCache.checkInvariants(inode.iMapping);
                PageCache.expectCacheReferences(inode.iMapping, Kernel.lifetimes());
                return "";
            }
        }, Kconfig.defaults());
    }

    @Test
    void sleepingInsideAnIocbNowaitReadIsBlockedInNowait() {
        ExecutionResult r = readaheadThatLocksAHeldPage(Kiocb.IOCB_NOWAIT);
        assertNotNull(r.violation(), "the reader slept on the held page");
        assertEquals(ViolationKind.BLOCKED_IN_NOWAIT, r.violation().kind());
        assertTrue(r.violation().getMessage().contains(
                "reader sleeps in TASK_UNINTERRUPTIBLE waiting on reader.wait_page for P"), r.violation().getMessage());
        assertTrue(r.violation().getMessage().endsWith(
                "inside a non-blocking attempt (generic_file_buffered_read with IOCB_NOWAIT)"), r.violation().getMessage());
    }

    @Test
    void theSameSleepInAPlainReadIsFine() {
        ExecutionResult r = readaheadThatLocksAHeldPage(0);
        assertNull(r.violation(), () -> r.violation().summary());
    }

    @Test
    void theSectionsEndWithTheReadAndDoNotLeakIntoTheCaller() {
        ExecutionResult r = Run.task(Kconfig.defaults(), () -> {
            ReadWorld w = new ReadWorld(4 * PAGE_SIZE, 2, FakeAops.Mode.READAHEAD, false);
            check(w.read(0, PAGE_SIZE, Kiocb.IOCB_NOWAIT | Kiocb.IOCB_NOIO, null) == -Errno.EAGAIN, "nothing cached");
            check(w.read(0, PAGE_SIZE, Kiocb.IOCB_NOWAIT, null) == PAGE_SIZE, "read-ahead completed at once");
            /* After the reads: a sleep is allowed again (a no-op sleep: state RUNNING). */
            Sched.schedule();
            w.finish();
        });
        assertNull(r.violation(), () -> r.violation().summary());
    }
}
