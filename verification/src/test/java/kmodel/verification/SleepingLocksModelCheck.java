package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.atomic.AtomicT;
import kmodel.kernel.atomic.Shared;
import kmodel.kernel.locking.Mutex;
import kmodel.kernel.locking.RwSemaphore;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;
import kmodel.verification.world.Scenario;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code struct mutex} and {@code rw_semaphore} ({@link Mutex}, {@link RwSemaphore}) under
 * complete exploration (unbounded, with partial-order reduction): mutual exclusion, no lost
 * wake-up, the killable variants, and each of their checks failing on a broken use.
 */
@Tag("modelcheck")
class SleepingLocksModelCheck {

    /** A mutex, a counter it protects and a count of tasks inside the critical section. */
    static final class MutexWorld {
        final Mutex m = new Mutex("m");
        final Shared<Integer> inside = new Shared<>("inside", 0);
        final Shared<Integer> counter = new Shared<>("counter", 0);
        final List<String> results = new ArrayList<>();

        /** A critical section in two steps: a lost update or a second task inside is caught. */
        void critical() {
            int in = inside.readOnce();
            Kernel.BUG_ON(in != 0, "two tasks inside m");
            inside.writeOnce(1);
            int c = counter.readOnce();
            counter.writeOnce(c + 1);
            inside.writeOnce(0);
        }
    }

    private static CheckResult complete(Scenario<?> s) {
        return ModelCheck.exhaustive(s).preemptions(ModelCheck.UNBOUNDED).run();
    }

    static Scenario<MutexWorld> threeLockers() {
        Scenario.Builder<MutexWorld> b = Scenario.<MutexWorld>named("test-mutex", "three mutex_lock()ers")
                .setup(MutexWorld::new);
        for (String n : new String[] {"t1", "t2", "t3"}) {
            b.task(n, w -> {
                Mutex.mutexLock(w.m);
                w.critical();
                Mutex.mutexUnlock(w.m);
            });
        }
        return b.atEnd(w -> Kernel.BUG_ON(w.counter.plain() != 3, "counter " + w.counter.plain()))
                .outcome(w -> "counter=" + w.counter.plain()).build();
    }

    @Test
    void mutexLockExcludesAndNeverLosesAWakeupCompletely() {
        CheckResult r = complete(threeLockers());
        assertTrue(r.passed(), () -> r.summaryLine() + "\n" + r.diagram());
        assertTrue(r.strategy().contains("complete"), r.strategy());
        assertEquals(1, r.distinctOutcomes());
    }

    @Test
    void theCriticalSectionCheckFailsWithoutTheMutex() {
        Scenario<MutexWorld> s = Scenario.<MutexWorld>named("test-no-mutex", "two tasks, no lock")
                .setup(MutexWorld::new).task("t1", MutexWorld::critical).task("t2", MutexWorld::critical).build();
        CheckResult r = complete(s);
        assertEquals(ViolationKind.BUG_ON, r.kind(), r::summaryLine);
        assertTrue(r.violation().getMessage().contains("two tasks inside m"), r.violation().getMessage());
    }

    @Test
    void aKilledMutexLockKillableReturnsEintrAndLeavesNobodyStuck() {
        Scenario<MutexWorld> s = Scenario.<MutexWorld>named("test-mutex-killable", "holder, killable locker, killer")
                .setup(MutexWorld::new)
                .tasks((w, sp) -> {
                    sp.task("holder", () -> {
                        Mutex.mutexLock(w.m);
                        w.critical();
                        Mutex.mutexUnlock(w.m);
                    });
                    Task victim = sp.task("victim", () -> {
                        int ret = Mutex.mutexLockKillable(w.m);
                        if (ret == 0) {
                            w.critical();
                            Mutex.mutexUnlock(w.m);
                        }
                        synchronized (w.results) {
                            w.results.add(ret == 0 ? "locked" : ret == -Errno.EINTR ? "EINTR" : "ret " + ret);
                        }
                    });
                    sp.task("killer", () -> Sched.sendSigkill(victim));
                })
                .outcome(w -> w.results.toString()).build();
        CheckResult r = complete(s);
        assertTrue(r.passed(), () -> r.summaryLine() + "\n" + r.diagram());
        assertTrue(r.outcomes().contains("[EINTR]") && r.outcomes().contains("[locked]"), r.outcomes().toString());
    }

    /** Two readers and a writer on an rw_semaphore; the writer must never see a reader inside. */
    static final class RwsemWorld {
        final RwSemaphore sem = new RwSemaphore("sem");
        final AtomicT readersInside = new AtomicT("readers", 0);
        final Shared<Integer> writersInside = new Shared<>("writers", 0);
        final Shared<Integer> maxReaders = new Shared<>("maxReaders", 0);
    }

    @Test
    void rwSemaphoreExcludesWritersAndSharesReadersCompletely() {
        Scenario.Builder<RwsemWorld> b = Scenario.<RwsemWorld>named("test-rwsem", "two readers, a writer")
                .setup(RwsemWorld::new);
        for (String n : new String[] {"r1", "r2"}) {
            b.task(n, w -> {
                RwSemaphore.downRead(w.sem);
                Kernel.BUG_ON(w.writersInside.readOnce() != 0, "a reader inside with the writer");
                int in = w.readersInside.incReturn();
                if (in > w.maxReaders.plain()) {
                    w.maxReaders.setPlain(in);
                }
                w.readersInside.dec();
                RwSemaphore.upRead(w.sem);
            });
        }
        b.task("w", w -> {
            RwSemaphore.downWrite(w.sem);
            Kernel.BUG_ON(w.readersInside.read() != 0, "the writer inside with a reader");
            w.writersInside.writeOnce(1);
            w.writersInside.writeOnce(0);
            RwSemaphore.upWrite(w.sem);
        });
        CheckResult r = complete(b.outcome(w -> "max readers " + w.maxReaders.plain()).build());
        assertTrue(r.passed(), () -> r.summaryLine() + "\n" + r.diagram());
        assertTrue(r.outcomes().contains("max readers 2"), () -> "readers share the lock: " + r.outcomes());
    }

    /** Four tasks: within preemption bound 2 (the complete search takes some seconds). */
    @Test
    void aKilledDownWriteKillableLetsTheReadersQueuedBehindItGo() {
        // r1 holds it for reading; w queues for writing; r2 queues behind w; w is killed.
        Scenario<RwsemWorld> s = Scenario.<RwsemWorld>named("test-rwsem-killable", "reader, killable writer, reader")
                .setup(RwsemWorld::new)
                .tasks((w, sp) -> {
                    sp.task("r1", () -> {
                        RwSemaphore.downRead(w.sem);
                        RwSemaphore.upRead(w.sem);
                    });
                    Task writer = sp.task("w", () -> {
                        if (RwSemaphore.downWriteKillable(w.sem) == 0) {
                            RwSemaphore.upWrite(w.sem);
                        }
                    });
                    sp.task("r2", () -> {
                        RwSemaphore.downRead(w.sem);
                        RwSemaphore.upRead(w.sem);
                    });
                    sp.task("killer", () -> Sched.sendSigkill(writer));
                }).build();
        CheckResult r = ModelCheck.exhaustive(s).preemptions(2).run();
        assertTrue(r.passed(), () -> r.summaryLine() + "\n" + r.diagram());
    }

    // ------------------------------------------------------------------ each check fails on a broken use

    private static CheckResult oneTask(Runnable body) {
        Scenario<Object> s = Scenario.<Object>named("test-broken-use", "one task").setup(Object::new)
                .task("t1", w -> body.run()).build();
        return complete(s);
    }

    @Test
    void exitingWithAMutexHeldIsALockLeak() {
        CheckResult r = oneTask(() -> Mutex.mutexLock(new Mutex("m")));
        assertEquals(ViolationKind.LOCK_LEAK, r.kind(), r::summaryLine);
        assertEquals("t1 exited holding mutex m", r.violation().getMessage());
    }

    @Test
    void exitingWithAnRwSemaphoreHeldIsALockLeak() {
        CheckResult r = oneTask(() -> RwSemaphore.downRead(new RwSemaphore("sem")));
        assertEquals(ViolationKind.LOCK_LEAK, r.kind(), r::summaryLine);
        assertEquals("t1 exited holding rw_semaphore sem", r.violation().getMessage());
    }

    @Test
    void unlockingAMutexNobodyHoldsIsABugOn() {
        CheckResult r = oneTask(() -> Mutex.mutexUnlock(new Mutex("m")));
        assertEquals(ViolationKind.BUG_ON, r.kind(), r::summaryLine);
        assertTrue(r.violation().getMessage().contains("mutex_unlock(m) by t1, which does not hold it"),
                r.violation().getMessage());
    }

    @Test
    void unlockingAnotherTasksMutexIsABugOn() {
        Scenario<MutexWorld> s = Scenario.<MutexWorld>named("test-mutex-non-owner", "t1 locks, t2 unlocks")
                .setup(MutexWorld::new)
                .task("t1", w -> {
                    Mutex.mutexLock(w.m);
                    w.inside.writeOnce(1);
                    Sched.setCurrentState(Task.TASK_UNINTERRUPTIBLE);
                    Sched.schedule();
                })
                .task("t2", w -> {
                    while (w.inside.readOnce() == 0) {
                        Sched.setCurrentState(Task.TASK_RUNNING);
                    }
                    Mutex.mutexUnlock(w.m);
                }).build();
        CheckResult r = ModelCheck.exhaustive(s).preemptions(1).run();
        assertEquals(ViolationKind.BUG_ON, r.kind(), r::summaryLine);
        assertTrue(r.violation().getMessage().contains("mutex_unlock(m) by t2, which does not hold it (t1 does)"),
                r.violation().getMessage());
    }

    @Test
    void upReadWithoutDownReadIsABugOn() {
        CheckResult r = oneTask(() -> RwSemaphore.upRead(new RwSemaphore("sem")));
        assertEquals(ViolationKind.BUG_ON, r.kind(), r::summaryLine);
        assertTrue(r.violation().getMessage().contains("up_read(sem) by t1, which does not hold it for reading"),
                r.violation().getMessage());
    }

    @Test
    void upWriteByAReaderIsABugOn() {
        CheckResult r = oneTask(() -> {
            RwSemaphore sem = new RwSemaphore("sem");
            RwSemaphore.downRead(sem);
            RwSemaphore.upWrite(sem);
        });
        assertEquals(ViolationKind.BUG_ON, r.kind(), r::summaryLine);
        assertTrue(r.violation().getMessage().contains("up_write(sem) by t1, which does not hold it for writing"),
                r.violation().getMessage());
    }

    @Test
    void takingOnesOwnMutexAgainIsABugOn() {
        CheckResult r = oneTask(() -> {
            Mutex m = new Mutex("m");
            Mutex.mutexLock(m);
            Mutex.mutexLock(m);
        });
        assertEquals(ViolationKind.BUG_ON, r.kind(), r::summaryLine);
        assertTrue(r.violation().getMessage().contains("possible recursive locking: mutex_lock(m) by t1"),
                r.violation().getMessage());
    }

    @Test
    void downReadTwiceIsABugOn() {
        CheckResult r = oneTask(() -> {
            RwSemaphore sem = new RwSemaphore("sem");
            RwSemaphore.downRead(sem);
            RwSemaphore.downRead(sem);
        });
        assertEquals(ViolationKind.BUG_ON, r.kind(), r::summaryLine);
        assertTrue(r.violation().getMessage().contains("possible recursive locking: down_read(sem) by t1"),
                r.violation().getMessage());
    }

    @Test
    void aMutexInInterruptContextIsABugOn() {
        Scenario<MutexWorld> s = Scenario.<MutexWorld>named("test-mutex-irq", "mutex_lock in an irq")
                .setup(MutexWorld::new)
                .tasks((w, sp) -> sp.irq("irq0", () -> Mutex.mutexLock(w.m))).build();
        CheckResult r = complete(s);
        assertEquals(ViolationKind.BUG_ON, r.kind(), r::summaryLine);
        assertTrue(r.violation().getMessage().contains("sleeping function called from invalid context"),
                r.violation().getMessage());
    }
}
