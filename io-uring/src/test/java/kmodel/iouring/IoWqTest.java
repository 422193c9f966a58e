package kmodel.iouring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import kmodel.kernel.Kconfig;
import kmodel.kernel.atomic.AtomicT;
import kmodel.kernel.sched.CallbackHead;
import kmodel.kernel.sched.Completion;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Program;
import kmodel.kernel.sched.Run;
import kmodel.kernel.sched.Runtime;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Strategy;
import org.junit.jupiter.api.Test;

/**
 * io-wq on the deterministic runtime: the non-preemptive schedule and 300 seeded random schedules
 * per test (sampled, not exhaustive; the explorer's scenarios cover io-wq exhaustively within
 * their bounds).
 */
class IoWqTest {
    private static final int SEEDS = 300;

    /** Runs {@code program} under the non-preemptive schedule and {@link #SEEDS} random ones. */
    private static List<ExecutionResult> runAll(java.util.function.Supplier<Program> program) {
        List<ExecutionResult> out = new ArrayList<>();
        out.add(Run.once(program.get(), Kconfig.defaults()));
        for (int seed = 1; seed <= SEEDS; seed++) {
            Strategy s = Run.seededRandom(seed);
            ExecutionResult r = Run.once(program.get(), s, Kconfig.defaults(), false);
            out.add(r);
        }
        return out;
    }

    /**
     * Two punted works that each wait until both have started: only a second worker, created on
     * demand when the first sleeps ({@code io_wq_worker_sleeping()} wakes the manager), lets them
     * finish. Every schedule ends with both run and the pool destroyed. v5.10's manager tests both
     * classes under one lock ({@code io_wqe_need_worker()} does not look at the class of the
     * queued work), so when it creates the bound worker it creates an unbound one beside it:
     * three workers in every schedule.
     */
    @Test
    void aWorkerThatSleepsInItsWorkGetsAnotherWorkerCreatedForTheNext() {
        java.util.Set<String> outcomes = new java.util.TreeSet<>();
        for (ExecutionResult r : runAll(() -> new Program() {
            IoWq wq;
            final int[] ran = new int[1];

            @Override
            public void boot(Runtime rt) {
                rt.spawn("submitter", null, false, false, () -> {
                    AtomicT started = new AtomicT("started", 0);
                    Completion both = new Completion("both-started");
                    Completion finished = new Completion("finished");
                    wq = IoWq.ioWqCreate("wq", 4, 4, work -> {
                        if (started.incReturn() == 2) {
                            Completion.complete(both);
                            Completion.complete(both);
                        }
                        Sched.waitingOn("the other work");
                        Completion.waitForCompletionIo(both);
                        ran[0]++;
                        Completion.complete(finished);
                        return null;
                    }, work -> { });
                    IoWq.ioWqEnqueue(wq, new IoWqWork("req0"));
                    IoWq.ioWqEnqueue(wq, new IoWqWork("req1"));
                    /* as io_uring: the pool is destroyed only once no request is in flight */
                    Completion.waitForCompletionIo(finished);
                    Completion.waitForCompletionIo(finished);
                    IoWq.ioWqDestroy(wq);
                });
            }

            @Override
            public String finish() {
                assertEquals(2, ran[0], "both works ran");
                assertEquals(2, wq.punts);
                assertEquals(0, wq.peekWorkers(), "every worker exited");
                return "workers=" + wq.workersCreated;
            }
        })) {
            assertNull(r.violation(), () -> String.valueOf(r.violation()));
            assertNull(r.oops());
            outcomes.add(r.outcome());
        }
        assertEquals(java.util.Set.of("workers=3"), outcomes);
    }

    /** A work still queued behind a blocked worker is cancelled: run with IO_WQ_WORK_CANCEL, IO_WQ_CANCEL_OK. */
    @Test
    void cancellingAQueuedWorkRunsItWithTheCancelFlag() {
        for (ExecutionResult r : runAll(() -> new Program() {
            final List<String> log = new ArrayList<>();
            int ret = -1;

            @Override
            public void boot(Runtime rt) {
                rt.spawn("submitter", null, false, false, () -> {
                    Completion release = new Completion("release");
                    IoWq wq = IoWq.ioWqCreate("wq", 1, 0, work -> {
                        boolean cancelled = (work.flags & IoWqWork.IO_WQ_WORK_CANCEL) != 0;
                        if (work.owner.equals("req0")) {
                            Completion.waitForCompletionIo(release);
                        }
                        log.add(work.owner + (cancelled ? ":cancelled" : ":ran"));
                        return null;
                    }, work -> { });
                    IoWqWork w1 = new IoWqWork("req1");
                    IoWq.ioWqEnqueue(wq, new IoWqWork("req0"));
                    IoWq.ioWqEnqueue(wq, w1);
                    ret = IoWq.ioWqCancelCb(wq, (work, data) -> work == data, w1, false);
                    Completion.complete(release);
                    IoWq.ioWqDestroy(wq);
                });
            }

            @Override
            public String finish() {
                /* bounded = 1: the only worker holds req0, so req1 is still queued when cancelled */
                assertEquals(IoWq.IO_WQ_CANCEL_OK, ret);
                assertTrue(log.contains("req1:cancelled") && log.contains("req0:ran"), log.toString());
                assertEquals(2, log.size(), log.toString());
                return "";
            }
        })) {
            assertNull(r.violation(), () -> String.valueOf(r.violation()));
            assertNull(r.oops());
        }
    }

    /** task_work sent to the manager ({@code io_wq_get_task()}) runs there, even if the pool is destroyed next. */
    @Test
    void taskWorkSentToTheManagerRuns() {
        for (ExecutionResult r : runAll(() -> new Program() {
            final int[] ran = new int[1];

            @Override
            public void boot(Runtime rt) {
                rt.spawn("exiting", null, false, false, () -> {
                    IoWq wq = IoWq.ioWqCreate("wq", 1, 0, work -> null, work -> { });
                    CallbackHead cb = new CallbackHead();
                    CallbackHead.initTaskWork(cb, head -> ran[0]++);
                    cb.label = "req0.cancel";
                    Sched.taskWorkAdd(IoWq.ioWqGetTask(wq), cb, Sched.TWA_NONE);
                    Sched.wakeUpProcess(IoWq.ioWqGetTask(wq));
                    IoWq.ioWqDestroy(wq);
                });
            }

            @Override
            public String finish() {
                assertEquals(1, ran[0], "the manager ran the task_work");
                return "";
            }
        })) {
            assertNull(r.violation(), () -> String.valueOf(r.violation()));
            assertNull(r.oops());
        }
    }
}
