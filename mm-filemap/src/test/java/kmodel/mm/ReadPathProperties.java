package kmodel.mm;

import static kmodel.mm.Page.PAGE_SIZE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import kmodel.kernel.Errno;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.lifetime.KObject;
import kmodel.kernel.sched.Program;
import kmodel.kernel.sched.Runtime;
import kmodel.kernel.sched.Task;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Random read workloads (readers, offsets, sizes, read-ahead windows, a bad page, synchronous or
 * interrupt completions, plain / {@code IOCB_NOWAIT} / {@code IOCB_WAITQ} readers) run under
 * seeded random schedules: no violation, every byte returned is the file's, and each result is
 * one the kernel's contract allows.
 */
class ReadPathProperties {
    static final int SCHEDULES = 15;

    /** How a reader issues its read. */
    enum Style {
        /** A plain blocking read (read(2)). */
        PLAIN,
        /** {@code IOCB_NOWAIT} (preadv2 RWF_NOWAIT). */
        NOWAIT,
        /** {@code IOCB_WAITQ} with the page-unlock callback, retried from task_work until done. */
        WAITQ
    }

    /** One reader's request. */
    static final class Reader {
        final long pos;
        final int len;
        final Style style;

        Reader(long pos, int len, Style style) {
            this.pos = pos;
            this.len = len;
            this.style = style;
        }

        @Override
        public String toString() {
            return style + "@" + pos + "+" + len;
        }
    }

    /** One workload. */
    static final class Workload {
        final long size;
        final int raPages;
        final FakeAops.Mode mode;
        final boolean viaIrq;
        final long badPage;
        final List<Reader> readers;
        /** 0: defaults; 1: v5.7 page waits; 2: no read-ahead under NOWAIT; 3: no async buffered reads. */
        int variant;

        Workload(long size, int raPages, FakeAops.Mode mode, boolean viaIrq, long badPage, List<Reader> readers) {
            this.size = size;
            this.raPages = raPages;
            this.mode = mode;
            this.viaIrq = viaIrq;
            this.badPage = badPage;
            this.readers = readers;
        }

        @Override
        public String toString() {
            return "variant=" + variant + " size=" + size + " ra=" + raPages + " " + mode + (viaIrq ? " irq" : " sync") + " bad=" + badPage
                    + " " + readers;
        }
    }

    @Provide
    Arbitrary<Workload> workloads() {
        Arbitrary<Reader> reader = Combinators.combine(Arbitraries.longs().between(0, 4L * PAGE_SIZE + 100),
                Arbitraries.integers().between(1, 3 * PAGE_SIZE), Arbitraries.of(Style.class)).as(Reader::new);
        return Combinators.combine(Arbitraries.longs().between(1, 4L * PAGE_SIZE), Arbitraries.of(0, 1, 2, 4, 8),
                Arbitraries.of(FakeAops.Mode.class), Arbitraries.of(true, false), Arbitraries.longs().between(-1, 4),
                reader.list().ofMinSize(1).ofMaxSize(3)).as(Workload::new)
                .flatMap(w -> Arbitraries.integers().between(0, 3).map(v -> {
                    w.variant = v;
                    return w;
                }));
    }

    static Kconfig config(Workload wl) {
        Kconfig c = Kconfig.defaults().with(MmOptions.PAGE_WAIT_TABLE_SIZE, 2);
        switch (wl.variant) {
            case 1: return c.with(MmOptions.PAGE_WAIT_V57, true);
            case 2: return c.with(MmOptions.READAHEAD_NOWAIT, false);
            case 3: return c.with(MmOptions.ASYNC_BUFFERED_READS, false);
            default: return c;
        }
    }

    /**
     * What the kernel owes a plain reader: every byte up to EOF; but if the bad page (inside the
     * file) is the first page the read touches, {@code -EIO} (even for a read at EOF inside that
     * page: the page must be read to learn the size is reached), and if it comes later, the bytes
     * before it.
     */
    static long owed(Workload w, Reader r) {
        long max = Math.max(0, Math.min(r.len, w.size - r.pos));
        long first = r.pos >> Page.PAGE_SHIFT;
        boolean badInFile = w.badPage >= 0 && w.badPage * PAGE_SIZE < w.size;
        if (!badInFile) {
            return max;
        }
        if (w.badPage == first) {
            return -Errno.EIO;
        }
        long badStart = w.badPage * PAGE_SIZE;
        if (w.badPage > first && badStart < r.pos + max) {
            return badStart - r.pos;
        }
        return max;
    }

    static Program program(Workload wl, List<String> results) {
        return new Program() {
            final List<String> mine = new ArrayList<>();

            ReadWorld world;

            @Override
            public void boot(Runtime rt) {
                world = new ReadWorld(wl.size, wl.raPages, wl.mode, wl.viaIrq);
                if (wl.badPage >= 0) {
                    world.aops.badPages.add(wl.badPage);
                }
                for (int i = 0; i < wl.readers.size(); i++) {
                    Reader r = wl.readers.get(i);
                    File f = new File("file" + i, world.inode, wl.raPages);
                    f.fMode |= File.FMODE_NOWAIT | File.FMODE_BUF_RASYNC;
                    Task[] me = new Task[1];
                    me[0] = rt.spawn("reader" + i, null, false, false, () -> mine.add(read(f, r, me[0])));
                }
            }

            String read(File f, Reader r, Task me) {
                long owed = owed(wl, r);
                IovIter iter = new IovIter(r.len);
                Kiocb iocb = new Kiocb(f, r.pos, r.style == Style.NOWAIT ? Kiocb.IOCB_NOWAIT : 0);
                if (r.style != Style.WAITQ) {
                    long ret = FilemapRead.genericFileReadIter(iocb, iter);
                    if (ret > 0) {
                        ReadWorld.checkBytes(iter, r.pos, ret);
                    }
                    if (r.style == Style.PLAIN) {
                        expect(ret == owed, r + " returned " + Errno.name(ret) + ", owed " + Errno.name(owed));
                        return ret < 0 ? Errno.name(ret) : ret == 0 ? "0 (EOF)" : "bytes";
                    }
                    expect(ret == -Errno.EAGAIN || ret == owed || ret > 0 && ret < owed,
                            r + " returned " + Errno.name(ret) + ", owed " + Errno.name(owed));
                    return ret == -Errno.EAGAIN ? "-EAGAIN" : ret < owed ? "nowait partial" : "nowait complete";
                }
                /* IOCB_WAITQ with io_uring's retry: re-arm and re-issue at the new position until done. */
                boolean[] retried = {false};
                AsyncPageWaiter waiter = new AsyncPageWaiter(me.name() + ".wpq", me, cb -> retried[0] = true, null, null);
                long done = 0;
                int queued = 0;
                for (;;) {
                    Kiocb k = new Kiocb(f, r.pos + done, Kiocb.IOCB_NOWAIT);
                    waiter.arm(k);
                    IovIter it = new IovIter((int) (r.len - done));
                    long ret = FilemapRead.genericFileBufferedRead(k, it, 0);
                    if (ret == -Errno.EIOCBQUEUED) {
                        queued++;
                        retried[0] = false;
                        Sim.sleepUntil(() -> retried[0], me.name() + " retry");
                        continue;
                    }
                    if (ret > 0) {
                        for (int i = 0; i < ret; i++) {
                            iter.buf[(int) done + i] = it.buf[i];
                        }
                        done += ret;
                        if (done < r.len) {
                            continue;
                        }
                    }
                    long total = done > 0 ? done : ret;
                    if (total > 0) {
                        ReadWorld.checkBytes(iter, r.pos, total);
                    }
                    expect(total == owed, r + " got " + Errno.name(total) + ", owed " + Errno.name(owed));
                    return (queued > 0 ? "waitq after -EIOCBQUEUED " : "waitq at once ") + (total < 0 ? Errno.name(total) : "");
                }
            }

            void expect(boolean cond, String what) {
                if (!cond) {
                    Kernel.fail(ViolationKind.BUG_ON, "read contract: " + what);
                }
            }

            @Override
            public String finish() {
                world.finish();
                boolean waited = false;
                for (KObject o : Kernel.lifetimes().objects()) {
                    if (o.name().endsWith(".wait_page")) {
                        waited = true;
                    }
                }
                results.addAll(mine);
                results.add(waited ? "slept on a page" : "never slept on a page");
                return "";
            }
        };
    }

    @Property(tries = 200, seed = "20201213")
    void everyReaderGetsTheFilesBytesOrTheErrorItIsOwed(@ForAll("workloads") Workload wl) {
        List<String> results = new ArrayList<>();
        Kconfig c = config(wl);
        Sim.Outcome o = Sim.explore(() -> program(wl, results), c, SCHEDULES, wl.toString().hashCode());
        assertEquals(0, o.violations(), () -> wl + ": " + o.describe());
        assertEquals(0, o.stepBounds, () -> wl + ": step bound");
        for (String r : results) {
            Statistics.label(r.contains("slept") ? "contention" : "result").collect(r);
        }
        Statistics.label("configuration").collect(c.toString());
        Statistics.label("bad page").collect(wl.badPage >= 0 && wl.badPage * PAGE_SIZE < wl.size ? "in file" : "none");
    }

    /** The property's checks can fail: the same workload runner finds a catalog bug (v1 async wait). */
    @net.jqwik.api.Example
    void theWorkloadRunnerFindsTheV1AsyncWaitRace() {
        Workload wl = new Workload(2L * PAGE_SIZE, 0, FakeAops.Mode.READAHEAD, true, -1,
                List.of(new Reader(0, PAGE_SIZE, Style.WAITQ), new Reader(0, PAGE_SIZE, Style.PLAIN)));
        Kconfig bug = config(wl).withBug(FilemapBugs.ASYNC_WAIT_CHECK_BEFORE_ADD);
        Sim.Outcome o = Sim.explore(() -> program(wl, new ArrayList<>()), bug, 3000, 11);
        assertTrue(o.count(ViolationKind.MISSED_WAKEUP) > 0, o::describe);
    }
}
