package kmodel.mm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * Every catalog bug of {@link FilemapBugs} is found by the checker with its kind, and the same
 * program is clean without it: a check that cannot fail proves nothing.
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

    @Test
    void theAsyncLockerIsCleanWithoutTheBugs() {
        assertClean(Sim.explore(() -> asyncLocker(false, true), Kconfig.defaults(), RUNS, 21));
        assertClean(Sim.explore(() -> asyncLocker(true, false), Kconfig.defaults(), RUNS, 22));
        assertClean(Sim.explore(() -> asyncLocker(true, true), Kconfig.defaults().with(MmOptions.PAGE_WAIT_TABLE_SIZE, 1),
                RUNS, 23));
    }

    @Test
    void asyncWaitCheckBeforeAddMissesTheWakeup() {
        Kconfig c = Kconfig.defaults().withBug(FilemapBugs.ASYNC_WAIT_CHECK_BEFORE_ADD);
        assertFinds(ViolationKind.MISSED_WAKEUP, Sim.explore(() -> asyncLocker(false, false), c, RUNS, 24));
    }

    @Test
    void asyncLockNotTrylockUnlocksAPageItNeverLocked() {
        Kconfig c = Kconfig.defaults().withBug(FilemapBugs.ASYNC_LOCK_NOT_TRYLOCK);
        Sim.Outcome o = Sim.explore(() -> asyncLocker(false, true), c, RUNS, 25);
        assertFinds(ViolationKind.BUG_ON, o);
        assertTrue(o.firstViolation.violation().getMessage().contains("!PageLocked"), o::describe);
    }

    @Test
    void asyncPageMatchNotSetLetsWritebackClearPageWaiters() {
        Kconfig c = Kconfig.defaults().withBug(FilemapBugs.ASYNC_PAGE_MATCH_NOT_SET);
        ExecutionResult r = Run.once(asyncLocker(true, false), c);
        assertNotNull(r.violation(), "the non-preemptive order: queue, end writeback, unlock");
        assertEquals(ViolationKind.MISSED_WAKEUP, r.violation().kind());
        assertFinds(ViolationKind.MISSED_WAKEUP, Sim.explore(() -> asyncLocker(true, false), c, RUNS, 26));
    }

    @Test
    void exclusiveWaitSignalFirstStrandsTheOtherLockerInV57() {
        Kconfig c = Kconfig.defaults().with(MmOptions.PAGE_WAIT_V57, true)
                .withBug(FilemapBugs.EXCLUSIVE_WAIT_SIGNAL_FIRST);
        Sim.Outcome o = Sim.explore(() -> PageWaitTest.killedLockerAndAnotherLocker(20), c, 4000, 27);
        assertFinds(ViolationKind.MISSED_WAKEUP, o);
        assertTrue(o.firstViolation.violation().getMessage().contains("locker sleeps"), o::describe);
    }

    @Test
    void handoffForgetsDoneLeavesTheWaiterWaitingForItself() {
        Kconfig fair = Kconfig.defaults().with(MmOptions.PAGE_LOCK_UNFAIRNESS, 0);
        ExecutionResult ok = Run.once(PageWaitTest.lockers(1, false, false), fair);
        assertEquals(null, ok.violation());
        ExecutionResult r = Run.once(PageWaitTest.lockers(1, false, false), fair.withBug(FilemapBugs.HANDOFF_FORGETS_DONE));
        assertNotNull(r.violation());
        assertEquals(ViolationKind.MISSED_WAKEUP, r.violation().kind());
        assertFinds(ViolationKind.MISSED_WAKEUP, Sim.explore(() -> PageWaitTest.lockers(2, true, false),
                fair.withBug(FilemapBugs.HANDOFF_FORGETS_DONE), RUNS, 28));
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
