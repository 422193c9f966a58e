package kmodel.sim.world;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import kmodel.fs.blockdev.Bdev;
import kmodel.iouring.IoFd;
import kmodel.iouring.IoRingCtx;
import kmodel.iouring.IoUringExit;
import kmodel.iouring.IoUringOptions;
import kmodel.iouring.Liburing;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.Sched;
import kmodel.mm.FilemapRead;
import kmodel.mm.IovIter;
import kmodel.mm.Kiocb;

/**
 * The world of the io_uring scenarios: a block device with deterministic contents (as
 * {@link ReadWorld}: {@code blkdev_open()}, {@code def_blk_aops}, bios completed in interrupt
 * context), opened once for the ring's reads ({@link #fd}) and shared with plain readers, and at
 * most one ring per task.
 *
 * <h2>API (for scenarios)</h2>
 * <ul>
 *   <li>set-up: {@code new UringWorld(pages, tags, ra)}, {@link #cached}, {@link #failing};</li>
 *   <li>in a task: {@link #setupRing} ({@code io_uring_setup}); {@link #queueRead} fills an SQE
 *       (user_data, offset, length, {@code RWF_*}); {@link #submitAndWait}
 *       ({@code io_uring_enter(to_submit, wait_nr, GETEVENTS)}); {@link #reap} (reap n CQEs,
 *       entering the kernel to wait); {@link #close} ({@code close(ring_fd)}); {@link #exit}
 *       ({@code do_exit()}: cancel, the ring's last fput, {@code PF_EXITING}, final task_work);
 *       {@link #read} (a plain {@code read(2)});</li>
 *   <li>{@link #mayBeCancelled} marks reads that may end with {@code -ECANCELED} (their task
 *       exits while they are in flight);</li>
 *   <li>{@link #check} at the end: every SQE has exactly one CQE ({@code lost-completion},
 *       {@code double-completion}), its {@code res} is the length read or an allowed
 *       cancellation ({@code wrong-result}), the bytes are the device's ({@code data-corruption}),
 *       every ring was freed, and the device's own end checks (page references, no page
 *       locked, every tag free); {@link #outcome} names each request's result.</li>
 * </ul>
 */
public final class UringWorld {
    public final Bdev bdev;
    /** The file the rings read ({@code O_RDONLY}, no {@code O_DIRECT}). */
    public final IoFd fd;
    /** Rings by the task that set them up. */
    public final Map<String, Liburing> rings = new TreeMap<>();
    /** Reads queued: user_data -&gt; {offset, length}. */
    public final Map<Long, long[]> reads = new TreeMap<>();
    /** Their buffers. */
    public final Map<Long, byte[]> bufs = new TreeMap<>();
    /** The ring each read went to. */
    public final Map<Long, Liburing> ringOf = new TreeMap<>();
    /** user_data of reads that may end with -ECANCELED. */
    public final List<Long> cancellable = new ArrayList<>();
    /** Plain read(2) results by task. */
    public final Map<String, List<String>> results = new TreeMap<>();
    /** Pages whose reads fail ({@link #failing}): where the read contract allows {@code -EIO} or a short read. */
    private final java.util.Set<Long> failingPages = new java.util.TreeSet<>();

    public UringWorld(int nrPages, int nrTags, int raPages) {
        this(nrPages, nrTags, raPages, kmodel.block.DiskKind.NOWAIT);
    }

    /** The same on a device of the given kind (nowait support, none, or {@code BLK_STS_AGAIN} at completion). */
    public UringWorld(int nrPages, int nrTags, int raPages, kmodel.block.DiskKind kind) {
        bdev = Bdev.create(nrPages, nrTags, raPages, kind);
        fd = new IoFd(bdev.open(), 0);
    }

    /** Puts page {@code index} in the page cache, uptodate with the device's bytes (set-up only). */
    public UringWorld cached(long index) {
        ReadWorld.cachePage(bdev, index);
        return this;
    }

    /** Makes reads of page {@code index} fail (set-up only). */
    public UringWorld failing(long index) {
        bdev.injectReadError(index);
        failingPages.add(index);
        return this;
    }

    /** {@code io_uring_setup(entries)} by the current task: its ring. */
    public Liburing setupRing(int entries) {
        String me = Sched.current().name();
        Liburing ring = Liburing.queueInit(me + ".ring", entries);
        rings.put(me, ring);
        return ring;
    }

    private Liburing myRing() {
        return rings.get(Sched.current().name());
    }

    /** Fills an SQE on the current task's ring: read {@code len} bytes at {@code off}. */
    public void queueRead(long userData, long off, int len, int rwFlags) {
        Liburing ring = myRing();
        byte[] buf = new byte[len];
        reads.put(userData, new long[] {off, len});
        bufs.put(userData, buf);
        ringOf.put(userData, ring);
        ring.prepRead(fd, buf, off, userData).rwFlags = rwFlags;
    }

    /** Marks {@code userData} as allowed to end with {@code -ECANCELED}. */
    public UringWorld mayBeCancelled(long userData) {
        cancellable.add(userData);
        return this;
    }

    /** {@code io_uring_submit_and_wait(waitNr)} on the current task's ring. */
    public long submitAndWait(int waitNr) {
        long ret = myRing().submitAndWait(waitNr);
        Kernel.event("io_uring_submit_and_wait(%s) = %s", waitNr, Errno.name(ret));
        return ret;
    }

    /**
     * {@code io_uring_enter(ring_fd, toSubmit, 0, 0)} on the current task's ring, as an
     * application calls it itself (not through liburing's submit, which counts the SQEs it
     * filled): may submit fewer than {@code toSubmit} (none if the SQ ring is empty) or refuse
     * with {@code -EBUSY} while a CQ backlog cannot be flushed.
     */
    public long enter(int toSubmit) {
        long ret = kmodel.iouring.IoUring.ioUringEnter(myRing().ctx, toSubmit, 0, 0);
        Kernel.event("io_uring_enter(%s, 0, 0) = %s", toSubmit, Errno.name(ret));
        return ret;
    }

    /** Reaps {@code n} CQEs from the current task's ring, waiting in the kernel as needed. */
    public void reap(int n) {
        myRing().waitCqes(n);
    }

    /** {@code close(ring_fd)}. */
    public void close() {
        myRing().close();
    }

    /** {@code do_exit()} of the current task with its ring (if not closed). */
    public void exit() {
        Liburing ring = myRing();
        IoUringExit.doExit(ring.ctx);
    }

    /** A synchronous {@code read(2)} of the same file; checks its bytes. */
    public long read(long pos, int len) {
        IovIter iter = new IovIter(len);
        kmodel.kernel.Kernel.accessRead(fd.file.fInode.iSize); // the contract's view of i_size is a read of it (footprint audit)
        long size = fd.file.fInode.iSize.plain();
        long ret = FilemapRead.genericFileReadIter(new Kiocb(fd.file, pos, 0), iter);
        Kernel.event("read(%s, %s) = %s", pos, len, Errno.name(ret));
        Contracts.readCount("read", fd.file, pos, len, 0, ret, size,
                p -> failingPages.contains(p >> kmodel.mm.Page.PAGE_SHIFT) || bdev.layer.failMakeRequest.injected() > 0);
        if (ret > 0) {
            bdev.expectBytes(pos, iter.buf, 0, (int) ret);
        }
        results.computeIfAbsent(Sched.current().name(), k -> new ArrayList<>()).add(Errno.name(ret));
        return ret;
    }

    /** End-of-run checks; see the class comment. */
    public void check() {
        for (Map.Entry<Long, long[]> e : reads.entrySet()) {
            long ud = e.getKey();
            long off = e.getValue()[0];
            int len = (int) e.getValue()[1];
            IoRingCtx ctx = ringOf.get(ud).ctx;
            int n = 0;
            long res = 0;
            for (long[] c : ctx.cqeLog) {
                if (c[0] == ud) {
                    n++;
                    res = c[1];
                }
            }
            if (n == 0) {
                Kernel.fail(ViolationKind.LOST_COMPLETION, "SQE " + ud + " on " + ctx + " never got a CQE");
            }
            if (n > 1) {
                Kernel.fail(ViolationKind.DOUBLE_COMPLETION, "SQE " + ud + " on " + ctx + " got " + n + " CQEs");
            }
            boolean ok = res == len || (res == -Errno.ECANCELED && cancellable.contains(ud))
                    /* a bio failed by fail_make_request (FAIL_MAKE_REQUEST): -EIO, or the bytes before it */
                    || ((res == -Errno.EIO || (res > 0 && res < len)) && bdev.layer.failMakeRequest.injected() > 0);
            if (!ok) {
                Kernel.fail(ViolationKind.WRONG_RESULT, "SQE " + ud + " (read " + len + " at " + off + ") completed with res "
                        + Errno.name(res));
            }
            if (res > 0) {
                bdev.expectBytes(off, bufs.get(ud), 0, (int) res);
            }
        }
        for (Liburing ring : rings.values()) {
            if (!ring.ctx.isFreed()) {
                Kernel.fail(ViolationKind.REF_LEAK, ring.ctx + " was closed but never freed (ctx->refs " + ring.ctx.refs()
                        + ")");
            }
        }
        bdev.checkAtEnd();
        bdev.expectCacheMatchesDisk();
        bdev.mapping().allocator.waitTable().checkInvariants();
    }

    /** Each request's result and each plain reader's, e.g. {@code 1=4096 2=-ECANCELED sync=4096}. */
    public String outcome() {
        StringBuilder sb = new StringBuilder();
        for (Liburing ring : rings.values()) {
            for (long[] c : ring.ctx.cqeLog) {
                sb.append(sb.length() == 0 ? "" : " ").append(c[0]).append('=').append(Errno.name(c[1]));
            }
        }
        results.forEach((task, rs) -> sb.append(sb.length() == 0 ? "" : " ").append(task).append('=')
                .append(Texts.join(",", rs)));
        return sb.toString();
    }

    /**
     * Completion latencies of {@link #readAll}'s reads in virtual time (from the SQE queued, or
     * the {@code preadv} call, to the CQE reaped or the call's return), when a simulation asked
     * for them ({@link #recordLatencies}); null otherwise.
     */
    public List<Long> latencies;
    private final Map<Long, Long> queuedAt = new TreeMap<>();

    /** Records {@link #readAll}'s latencies in virtual time (the simulation, {@code SimPrograms}). */
    public UringWorld recordLatencies() {
        latencies = new ArrayList<>();
        return this;
    }

    /** Tasks that ran {@link #readAll}, for counting their context switches. */
    public final List<kmodel.kernel.sched.Task> readers = new ArrayList<>();

    /**
     * Seed 002's workload in the configured reading mode ({@link IoUringOptions#URING_READS}):
     * reads of {@code len} bytes at {@code offsets}, at most {@code qd} in flight through the
     * current task's ring (filled as CQEs are reaped, user_data 1, 2, ...), then the ring closed
     * and the task exited; or, with {@code URING_READS=n}, one {@code preadv(2)} after another.
     */
    public void readAll(long[] offsets, int len, int qd) {
        readers.add(Sched.current());
        if (!Kernel.config().enabled(IoUringOptions.URING_READS)) {
            for (long off : offsets) {
                long t0 = Kernel.rt().now();
                Kernel.rt().work(kmodel.kernel.sched.Work.SYSCALL, 1);
                read(off, len);
                if (latencies != null) {
                    latencies.add(Kernel.rt().now() - t0);
                }
            }
            return;
        }
        setupRing(qd);
        int next = 0;
        int inflight = 0;
        while (next < offsets.length || inflight > 0) {
            int queued = 0;
            while (inflight < qd && next < offsets.length) {
                queueRead(next + 1, offsets[next], len, 0);
                if (latencies != null) {
                    queuedAt.put((long) next + 1, Kernel.rt().now());
                }
                next++;
                inflight++;
                queued++;
            }
            if (queued > 0) {
                submitAndWait(0);
            }
            /* io_uring_wait_cqe(): an -EINTR from io_uring_enter() (task_work ran) is retried */
            Liburing ring = myRing();
            int before = ring.reaped.size();
            while (ring.reaped.size() == before) {
                reap(1);
            }
            if (latencies != null) {
                long ud = ring.reaped.get(ring.reaped.size() - 1).userData;
                latencies.add(Kernel.rt().now() - queuedAt.remove(ud));
            }
            inflight--;
        }
        close();
        exit();
    }

    /** {@link #counters()} as numbers: punts, workers, armed, retries, switches. */
    public long[] counterValues() {
        long punts = 0;
        long workers = 0;
        long armed = 0;
        long retries = 0;
        long switches = 0;
        for (kmodel.kernel.sched.Task t : readers) {
            switches += t.nvcsw();
        }
        for (Liburing ring : rings.values()) {
            IoRingCtx ctx = ring.ctx;
            punts += ctx.nrPunts;
            armed += ctx.nrEiocbqueued;
            retries += ctx.nrTaskWorkRetries;
            workers += ctx.ioWq().workersCreated;
            for (kmodel.kernel.sched.Task t : ctx.ioWq().tasks) {
                switches += t.nvcsw();
            }
        }
        return new long[] {punts, workers, armed, retries, switches};
    }

    /**
     * The counters of seed 002's comparison, after the run: SQEs punted to io-wq, io-wq workers
     * started, callbacks armed ({@code -EIOCBQUEUED}), task_work retries, and the voluntary
     * context switches of the reading tasks and of io-wq's tasks (the manager and its workers;
     * interrupts are not tasks that switch).
     */
    public String counters() {
        long[] c = counterValues();
        return "punts=" + c[0] + " workers=" + c[1] + " armed=" + c[2] + " retries=" + c[3] + " switches=" + c[4];
    }
}
