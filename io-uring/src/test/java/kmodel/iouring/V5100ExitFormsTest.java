package kmodel.iouring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import kmodel.kernel.Kconfig;
import kmodel.kernel.atomic.Bitops;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Program;
import kmodel.kernel.sched.Run;
import kmodel.kernel.sched.Runtime;
import kmodel.mm.MmOptions;
import kmodel.mm.Page;
import org.junit.jupiter.api.Test;

/**
 * v5.10.0's io_uring exit and teardown forms ({@link IoUringOptions#URING_CLOSE_CANCEL_ALL},
 * {@link IoUringOptions#URING_FORCE_FLUSH_DROPS}, {@link IoUringOptions#URING_CANCEL_AFTER_EXITING},
 * all y in the {@code v5.10} profile) against 5.10.13's, on one fixed schedule each: what each fix
 * changed is visible, so the forms are live code, not names. The kernel bugs the fixes name need a
 * ring or an io-wq shared between tasks or rings, which the model's worlds do not have; these tests
 * show the mechanism on one ring.
 */
class V5100ExitFormsTest {
    private static final int PAGE = Page.PAGE_SIZE;

    /**
     * 00c18640c243 (5.10.4): {@code io_wq_cancel_all()} sets {@code IO_WQ_BIT_CANCEL} for good, so
     * a work queued after it is run cancelled; {@code io_wq_cancel_cb()} cancels what is queued
     * then, and a later work runs.
     */
    @Test
    void afterCancelAllALaterWorkIsCancelledAfterCancelCbItRuns() {
        for (boolean all : new boolean[] {true, false}) {
            List<String> log = new ArrayList<>();
            ExecutionResult r = Run.once(new Program() {
                @Override
                public void boot(Runtime rt) {
                    rt.spawn("closer", null, false, false, () -> {
                        IoWq wq = IoWq.ioWqCreate("wq", 1, 0, work -> {
                            log.add(work.owner + ((work.flags & IoWqWork.IO_WQ_WORK_CANCEL) != 0 ? ":cancelled" : ":ran"));
                            return null;
                        }, work -> { });
                        if (all) {
                            IoWq.ioWqCancelAll(wq);
                        } else {
                            IoWq.ioWqCancelCb(wq, (work, data) -> true, null, true);
                        }
                        IoWq.ioWqEnqueue(wq, new IoWqWork("later"));
                        IoWq.ioWqDestroy(wq);
                    });
                }

                @Override
                public String finish() {
                    return "";
                }
            }, Kconfig.defaults());
            assertNull(r.violation(), () -> String.valueOf(r.violation()));
            assertEquals(List.of(all ? "later:cancelled" : "later:ran"), log, all ? "io_wq_cancel_all" : "io_wq_cancel_cb");
        }
    }

    /** One task, one ring of 4 entries (8 CQEs) on a 10-page device: {@code body} runs, then the task exits. */
    private static IoReadTest.World run(Kconfig config, java.util.function.Consumer<IoReadTest.World> body) {
        IoReadTest.World[] w = new IoReadTest.World[1];
        ExecutionResult r = IoReadTest.run(config, w, 10, 2, 0, body);
        IoReadTest.assertClean(r);
        return w[0];
    }

    /** The ring close of each form: v5.10.0's leaves io-wq's cancel bit set, 5.10.13's does not. */
    @Test
    void ringCloseLeavesTheCancelBitSetOnlyInV5100() {
        for (boolean v5100 : new boolean[] {true, false}) {
            Kconfig cfg = Kconfig.defaults().with(MmOptions.ASYNC_BUFFERED_READS, 0)
                    .with(IoUringOptions.URING_CLOSE_CANCEL_ALL, v5100 ? 1 : 0);
            boolean[] bit = new boolean[1];
            IoReadTest.World w = run(cfg, x -> {
                x.cached(0);
                x.read(0, PAGE, 0, 1);
                x.ring.submitAndWait(1);
                IoWq wq = x.ring.ctx.ioWq;
                x.ring.close();
                bit[0] = Bitops.testBit(IoWq.IO_WQ_BIT_CANCEL, wq.state);
            });
            assertEquals(v5100, bit[0], v5100 ? "io_wq_cancel_all()" : "io_wq_cancel_cb()");
            assertEquals(PAGE, w.res(1));
        }
    }

    /**
     * cda286f0715c (5.10.4): the task-exit cancel's forced overflow flush
     * ({@code io_uring_cancel_task_requests()}) does not mean the ring is going away. In v5.10.0
     * it sets {@code cq_overflow_flushed}, and a CQE that overflows afterwards is dropped; in
     * 5.10.13 it waits on the overflow list and is reaped once there is room.
     */
    @Test
    void aCqeOverflowingAfterTheExitCancelIsDroppedOnlyInV5100() {
        for (boolean v5100 : new boolean[] {true, false}) {
            Kconfig cfg = Kconfig.defaults().with(IoUringOptions.URING_FORCE_FLUSH_DROPS, v5100 ? 1 : 0);
            int[] reaped = new int[1];
            IoReadTest.World w = run(cfg, x -> {
                for (int p = 0; p < 9; p++) {
                    x.cached(p);
                }
                for (int batch = 0; batch < 2; batch++) {
                    for (int i = 0; i < 4; i++) {
                        int p = batch * 4 + i;
                        x.read((long) p * PAGE, PAGE, 0, p + 1);
                    }
                    x.ring.submitAndWait(0); // cached pages: completed inline, 8 CQEs fill the CQ ring
                }
                IoUringExit.ioUringFilesCancel(x.ring.ctx);
                x.read(8L * PAGE, PAGE, 0, 9);
                x.ring.submitAndWait(0); // the CQ ring is full: the 9th CQE overflows
                while (x.ring.peekCqe() != null) {
                    reaped[0]++;
                }
                // io_uring_enter(GETEVENTS, min_complete 0): io_cqring_events() flushes the backlog into the room made
                IoUring.ioUringEnter(x.ring.ctx, 0, 0, IoRingCtx.IORING_ENTER_GETEVENTS);
                while (x.ring.peekCqe() != null) {
                    reaped[0]++;
                }
            });
            assertEquals(v5100 ? 8 : 9, reaped[0], v5100 ? "v5.10.0 drops the 9th CQE" : "5.10.13 reaps all 9");
            assertEquals(v5100 ? 1 : 0, w.ring.ctx.cachedCqOverflow, "CQEs dropped (cq_overflow)");
            assertEquals(PAGE, w.res(9), "the 9th read itself completed");
        }
    }

    /**
     * b1b6b5a30dce (5.10.5): v5.10.0 cancels in {@code exit_files()}, after {@code exit_signals()}
     * set {@code PF_EXITING}; 5.10.13 before it. Both orders exit cleanly and free the ring.
     */
    @Test
    void theExitCancelRunsAfterPfExitingOnlyInV5100() {
        for (boolean v5100 : new boolean[] {true, false}) {
            Kconfig cfg = Kconfig.defaults().with(IoUringOptions.URING_CANCEL_AFTER_EXITING, v5100 ? 1 : 0);
            IoReadTest.World[] w = new IoReadTest.World[1];
            ExecutionResult r = Run.once(new Program() {
                @Override
                public void boot(Runtime rt) {
                    rt.spawn("t1", null, false, false, () -> {
                        IoReadTest.World x = new IoReadTest.World(2, 2, 0);
                        w[0] = x;
                        x.ring = Liburing.queueInit("ring0", 4);
                        x.cached(0);
                        x.read(0, PAGE, 0, 1);
                        x.ring.submitAndWait(1);
                        IoUringExit.doExit(x.ring.ctx);
                    });
                }

                @Override
                public String finish() {
                    w[0].bdev.checkAtEnd(); // the page cache's own references
                    return "";
                }
            }, Run.nonPreemptive(), cfg, true);
            IoReadTest.assertClean(r);
            List<String> order = new ArrayList<>();
            for (kmodel.kernel.sched.TraceEvent e : r.trace()) {
                if (e.text().startsWith("io_uring_files_cancel") || e.text().startsWith("exit_signals")
                        || e.text().equals("do_exit")) {
                    order.add(e.text().replaceAll("\\(.*", ""));
                }
            }
            assertEquals(v5100 ? List.of("exit_signals: PF_EXITING", "io_uring_files_cancel") : List.of("io_uring_files_cancel",
                    "do_exit"), order, v5100 ? "v5.10.0" : "5.10.13");
            assertTrue(w[0].ring.ctx.isFreed());
            assertEquals(PAGE, w[0].res(1));
        }
    }
}
