package kmodel.iouring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import kmodel.fs.blockdev.Bdev;
import kmodel.kernel.Errno;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Program;
import kmodel.kernel.sched.Runtime;
import kmodel.kernel.sched.Run;
import kmodel.mm.MmOptions;
import kmodel.mm.Page;
import kmodel.mm.PageCache;
import kmodel.mm.PageFlags;
import kmodel.mm.Filemap;
import org.junit.jupiter.api.Test;

/**
 * {@code io_read()}'s results pinned on one fixed schedule (the non-preemptive one of
 * {@link Run}: the submitter runs until it sleeps, then the lowest-numbered runnable task, so the
 * device completes a read only once the submitter waits for CQEs). Each SQE gets exactly one CQE
 * ({@link IoRingCtx#cqeLog}), with the {@code res} pinned here; the bytes are the device's; the
 * ring is closed and freed at the end.
 */
class IoReadTest {
    private static final int PAGE = Page.PAGE_SIZE;

    /** What a test body leaves behind for its assertions. */
    static final class World {
        Bdev bdev;
        IoFd fd;
        Liburing ring;
        final List<byte[]> bufs = new ArrayList<>();

        World(int nrPages, int nrTags, int ra) {
            bdev = Bdev.create(nrPages, nrTags, ra);
            fd = new IoFd(bdev.open(), 0);
        }

        /** Puts page {@code index} in the cache, uptodate (set-up). */
        void cached(long index) {
            Page p = PageCache.pageCacheAlloc(bdev.mapping());
            bdev.disk.copyOut(index << Page.PAGE_SHIFT, p.data, 0, PAGE);
            PageCache.addToPageCacheLru(p, bdev.mapping(), index);
            PageFlags.SetPageUptodate(p);
            Filemap.unlockPage(p);
            Page.putPage(p);
        }

        /** One read SQE of {@code len} bytes at {@code off}, {@code rwFlags}; returns its buffer. */
        byte[] read(long off, int len, int rwFlags, long userData) {
            byte[] buf = new byte[len];
            bufs.add(buf);
            ring.prepRead(fd, buf, off, userData).rwFlags = rwFlags;
            return buf;
        }

        /** The ring's only CQE for {@code userData} (fails on none or two). */
        long res(long userData) {
            long found = Long.MIN_VALUE;
            int n = 0;
            for (long[] c : ring.ctx.cqeLog) {
                if (c[0] == userData) {
                    found = c[1];
                    n++;
                }
            }
            assertEquals(1, n, "CQEs for user_data " + userData + ": " + n);
            return found;
        }
    }

    static ExecutionResult run(Kconfig config, World[] out, int nrPages, int nrTags, int ra, java.util.function.Consumer<World> body) {
        return Run.once(new Program() {
            @Override
            public void boot(Runtime rt) {
                rt.spawn("t1", null, false, false, () -> {
                    World w = new World(nrPages, nrTags, ra);
                    out[0] = w;
                    w.ring = Liburing.queueInit("ring0", 4);
                    body.accept(w);
                    IoUringExit.doExit(w.ring.ctx);
                });
            }

            @Override
            public String finish() {
                /* the page cache's own references; every page unlocked, every tag free */
                out[0].bdev.checkAtEnd();
                out[0].bdev.expectCacheMatchesDisk();
                return "";
            }
        }, config);
    }

    static void assertClean(ExecutionResult r) {
        assertNull(r.violation(), () -> r.violation().summary() + (r.oops() != null ? " " + r.oops() : ""));
        assertNull(r.stepBound(), r::stepBound);
    }

    static void assertBytes(World w, long off, byte[] buf, int len) {
        for (int i = 0; i < len; i++) {
            assertEquals(w.bdev.byteAt(off + i), buf[i], "byte " + (off + i));
        }
    }

    @Test
    void aFullReadOfAnUncachedPageArmsTheCallbackAndCompletesFromTaskWork() {
        World[] w = new World[1];
        ExecutionResult r = run(Kconfig.defaults(), w, 2, 2, 0, x -> {
            byte[] b = x.read(0, PAGE, 0, 7);
            assertEquals(1, x.ring.submitAndWait(1));
            assertEquals(1, x.ring.reaped.size() + (x.ring.peekCqe() != null ? 1 : 0));
        });
        assertClean(r);
        assertEquals(PAGE, w[0].res(7));
        assertBytes(w[0], 0, w[0].bufs.get(0), PAGE);
        IoRingCtx ctx = w[0].ring.ctx;
        assertEquals(1, ctx.nrSqes);
        assertEquals(1, ctx.nrCqes);
        assertEquals(1, ctx.nrEiocbqueued);
        assertEquals(1, ctx.nrTaskWorkRetries);
        assertEquals(0, ctx.nrPunts);
        assertTrue(ctx.isFreed(), "the ring is freed once closed and idle");
    }

    @Test
    void aShortFirstAttemptIsRetriedAndBytesDoneAddsTheFirstPart() {
        World[] w = new World[1];
        ExecutionResult r = run(Kconfig.defaults(), w, 2, 2, 0, x -> {
            x.cached(0);
            x.read(0, 2 * PAGE, 0, 1);
            x.ring.submitAndWait(1);
        });
        assertClean(r);
        assertEquals(2 * PAGE, w[0].res(1));
        assertBytes(w[0], 0, w[0].bufs.get(0), 2 * PAGE);
        IoRingCtx ctx = w[0].ring.ctx;
        assertEquals(1, ctx.nrEiocbqueued, "page 1 armed the callback after page 0 was copied");
        assertEquals(1, ctx.nrTaskWorkRetries);
        assertEquals(0, ctx.nrPunts);
    }

    @Test
    void rwfNowaitOnAnUncachedPageCompletesWithEagainAndIsNeverPunted() {
        World[] w = new World[1];
        ExecutionResult r = run(Kconfig.defaults(), w, 2, 2, 0, x -> {
            x.read(0, PAGE, IoUringSqe.RWF_NOWAIT, 3);
            x.ring.submitAndWait(1);
        });
        assertClean(r);
        assertEquals(-Errno.EAGAIN, w[0].res(3));
        assertEquals(0, w[0].ring.ctx.nrPunts);
        assertEquals(0, w[0].ring.ctx.nrEiocbqueued);
    }

    @Test
    void withoutTheSeriesAReadThatWouldBlockIsPuntedAndAFailedPageIsEio() {
        World[] w = new World[1];
        Kconfig noSeries = Kconfig.defaults().with(MmOptions.ASYNC_BUFFERED_READS, 0);
        ExecutionResult r = run(noSeries, w, 2, 2, 0, x -> {
            x.bdev.injectReadError(1);
            x.read(0, PAGE, 0, 1);
            x.read(PAGE, PAGE, 0, 2);
            x.ring.submitAndWait(2);
        });
        assertClean(r);
        assertEquals(PAGE, w[0].res(1));
        assertEquals(-Errno.EIO, w[0].res(2));
        assertBytes(w[0], 0, w[0].bufs.get(0), PAGE);
        assertEquals(2, w[0].ring.ctx.nrPunts);
        assertEquals(0, w[0].ring.ctx.nrEiocbqueued);
    }

    @Test
    void aCallbackFiringAfterTheSubmitterExitedCancelsTheRequestWithEcanceled() {
        World[] w = new World[1];
        ExecutionResult r = run(Kconfig.defaults(), w, 2, 2, 0, x -> {
            x.read(0, PAGE, 0, 5);
            assertEquals(1, x.ring.submitAndWait(0));
        });
        assertClean(r);
        assertEquals(-Errno.ECANCELED, w[0].res(5));
        assertEquals(1, w[0].ring.ctx.nrCancels);
        assertTrue(w[0].ring.ctx.isFreed());
    }

    @Test
    void bugUringNoReqRefIsAUseAfterFreeOfTheRequest() {
        World[] w = new World[1];
        ExecutionResult r = run(Kconfig.defaults().withBug(IoUringBugs.URING_NO_REQ_REF), w, 2, 2, 0, x -> {
            x.read(0, PAGE, 0, 7);
            x.ring.submitAndWait(1);
        });
        assertNotNull(r.violation());
        assertTrue(r.violation().kind() == ViolationKind.USE_AFTER_FREE || r.violation().kind() == ViolationKind.DOUBLE_RELEASE,
                r.violation().summary());
    }

    @Test
    void bugUringCancelLeaksCtxRefLeavesTheExitWorkWaitingForEver() {
        World[] w = new World[1];
        ExecutionResult r = run(Kconfig.defaults().withBug(IoUringBugs.URING_CANCEL_LEAKS_CTX_REF), w, 2, 2, 0, x -> {
            x.read(0, PAGE, 0, 5);
            x.ring.submitAndWait(0);
        });
        assertNotNull(r.violation());
        assertEquals(ViolationKind.MISSED_WAKEUP, r.violation().kind(), r.violation().summary());
        assertTrue(r.violation().summary().contains("ref_comp"), r.violation().summary());
    }
}
