package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.locking.Mutex;
import kmodel.kernel.locking.RwSemaphore;
import kmodel.kernel.locking.Spinlock;
import kmodel.kernel.sched.Completion;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;
import kmodel.mm.Filemap;
import kmodel.mm.Page;
import kmodel.mm.PageAllocator;
import kmodel.verification.catalog.BugCatalog;
import kmodel.verification.scenarios.TextbookScenarios;
import kmodel.verification.world.Scenario;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A run that ends with tasks asleep: a cycle of tasks each waiting for a lock another holds is
 * a {@code deadlock}, reported with the cycle; anything else stays what it was (a missed
 * wake-up), and the report names every stuck task, what it waits on and who holds it.
 */
@Tag("modelcheck")
class DeadlockModelCheck {

    /** Two pages, locked in opposite orders by two tasks. */
    static final class TwoPages {
        final PageAllocator alloc = new PageAllocator();
        final Page p0 = alloc.allocPage();
        final Page p1 = alloc.allocPage();
    }

    private static void lockBoth(Page first, Page second) {
        Filemap.lockPage(first);
        Filemap.lockPage(second);
        Filemap.unlockPage(second);
        Filemap.unlockPage(first);
    }

    @Test
    void abbaPageLocksAreADeadlockWithTheCycle() {
        Scenario<TwoPages> s = Scenario.<TwoPages>named("test-abba-page-lock", "two lock_page() orders")
                .setup(TwoPages::new)
                .task("t1", w -> lockBoth(w.p0, w.p1))
                .task("t2", w -> lockBoth(w.p1, w.p0))
                .atEnd(w -> {
                    Page.putPage(w.p0);
                    Page.putPage(w.p1);
                }).build();
        CheckResult r = ModelCheck.exhaustive(s).run();
        assertEquals(ViolationKind.DEADLOCK, r.kind(), r::summaryLine);
        assertEquals("t1 holds P0 (PG_locked), waits for P1 (PG_locked); t2 holds P1 (PG_locked), waits for P0 (PG_locked)",
                r.violation().getMessage());
        assertTrue(r.diagram().contains("deadlock: t1 holds P0"), r.diagram());
    }

    /** Two mutexes, taken in opposite orders. */
    static final class TwoMutexes {
        final Mutex a = new Mutex("a");
        final Mutex b = new Mutex("b");
    }

    private static void lockBoth(Mutex first, Mutex second) {
        Mutex.mutexLock(first);
        Mutex.mutexLock(second);
        Mutex.mutexUnlock(second);
        Mutex.mutexUnlock(first);
    }

    @Test
    void abbaMutexesAreADeadlockWithTheCycle() {
        Scenario<TwoMutexes> s = Scenario.<TwoMutexes>named("test-abba-mutex", "two mutex_lock() orders")
                .setup(TwoMutexes::new)
                .task("t1", w -> lockBoth(w.a, w.b))
                .task("t2", w -> lockBoth(w.b, w.a)).build();
        CheckResult r = ModelCheck.exhaustive(s).run();
        assertEquals(ViolationKind.DEADLOCK, r.kind(), r::summaryLine);
        assertEquals("t1 holds mutex a, waits for mutex b; t2 holds mutex b, waits for mutex a", r.violation().getMessage());
        CheckResult same = ModelCheck.exhaustive(Scenario.<TwoMutexes>named("test-ab-mutex", "one order")
                .setup(TwoMutexes::new)
                .task("t1", w -> lockBoth(w.a, w.b))
                .task("t2", w -> lockBoth(w.a, w.b)).build()).preemptions(ModelCheck.UNBOUNDED).run();
        assertTrue(same.passed(), () -> "one lock order cannot deadlock: " + same.summaryLine());
    }

    /** Three tasks in a ring: a mutex, an rw_semaphore taken for writing and a page lock. */
    static final class Ring {
        final Mutex m = new Mutex("m");
        final RwSemaphore sem = new RwSemaphore("sem");
        final PageAllocator alloc = new PageAllocator();
        final Page page = alloc.allocPage();
    }

    @Test
    void aThreeTaskRingOverMixedLocksIsADeadlock() {
        Scenario<Ring> s = Scenario.<Ring>named("test-ring", "mutex, rwsem, page lock in a ring")
                .setup(Ring::new)
                .task("t1", w -> {
                    Mutex.mutexLock(w.m);
                    RwSemaphore.downRead(w.sem);
                    RwSemaphore.upRead(w.sem);
                    Mutex.mutexUnlock(w.m);
                })
                .task("t2", w -> {
                    RwSemaphore.downWrite(w.sem);
                    Filemap.lockPage(w.page);
                    Filemap.unlockPage(w.page);
                    RwSemaphore.upWrite(w.sem);
                })
                .task("t3", w -> {
                    Filemap.lockPage(w.page);
                    Mutex.mutexLock(w.m);
                    Mutex.mutexUnlock(w.m);
                    Filemap.unlockPage(w.page);
                })
                .atEnd(w -> Page.putPage(w.page)).build();
        CheckResult r = ModelCheck.exhaustive(s).run();
        assertEquals(ViolationKind.DEADLOCK, r.kind(), r::summaryLine);
        assertEquals("t1 holds mutex m, waits for rw_semaphore sem; t2 holds rw_semaphore sem, waits for P0 (PG_locked); "
                + "t3 holds P0 (PG_locked), waits for mutex m", r.violation().getMessage());
    }

    /**
     * Without preemptions: t1 takes a and waits for t2's go-ahead; t2 takes b, gives it and
     * blocks on a; t1 blocks on b; t3 blocks on a behind them.
     */
    @Test
    void aTaskStuckBehindADeadlockIsNamedAfterTheCycle() {
        final class World {
            final Mutex a = new Mutex("a");
            final Mutex b = new Mutex("b");
            final Completion go = new Completion("go");
        }
        Scenario<World> s = Scenario.<World>named("test-abba-and-one", "ABBA, and a third locker of a")
                .setup(World::new)
                .task("t1", w -> {
                    Mutex.mutexLock(w.a);
                    Completion.waitForCompletionIo(w.go);
                    Mutex.mutexLock(w.b);
                })
                .task("t2", w -> {
                    Mutex.mutexLock(w.b);
                    Completion.complete(w.go);
                    Mutex.mutexLock(w.a);
                })
                .task("t3", w -> Mutex.mutexLock(w.a)).build();
        CheckResult r = ModelCheck.exhaustive(s).preemptions(0).minimise(0).run();
        assertEquals(1, r.executions(), r::summaryLine);
        assertEquals(ViolationKind.DEADLOCK, r.kind(), r::summaryLine);
        assertEquals("t1 holds mutex a, waits for mutex b; t2 holds mutex b, waits for mutex a; "
                + "also stuck: t3 sleeps in TASK_UNINTERRUPTIBLE waiting on mutex a (mutex a held by t1)",
                r.violation().getMessage());
    }

    @Test
    void abbaSpinlocksAreADeadlock() {
        final class Two {
            final Spinlock a = new Spinlock("a");
            final Spinlock b = new Spinlock("b");
        }
        Scenario<Two> s = Scenario.<Two>named("test-abba-spin", "two spin_lock() orders").setup(Two::new)
                .task("t1", w -> {
                    Spinlock.spinLock(w.a);
                    Spinlock.spinLock(w.b);
                    Spinlock.spinUnlock(w.b);
                    Spinlock.spinUnlock(w.a);
                })
                .task("t2", w -> {
                    Spinlock.spinLock(w.b);
                    Spinlock.spinLock(w.a);
                    Spinlock.spinUnlock(w.a);
                    Spinlock.spinUnlock(w.b);
                }).build();
        CheckResult r = ModelCheck.exhaustive(s).run();
        assertEquals(ViolationKind.DEADLOCK, r.kind(), r::summaryLine);
        assertEquals("t1 holds spinlock a, waits for spinlock b; t2 holds spinlock b, waits for spinlock a",
                r.violation().getMessage());
    }

    @Test
    void aTrueMissedWakeupStaysAMissedWakeup() {
        CheckResult r = ModelCheck.exhaustive(TextbookScenarios.waitqueue())
                .config(Kconfig.defaults().withBug(BugCatalog.TEXTBOOK_CHECK_THEN_SLEEP)).run();
        assertEquals(ViolationKind.MISSED_WAKEUP, r.kind(), r::summaryLine);
    }

    @Test
    void aWaiterForALockWhoseHolderExitedIsAMissedWakeupNamingTheHolder() {
        Scenario<TwoPages> s = Scenario.<TwoPages>named("test-page-lock-leaked", "t1 exits with the page locked")
                .setup(TwoPages::new)
                .task("t1", w -> Filemap.lockPage(w.p0))
                .task("t2", w -> {
                    Filemap.lockPage(w.p0);
                    Filemap.unlockPage(w.p0);
                }).build();
        CheckResult r = ModelCheck.exhaustive(s).run();
        assertEquals(ViolationKind.MISSED_WAKEUP, r.kind(), r::summaryLine);
        assertTrue(r.violation().getMessage().startsWith("t2 sleeps in TASK_UNINTERRUPTIBLE waiting on t2.wait_page for P0"),
                r.violation().getMessage());
        assertTrue(r.violation().getMessage().contains("(P0 (PG_locked) held by t1, which has exited)"),
                r.violation().getMessage());
    }

    @Test
    void everyStuckTaskIsNamed() {
        Scenario<TwoMutexes> s = Scenario.<TwoMutexes>named("test-stuck", "two sleepers behind an exited holder")
                .setup(TwoMutexes::new)
                .task("t1", w -> {
                    Sched.setCurrentState(Task.TASK_UNINTERRUPTIBLE);
                    Sched.waitingOn("nothing");
                    Sched.schedule();
                })
                .task("t2", w -> {
                    Mutex.mutexLock(w.a);
                    Sched.setCurrentState(Task.TASK_UNINTERRUPTIBLE);
                    Sched.waitingOn("nothing either");
                    Sched.schedule();
                })
                .task("t3", w -> Mutex.mutexLock(w.a)).build();
        CheckResult r = ModelCheck.exhaustive(s).preemptions(0).run();
        assertEquals(ViolationKind.MISSED_WAKEUP, r.kind(), r::summaryLine);
        assertEquals("t1 sleeps in TASK_UNINTERRUPTIBLE waiting on nothing, and no task is left to wake it; "
                + "also stuck: t2 sleeps in TASK_UNINTERRUPTIBLE waiting on nothing either; "
                + "also stuck: t3 sleeps in TASK_UNINTERRUPTIBLE waiting on mutex a (mutex a held by t2)",
                r.violation().getMessage());
    }
}
