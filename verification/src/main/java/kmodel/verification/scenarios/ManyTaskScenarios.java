package kmodel.verification.scenarios;

import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.atomic.AtomicT;
import kmodel.kernel.atomic.Shared;
import kmodel.kernel.locking.Spinlock;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;
import kmodel.kernel.wait.Wait;
import kmodel.kernel.wait.WaitQueueEntry;
import kmodel.kernel.wait.WaitQueueHead;
import kmodel.verification.world.ScenarioSet;
import kmodel.verification.world.Scenario;

/**
 * Many-task programs for the checker itself (8 to 12 tasks), each a buggy program and its correct
 * twin, in the textbook scenarios' style. Each bug needs one preemption; the many tasks make the
 * exhaustive searches' trees too large to reach it by preemption bound: the unbounded reduced
 * search runs out of its 20,000 executions, and bounded DPOR's bound 0 alone is every order in
 * which tasks that interact finish. They show that the default check (the portfolio,
 * {@code kmodel.explorer.Portfolio}) finds each bug and passes each twin. Checked only when named
 * ({@code ScenarioRegistry.manyTasks()}).
 */
public final class ManyTaskScenarios {
    private ManyTaskScenarios() {
    }

    /** Registers the programs and their twins. */
    public static void registerAll(ScenarioSet r) {
        r.register(tails(true));
        r.register(tails(false));
        r.register(lockers(true));
        r.register(lockers(false));
        r.register(wakeups(true));
        r.register(wakeups(false));
        r.register(refs(true));
        r.register(refs(false));
    }

    private static String name(String base, boolean bug) {
        return bug ? base : base + "-fixed";
    }

    // ------------------------------------------------------------------ many-tails-9

    /** Two racers on one counter, seven tasks with tails of their own. */
    static final class TailsWorld {
        static final int TAILS = 7;
        static final int TAIL_STEPS = 3;
        final AtomicT hits = new AtomicT("hits", 0);
        final AtomicT[] own = new AtomicT[TAILS];

        TailsWorld() {
            for (int i = 0; i < TAILS; i++) {
                own[i] = new AtomicT("own" + i, 0);
            }
        }

        void racer(boolean bug) {
            if (bug) {
                int v = hits.read(); // the lost update: read, then write back, not atomic
                hits.set(v + 1);
            } else {
                hits.inc();
            }
        }

        void tail(int i) {
            for (int k = 0; k < TAIL_STEPS; k++) {
                own[i].inc();
            }
        }

        void check() {
            Kernel.BUG_ON(hits.peek() != 2, "hits is " + hits.peek() + ", not 2: an increment was lost");
        }
    }

    /**
     * {@code many-tails-9}: two racers increment one counter (read, then set: a lost update needs one
     * preemption between the two), seven tasks between them (by id, so they run between the two
     * racers' steps) increment counters of their own three times. The seven interact with nobody:
     * at preemption bound 0 plain DFS runs every order in which the nine finish (9! = 362,880), and
     * bounded DPOR did much the same when a race added every task that ran between its two steps.
     * {@code -fixed}: {@code atomic_inc}.
     */
    static Scenario<TailsWorld> tails(boolean bug) {
        Scenario.Builder<TailsWorld> b = Scenario.<TailsWorld>named(name("many-tails-9", bug),
                        (bug ? "" : "fixed twin: ")
                                + "2 racers increment one counter" + (bug ? " by read-then-set" : " atomically")
                                + ", 7 tasks with independent tails (9 tasks)")
                .setup(TailsWorld::new)
                .task("racer0", w -> w.racer(bug));
        for (int i = 0; i < TailsWorld.TAILS; i++) {
            final int idx = i;
            b.task("tail" + i, w -> w.tail(idx));
        }
        return b.task("racer1", w -> w.racer(bug)).atEnd(TailsWorld::check).build();
    }

    // ------------------------------------------------------------------ many-lockers-9

    /** Nine workers count under one spinlock; worker0 may take a lockless shortcut. */
    static final class LockersWorld {
        static final int WORKERS = 9;
        final Spinlock lock = new Spinlock("count_lock");
        final AtomicT count = new AtomicT("count", 0);

        void worker(int i, boolean bug) {
            if (bug && i == 0) {
                // The "fast path" that skips the lock: a lost update needs one preemption.
                int v = count.read();
                count.set(v + 1);
                return;
            }
            Spinlock.spinLock(lock);
            count.set(count.read() + 1);
            Spinlock.spinUnlock(lock);
        }

        void check() {
            Kernel.BUG_ON(count.peek() != WORKERS, "count is " + count.peek() + ", not " + WORKERS);
        }
    }

    /**
     * {@code many-lockers-9}: nine workers increment a counter under one spinlock; worker0 does it
     * without the lock (a lost update). Every worker interacts with every other, so even preemption
     * bound 0 is every order of the nine critical sections (9! = 362,880). {@code -fixed}: worker0
     * takes the lock too; its default check is lowered to preemption bound 0 ({@link
     * Scenario.Builder#autoBound}), which is all the default budget affords.
     */
    static Scenario<LockersWorld> lockers(boolean bug) {
        Scenario.Builder<LockersWorld> b = Scenario.<LockersWorld>named(name("many-lockers-9", bug),
                        (bug ? "" : "fixed twin: ") + "9 workers count under one spinlock"
                                + (bug ? ", worker0 without it" : "") + " (9 tasks)")
                .autoBound(0)
                .setup(LockersWorld::new);
        for (int i = 0; i < LockersWorld.WORKERS; i++) {
            final int idx = i;
            b.task("worker" + i, w -> w.worker(idx, bug));
        }
        return b.atEnd(LockersWorld::check).build();
    }

    // ------------------------------------------------------------------ many-wakeup-8

    /** A consumer waits for seven producers in turn, each on a flag and a wait queue of its own. */
    static final class WakeupWorld {
        static final int PRODUCERS = 7;
        /** The producer whose wait the buggy consumer open-codes as check-then-sleep. */
        static final int BUGGY = 4;
        final Shared<Boolean>[] ready;
        final WaitQueueHead[] q = new WaitQueueHead[PRODUCERS];

        @SuppressWarnings("unchecked")
        WakeupWorld() {
            ready = new Shared[PRODUCERS];
            for (int i = 0; i < PRODUCERS; i++) {
                ready[i] = new Shared<>("ready" + i, false);
                q[i] = new WaitQueueHead("q" + i);
            }
        }

        void producer(int i) {
            ready[i].writeOnce(true);
            Wait.wakeUp(q[i]);
        }

        void consumer(boolean bug) {
            for (int i = 0; i < PRODUCERS; i++) {
                WaitQueueEntry wait = new WaitQueueEntry("consumer.wait" + i);
                Wait.initWait(wait);
                if (bug && i == BUGGY) {
                    // The lost wake-up: test first, then queue and sleep.
                    if (!ready[i].readOnce()) {
                        Wait.prepareToWait(q[i], wait, Task.TASK_UNINTERRUPTIBLE);
                        Sched.waitingOn("q" + i + " (ready" + i + ")");
                        Sched.schedule();
                    }
                } else {
                    for (;;) {
                        Wait.prepareToWait(q[i], wait, Task.TASK_UNINTERRUPTIBLE);
                        if (ready[i].readOnce()) {
                            break;
                        }
                        Sched.waitingOn("q" + i + " (ready" + i + ")");
                        Sched.schedule();
                    }
                }
                Wait.finishWait(q[i], wait);
                wait.leaveScope();
            }
        }
    }

    /**
     * {@code many-wakeup-8}: a consumer waits for seven producers in turn, each with its own flag
     * and wait queue; the wait for producer 4 tests the flag before queueing (a lost wake-up needs
     * one preemption between the test and the sleep). {@code -fixed}: the {@code wait_event} loop.
     */
    static Scenario<WakeupWorld> wakeups(boolean bug) {
        Scenario.Builder<WakeupWorld> b = Scenario.<WakeupWorld>named(name("many-wakeup-8", bug),
                        (bug ? "" : "fixed twin: ") + "a consumer waits for 7 producers in turn"
                                + (bug ? ", one wait check-then-sleep" : "") + " (8 tasks)")
                .autoBound(0)
                .setup(WakeupWorld::new)
                .task("consumer", w -> w.consumer(bug));
        for (int i = 0; i < WakeupWorld.PRODUCERS; i++) {
            final int idx = i;
            b.task("producer" + i, w -> w.producer(idx));
        }
        return b.build();
    }

    // ------------------------------------------------------------------ many-refs-12

    /** Four objects with reference counts; on each, a releaser drops the owner's reference while two users get and put it. */
    static final class RefsWorld {
        static final int OBJECTS = 4;
        /** The object whose users open-code the get in the buggy program. */
        static final int BUGGY = 3;
        final AtomicT[] ref = new AtomicT[OBJECTS];
        final Shared<Boolean>[] freed;

        @SuppressWarnings("unchecked")
        RefsWorld() {
            freed = new Shared[OBJECTS];
            for (int i = 0; i < OBJECTS; i++) {
                ref[i] = new AtomicT("obj" + i + ".ref", 1);
                freed[i] = new Shared<>("obj" + i + ".freed", false);
            }
        }

        void put(int i) {
            if (ref[i].decAndTest()) {
                freed[i].writeOnce(true);
            }
        }

        void user(int i, boolean bug) {
            boolean got;
            if (bug && i == BUGGY) {
                // kref_get_unless_zero() open-coded as test, then increment: not atomic.
                got = ref[i].read() != 0;
                if (got) {
                    ref[i].inc();
                }
            } else {
                got = ref[i].addUnless(1, 0);
            }
            if (got) {
                if (freed[i].readOnce()) {
                    Kernel.fail(ViolationKind.USE_AFTER_FREE, Sched.current().name() + " got a reference to freed obj" + i);
                }
                put(i);
            }
        }
    }

    /**
     * {@code many-refs-12}: four objects, each with a releaser that drops the owner's reference and
     * two users that get a reference unless the count is zero and put it (12 tasks, in four groups
     * that do not interact). On obj3 the users' get tests and increments in two steps, so a user can
     * revive the object its releaser freed (one preemption between the test and the increment).
     * {@code -fixed}: {@code atomic_add_unless} on every object.
     */
    static Scenario<RefsWorld> refs(boolean bug) {
        Scenario.Builder<RefsWorld> b = Scenario.<RefsWorld>named(name("many-refs-12", bug),
                        (bug ? "" : "fixed twin: ") + "4 objects, each dropped by a releaser while 2 users get"
                                + (bug ? " (on obj3: test, then increment)" : " unless zero") + " and put it (12 tasks)")
                .autoBound(1)
                .setup(RefsWorld::new);
        for (int i = 0; i < RefsWorld.OBJECTS; i++) {
            final int idx = i;
            b.task("releaser" + i, w -> w.put(idx));
            b.task("user" + i + "a", w -> w.user(idx, bug));
            b.task("user" + i + "b", w -> w.user(idx, bug));
        }
        return b.build();
    }
}
