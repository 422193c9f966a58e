package kmodel.iouring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import kmodel.fs.blockdev.Bdev;
import kmodel.kernel.Kconfig;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Program;
import kmodel.kernel.sched.Run;
import kmodel.kernel.sched.Runtime;
import kmodel.kernel.sched.Sched;
import kmodel.mm.FilemapRead;
import kmodel.mm.IovIter;
import kmodel.mm.Kiocb;
import kmodel.mm.MmOptions;
import kmodel.mm.Page;
import org.junit.jupiter.api.Test;

/**
 * Seed 002's claim on one fixed schedule ({@link Run}'s non-preemptive one): four buffered reads
 * of uncached pages (read-ahead off) by one task, in the three ways the issue names. With the
 * series no read is punted to io-wq; without it (no {@code FMODE_BUF_RASYNC}) every read that
 * misses the cache is. Counts per mode: punts, {@code -EIOCBQUEUED} arms, task_work retries,
 * and the submitting task's voluntary context switches ({@code nvcsw}).
 */
class SeedClaimTest {
    private static final int N = 4;

    /** {punts, arms, retries, submitter nvcsw} of one run. */
    static long[] uring(Kconfig config) {
        long[] out = new long[4];
        Bdev[] dev = new Bdev[1];
        ExecutionResult r = Run.once(new Program() {
            @Override
            public void boot(Runtime rt) {
                rt.spawn("t1", null, false, false, () -> {
                    Bdev b = Bdev.create(N, 4, 0);
                    dev[0] = b;
                    IoFd fd = new IoFd(b.open(), 0);
                    Liburing ring = Liburing.queueInit("ring0", N);
                    for (int i = 0; i < N; i++) {
                        ring.prepRead(fd, new byte[Page.PAGE_SIZE], (long) i * Page.PAGE_SIZE, i);
                    }
                    ring.submitAndWait(N);
                    ring.waitCqes(N);
                    out[0] = ring.ctx.nrPunts;
                    out[1] = ring.ctx.nrEiocbqueued;
                    out[2] = ring.ctx.nrTaskWorkRetries;
                    out[3] = Sched.current().nvcsw();
                    IoUringExit.doExit(ring.ctx);
                });
            }

            @Override
            public String finish() {
                dev[0].checkAtEnd();
                return "";
            }
        }, config);
        assertNull(r.violation(), () -> r.violation().summary());
        return out;
    }

    static long preadv() {
        long[] out = new long[1];
        Bdev[] dev = new Bdev[1];
        ExecutionResult r = Run.once(new Program() {
            @Override
            public void boot(Runtime rt) {
                rt.spawn("t1", null, false, false, () -> {
                    Bdev b = Bdev.create(N, 4, 0);
                    dev[0] = b;
                    kmodel.mm.File f = b.open();
                    for (int i = 0; i < N; i++) {
                        FilemapRead.genericFileReadIter(new Kiocb(f, (long) i * Page.PAGE_SIZE, 0), new IovIter(Page.PAGE_SIZE));
                    }
                    out[0] = Sched.current().nvcsw();
                });
            }

            @Override
            public String finish() {
                dev[0].checkAtEnd();
                return "";
            }
        }, Kconfig.defaults());
        assertNull(r.violation(), () -> r.violation().summary());
        return out[0];
    }

    @Test
    void withTheSeriesNoReadIsPuntedWithoutItEveryMissIs() {
        long[] series = uring(Kconfig.defaults());
        long[] mainline = uring(Kconfig.defaults().with(MmOptions.ASYNC_BUFFERED_READS, 0));
        long plain = preadv();
        System.out.printf("seed 002, %d uncached 4 KiB reads, one fixed schedule:%n", N);
        System.out.printf("  preadv:                  submitter nvcsw %d%n", plain);
        System.out.printf("  io_uring without series: punts %d, arms %d, task_work retries %d, submitter nvcsw %d%n",
                mainline[0], mainline[1], mainline[2], mainline[3]);
        System.out.printf("  io_uring with series:    punts %d, arms %d, task_work retries %d, submitter nvcsw %d%n",
                series[0], series[1], series[2], series[3]);
        assertEquals(0, series[0], "with the series nothing is punted");
        assertEquals(N, series[1], "each read armed a page-unlock callback once");
        assertEquals(N, mainline[0], "without it every read that misses the cache is punted");
        assertEquals(0, mainline[1]);
    }
}
