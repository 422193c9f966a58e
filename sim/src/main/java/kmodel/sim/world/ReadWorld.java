package kmodel.sim.world;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import kmodel.fs.blockdev.Bdev;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.sched.Sched;
import kmodel.mm.File;
import kmodel.mm.Filemap;
import kmodel.mm.FilemapRead;
import kmodel.mm.IovIter;
import kmodel.mm.Kiocb;
import kmodel.mm.Page;
import kmodel.mm.PageCache;
import kmodel.mm.PageFlags;

/**
 * The world of the buffered-read scenarios: a block device with deterministic contents, opened
 * as a file ({@code blkdev_open()}: FMODE_NOWAIT, and FMODE_BUF_RASYNC with the async series),
 * whose {@code def_blk_aops} build bios into a simulated disk that completes them in interrupt
 * context. Readers go through {@code generic_file_read_iter()}; every byte a reader gets is
 * checked against the device, and the end of the run checks the page cache's references, that
 * no page is left locked and that every request tag is free.
 */
public final class ReadWorld {
    public final Bdev bdev;
    public final File file;
    /**
     * What each task's reads returned, by task name, in the task's own order. Kept per task so
     * the outcome is a function of the end state, not of the order in which independent tasks
     * happened to finish (which partial-order reduction does not, and need not, vary).
     */
    public final Map<String, List<String>> results = new TreeMap<>();
    /** Pages whose reads fail ({@link #failing}): where the read contract allows {@code -EIO} or a short read. */
    private final java.util.Set<Long> failingPages = new java.util.TreeSet<>();

    public ReadWorld(int nrPages, int nrTags, int raPages) {
        bdev = Bdev.create(nrPages, nrTags, raPages);
        file = bdev.open();
    }

    /**
     * Whether a read of the byte at {@code pos} may fail: its page was made {@link #failing}, or
     * fault injection ({@code FAIL_MAKE_REQUEST}, {@code FAIL_PAGE_ALLOC}) has failed a bio or
     * a page allocation in this execution (any read may then be short or fail: which page a
     * failure hit is not tracked).
     */
    private boolean mayFail(long pos) {
        return failingPages.contains(pos >> Page.PAGE_SHIFT) || bdev.layer.failMakeRequest.injected() > 0
                || bdev.mapping().allocator.failPageAlloc.injected() > 0;
    }

    /** Puts page {@code index} in the page cache, uptodate with the device's bytes (set-up only). */
    public ReadWorld cached(long index) {
        cachePage(bdev, index);
        return this;
    }

    /**
     * Puts page {@code index} of {@code bdev} in its page cache, uptodate with the device's bytes,
     * holding only the cache's reference (set-up only; shared with {@link UringWorld}).
     */
    public static void cachePage(Bdev bdev, long index) {
        Page p = PageCache.pageCacheAlloc(bdev.mapping());
        bdev.disk.copyOut(index << Page.PAGE_SHIFT, p.data, 0, Page.PAGE_SIZE);
        PageCache.addToPageCacheLru(p, bdev.mapping(), index);
        PageFlags.SetPageUptodate(p);
        Filemap.unlockPage(p);
        Page.putPage(p);
    }

    /**
     * Puts page {@code index} in the page cache unlocked and not uptodate, with {@code PG_error},
     * as a read that failed once leaves it (v5.10 {@code end_buffer_async_read()} /
     * {@code mpage_end_io()}: {@code SetPageError()}, unlock, no uptodate); the device's bytes are
     * good, so a later read succeeds (a transient error). Set-up only.
     */
    public ReadWorld cachedNotUptodate(long index) {
        Page p = PageCache.pageCacheAlloc(bdev.mapping());
        PageCache.addToPageCacheLru(p, bdev.mapping(), index);
        PageFlags.SetPageError(p);
        Filemap.unlockPage(p);
        Page.putPage(p);
        return this;
    }

    /** Makes reads of page {@code index} fail (set-up only). */
    public ReadWorld failing(long index) {
        bdev.injectReadError(index);
        failingPages.add(index);
        return this;
    }

    /**
     * A synchronous {@code read(2)}: one {@code generic_file_read_iter()} with {@code flags}
     * ({@code 0} or {@code IOCB_NOWAIT}); checks the bytes it got.
     */
    public long read(long pos, int len, int flags) {
        IovIter iter = new IovIter(len);
        kmodel.kernel.Kernel.accessRead(file.fInode.iSize); // the contract's view of i_size is a read of it (footprint audit)
        long size = file.fInode.iSize.plain();
        long ret = FilemapRead.genericFileReadIter(new Kiocb(file, pos, flags), iter);
        Kernel.event("read(%s, %s) = %s", pos, len, Errno.name(ret));
        Contracts.readCount(flags == 0 ? "read" : "preadv2", file, pos, len, flags, ret, size,
                this::mayFail);
        if (ret > 0) {
            bdev.expectBytes(pos, iter.buf, 0, (int) ret);
        }
        result(Errno.name(ret));
        return ret;
    }

    /**
     * {@code preadv2(2)} with {@code RWF_NOWAIT}: the flags as {@code kiocb_set_rw_flags()} maps
     * them, {@code IOCB_NOWAIT}, and from v5.9 (efa8480a8316, "fs: RWF_NOWAIT should imply
     * IOCB_NOIO", with seed 002's read-ahead under {@code IOCB_NOWAIT}: {@code READAHEAD_NOWAIT=y})
     * {@code IOCB_NOIO} too. See {@link #preadv2Nowait(long, int, int)}.
     */
    public long preadv2Nowait(long pos, int len) {
        boolean v59 = Kernel.config().enabled(kmodel.mm.MmOptions.READAHEAD_NOWAIT);
        return preadv2Nowait(pos, len, Kiocb.IOCB_NOWAIT | (v59 ? Kiocb.IOCB_NOIO : 0));
    }

    /**
     * {@code preadv2(2)} with {@code RWF_NOWAIT} reaching {@code ->read_iter} with the kiocb flags
     * {@code kiocbFlags} (a test passes {@code IOCB_NOWAIT} alone to re-create 2e85abf053b9 before
     * its fix). The contract, checked here: it never sleeps (the read's own {@code IOCB_NOWAIT}
     * section), its count obeys {@link Contracts#readCount}, and from v5.9 it starts no I/O: the
     * call is a {@link Sched#noioEnter} section of its own, whatever flags reach the read.
     */
    public long preadv2Nowait(long pos, int len, int kiocbFlags) {
        boolean v59 = Kernel.config().enabled(kmodel.mm.MmOptions.READAHEAD_NOWAIT);
        IovIter iter = new IovIter(len);
        kmodel.kernel.Kernel.accessRead(file.fInode.iSize); // the contract's view of i_size is a read of it (footprint audit)
        long size = file.fInode.iSize.plain();
        if (v59) {
            Sched.noioEnter("preadv2(RWF_NOWAIT): v5.9+, efa8480a8316");
        }
        long ret = FilemapRead.genericFileReadIter(new Kiocb(file, pos, kiocbFlags), iter);
        if (v59) {
            Sched.noioExit();
        }
        Kernel.event("preadv2(%s, %s, RWF_NOWAIT) = %s", pos, len, Errno.name(ret));
        Contracts.readCount("preadv2", file, pos, len, Kiocb.IOCB_NOWAIT, ret, size,
                this::mayFail);
        if (ret > 0) {
            bdev.expectBytes(pos, iter.buf, 0, (int) ret);
        }
        result(Errno.name(ret));
        return ret;
    }

    /**
     * An io_uring-style async buffered read (fs/io_uring.c {@code io_read()}, v5.10, reduced):
     * each attempt arms the page-unlock callback ({@code IOCB_WAITQ}) and calls
     * {@code generic_file_read_iter()}; on {@code -EIOCBQUEUED} the task waits for the
     * callback's task_work and re-issues; a short read is retried from where it stopped, as
     * "io_uring: internally retry short reads" does. Returns the bytes read, or the error of an
     * attempt that read nothing.
     */
    public long readAsync(String name, long pos, int len) {
        if ((file.fMode & File.FMODE_BUF_RASYNC) == 0) {
            /*
             * io_rw_should_retry(): no FMODE_BUF_RASYNC (the async series is off), so io_uring
             * punts the read to an io-wq worker, which does a blocking read; the model does that
             * read in this task.
             */
            Kernel.event("no FMODE_BUF_RASYNC: punt to io-wq (blocking read)");
            return read(pos, len, 0);
        }
        AsyncRetry retry = new AsyncRetry(name + ".wpq");
        IovIter iter = new IovIter(len);
        long done = 0;
        long ret;
        for (;;) {
            Kiocb kiocb = new Kiocb(file, pos + done, 0);
            retry.waiter.arm(kiocb);
            ret = FilemapRead.genericFileReadIter(kiocb, iter);
            if (ret == -Errno.EIOCBQUEUED) {
                Kernel.event("read: -EIOCBQUEUED, callback armed");
                retry.awaitCallback();
                continue;
            }
            if (ret > 0) {
                done += ret;
                if (done < len) {
                    continue;
                }
            }
            break;
        }
        long result = done > 0 ? done : ret;
        Kernel.event("async read(%s, %s) = %s", pos, len, Errno.name(result));
        if (done > 0) {
            bdev.expectBytes(pos, iter.buf, 0, (int) done);
        }
        result(Errno.name(result) + "/" + retry.retries() + "cb");
        return result;
    }

    /** End-of-run checks. */
    public void check() {
        bdev.checkAtEnd();
        bdev.expectCacheMatchesDisk();
        bdev.mapping().allocator.waitTable().checkInvariants();
    }

    private void result(String r) {
        results.computeIfAbsent(Sched.current().name(), k -> new ArrayList<>()).add(r);
    }

    /** Each task's results, e.g. {@code r0=4096 r01=4096,-EIO}. */
    public String outcome() {
        StringBuilder sb = new StringBuilder();
        results.forEach((task, rs) -> sb.append(sb.length() == 0 ? "" : " ").append(task).append('=')
                .append(Texts.join(",", rs)));
        return sb.toString();
    }
}
