package kmodel.mm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Supplier;
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

/**
 * The page wait and async lock bugs of {@link FilemapBugs} are found by the checker with their
 * kind, and the same program under the same seeded schedules is clean without the bug: a check
 * that cannot fail proves nothing. The other three are shown in verification's
 * {@code BugCatalogModelCheck} on their scenarios ({@code add-to-page-cache-eexist-ref-leak} also
 * in {@link PageCacheProperties}).
 */
class PageWaitBugsTest {
    static final int RUNS = 3000;

    /**
     * An async locker (the callback harness: lock_page_async, sleep until the retry task_work
     * ran, retry) against a lock holder, optionally with writeback ending on the same page and a
     * synchronous locker.
     */
    static Program asyncLocker(boolean writeback, boolean syncLocker) {
        return new Program() {
            Page page;
            boolean retried;
            boolean locked;

            @Override
            public void boot(Runtime rt) {
                page = new PageAllocator().allocPage();
                PageFlags.__SetPageLocked(page);
                if (writeback) {
                    Filemap.setPageWriteback(page);
                }
                Task[] self = new Task[1];
                self[0] = rt.spawn("async", null, false, false, () -> {
                    AsyncPageWaiter w = new AsyncPageWaiter("async.wpq", self[0], cb -> retried = true, null, null);
                    for (;;) {
                        w.initEntry();
                        int ret = Filemap.lockPageAsync(page, w.wpq);
                        if (ret == 0) {
                            break;
                        }
                        if (ret != -Errno.EIOCBQUEUED) {
                            Kernel.fail(ViolationKind.BUG_ON, "lock_page_async returned " + Errno.name(ret));
                        }
                        retried = false;
                        Sim.sleepUntil(() -> retried, "async.wpq retry");
                    }
                    locked = true;
                    Filemap.unlockPage(page);
                });
                if (syncLocker) {
                    rt.spawn("sync", null, false, false, () -> {
                        Filemap.lockPage(page);
                        Filemap.unlockPage(page);
                    });
                }
                if (writeback) {
                    rt.spawn("irq", "irq", true, false, () -> Filemap.endPageWriteback(page));
                }
                rt.spawn("owner", null, false, false, () -> Filemap.unlockPage(page));
            }

            @Override
            public String finish() {
                PageWaitTest.expectLive(page, 1);
                page.allocator.waitTable().checkInvariants();
                return locked ? "locked" : "never locked";
            }
        };
    }

    static void assertClean(Sim.Outcome o) {
        assertEquals(0, o.violations(), o::describe);
        assertEquals(0, o.stepBounds, o::describe);
    }

    static void assertFinds(ViolationKind kind, Sim.Outcome o) {
        assertTrue(o.count(kind) > 0, () -> "expected " + kind.label() + ": " + o.describe());
        assertEquals(o.violations(), o.count(kind), o::describe);
    }

    /**
     * Explores {@code program} under {@code config} twice with the same seed and number of runs:
     * without {@code bug} every run is clean, with it the checker finds {@code kind} (and nothing
     * else). Returns the outcome with the bug.
     */
    static Sim.Outcome assertOnlyTheBugFails(ViolationKind kind, Supplier<Program> program, Kconfig config, String bug,
            int runs, long seed) {
        assertClean(Sim.explore(program, config, runs, seed));
        Sim.Outcome o = Sim.explore(program, config.withBug(bug), runs, seed);
        assertFinds(kind, o);
        return o;
    }

    @Test
    void theAsyncLockerIsCleanWithWritebackAndASyncLockerOnOneWaitHead() {
        assertClean(Sim.explore(() -> asyncLocker(true, true), Kconfig.defaults().with(MmOptions.PAGE_WAIT_TABLE_SIZE, 1),
                RUNS, 23));
    }

    @Test
    void asyncWaitCheckBeforeAddMissesTheWakeup() {
        assertOnlyTheBugFails(ViolationKind.MISSED_WAKEUP, () -> asyncLocker(false, false), Kconfig.defaults(),
                FilemapBugs.ASYNC_WAIT_CHECK_BEFORE_ADD, RUNS, 24);
    }

    @Test
    void asyncLockNotTrylockUnlocksAPageItNeverLocked() {
        Sim.Outcome o = assertOnlyTheBugFails(ViolationKind.BUG_ON, () -> asyncLocker(false, true), Kconfig.defaults(),
                FilemapBugs.ASYNC_LOCK_NOT_TRYLOCK, RUNS, 25);
        assertTrue(o.firstViolation.violation().getMessage().contains("!PageLocked"), o::describe);
    }

    @Test
    void asyncPageMatchNotSetLetsWritebackClearPageWaiters() {
        ExecutionResult ok = Run.once(asyncLocker(true, false), Kconfig.defaults());
        assertNull(ok.violation(), () -> ok.violation().summary());
        ExecutionResult r = Run.once(asyncLocker(true, false), Kconfig.defaults().withBug(FilemapBugs.ASYNC_PAGE_MATCH_NOT_SET));
        assertNotNull(r.violation(), "the non-preemptive order: queue, end writeback, unlock");
        assertEquals(ViolationKind.MISSED_WAKEUP, r.violation().kind());
        assertOnlyTheBugFails(ViolationKind.MISSED_WAKEUP, () -> asyncLocker(true, false), Kconfig.defaults(),
                FilemapBugs.ASYNC_PAGE_MATCH_NOT_SET, RUNS, 26);
    }

    /**
     * The kill must land in a narrow window of the v5.7 loop; random schedules reach it in about
     * one run in several thousand (a task is not scheduled at a held spinlock, so contended
     * attempts no longer add switch points), hence 20,000 runs.
     */
    @Test
    void exclusiveWaitSignalFirstStrandsTheOtherLockerInV57() {
        Sim.Outcome o = assertOnlyTheBugFails(ViolationKind.MISSED_WAKEUP, () -> PageWaitTest.killedLockerAndAnotherLocker(20),
                Kconfig.defaults().with(MmOptions.PAGE_WAIT_V57, true), FilemapBugs.EXCLUSIVE_WAIT_SIGNAL_FIRST, 20_000, 27);
        assertTrue(o.firstViolation.violation().getMessage().contains("locker sleeps"), o::describe);
    }

    @Test
    void handoffForgetsDoneLeavesTheWaiterWaitingForItself() {
        Kconfig fair = Kconfig.defaults().with(MmOptions.PAGE_LOCK_UNFAIRNESS, 0);
        ExecutionResult ok = Run.once(PageWaitTest.lockers(1, false, false), fair);
        assertNull(ok.violation(), () -> ok.violation().summary());
        ExecutionResult r = Run.once(PageWaitTest.lockers(1, false, false), fair.withBug(FilemapBugs.HANDOFF_FORGETS_DONE));
        assertNotNull(r.violation());
        assertEquals(ViolationKind.MISSED_WAKEUP, r.violation().kind());
        assertOnlyTheBugFails(ViolationKind.MISSED_WAKEUP, () -> PageWaitTest.lockers(2, true, false), fair,
                FilemapBugs.HANDOFF_FORGETS_DONE, RUNS, 28);
    }

    @Test
    void everyBugIdIsKebabCaseAndDistinct() {
        java.util.TreeSet<String> ids = new java.util.TreeSet<>();
        for (String id : FilemapBugs.all()) {
            assertTrue(id.matches("[a-z]+(-[a-z]+)+"), id);
            assertTrue(ids.add(id), id);
        }
        assertEquals(FilemapBugs.all().length, ids.size());
    }

    @Test
    void aCallbackForAnExitingTaskGoesToTheFallbackTask() {
        int[] cancelled = {0};
        ExecutionResult r = Run.once(new Program() {
            Page page;

            @Override
            public void boot(Runtime rt) {
                page = new PageAllocator().allocPage();
                PageFlags.__SetPageLocked(page);
                Task[] t = new Task[2];
                t[1] = rt.spawn("io-wq", null, false, false, () -> Sim.sleepUntil(() -> cancelled[0] > 0, "cancel"));
                t[0] = rt.spawn("submitter", null, false, false, () -> {
                    AsyncPageWaiter w = new AsyncPageWaiter("submitter.wpq", t[0], cb -> {
                        Kernel.fail(ViolationKind.BUG_ON, "retry ran on an exiting task");
                    }, t[1], cb -> cancelled[0]++);
                    w.initEntry();
                    if (Filemap.lockPageAsync(page, w.wpq) != -Errno.EIOCBQUEUED) {
                        Kernel.fail(ViolationKind.BUG_ON, "expected the callback to be armed");
                    }
                    Sched.doExit();
                });
                rt.spawn("owner", null, false, false, () -> Filemap.unlockPage(page));
            }

            @Override
            public String finish() {
                PageWaitTest.expectLive(page, 1);
                return "";
            }
        }, Kconfig.defaults());
        assertEquals(null, r.violation(), () -> r.violation().summary());
        assertEquals(1, cancelled[0]);
    }
}
