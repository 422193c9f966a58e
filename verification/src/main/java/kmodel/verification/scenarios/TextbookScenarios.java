package kmodel.verification.scenarios;

import static kmodel.verification.catalog.BugCatalog.TEXTBOOK_CHECK_THEN_SLEEP;
import static kmodel.verification.catalog.BugCatalog.TEXTBOOK_DOUBLE_PUT;
import static kmodel.verification.catalog.BugCatalog.TEXTBOOK_FORGOTTEN_PUT;
import static kmodel.verification.catalog.BugCatalog.TEXTBOOK_SLEEP_HOLDING_SPINLOCK;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.atomic.AtomicT;
import kmodel.kernel.atomic.RefcountT;
import kmodel.kernel.atomic.Shared;
import kmodel.kernel.lifetime.KObject;
import kmodel.kernel.locking.Spinlock;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;
import kmodel.kernel.wait.Wait;
import kmodel.kernel.wait.WaitQueueEntry;
import kmodel.kernel.wait.WaitQueueHead;
import kmodel.sim.world.Texts;
import kmodel.verification.world.Scenario;
import kmodel.verification.world.ScenarioSet;

/**
 * Textbook scenarios that prove the runtime and the explorer end to end: the classic lost
 * wake-up, and reference counting with its three classic mistakes. Small enough to explore
 * exhaustively in well under a second.
 */
public final class TextbookScenarios {
    private TextbookScenarios() {
    }

    /** Registers the textbook scenarios. */
    public static void registerAll(ScenarioSet r) {
        r.register(waitqueue());
        r.register(refcount());
    }

    /** Registers the textbook demonstrations ({@code ScenarioRegistry.demos()}). */
    public static void registerDemos(ScenarioSet r) {
        r.register(pollers());
    }

    // ------------------------------------------------------------------ textbook-pollers

    /** Two flags, each set by one poller once it has seen the other's. */
    static final class PollWorld {
        final AtomicT leftDone = new AtomicT("left_done", 0);
        final AtomicT rightDone = new AtomicT("right_done", 0);

        /**
         * Busy-waits for {@code other} to be set, then sets {@code mine}. A round reads one flag
         * and writes nothing, so a round that saw 0 changed nothing, and the next one starts at
         * the fairness point ({@link Sched#spinYield}).
         */
        static void poller(AtomicT other, AtomicT mine) {
            boolean fruitless = false;
            while (other.read() == 0) {
                if (fruitless) {
                    Sched.spinYield("poll " + other);
                }
                fruitless = true;
            }
            mine.set(1);
        }
    }

    /**
     * Two pollers that wait for each other: a livelock (a deadlock of busy-waiters) in every
     * execution. It shows that the explorer's fairness rule, which runs another task before a
     * poller's next fruitless round, does not hide a poll that nothing can end: the two take
     * turns until the step bound, so the check is {@code BOUND} with a replay token (at the
     * default step bound) of the first stopped execution.
     */
    public static Scenario<PollWorld> pollers() {
        return Scenario.<PollWorld>named("textbook-pollers",
                        "two tasks busy-wait for each other's flag: every execution stops at the step bound")
                .setup(PollWorld::new)
                .task("left", w -> PollWorld.poller(w.rightDone, w.leftDone))
                .task("right", w -> PollWorld.poller(w.leftDone, w.rightDone))
                .build();
    }

    // ------------------------------------------------------------------ textbook-waitqueue

    /** Two waiters and a waker around one condition and one wait queue. */
    static final class WaitWorld {
        final WaitQueueHead q = new WaitQueueHead("q");
        final Shared<Boolean> cond = new Shared<>("cond", false);
        /**
         * The waiters that got past the wait, by name: a set, so the outcome does not depend on
         * the order in which the two (independent) waiters returned.
         */
        final SortedSet<String> finished = new TreeSet<>();

        /**
         * include/linux/wait.h: the open-coded {@code wait_event(q, cond)} loop: the state is set
         * (by prepare_to_wait) before the condition is tested, so a wake-up between the test
         * and schedule() only makes schedule() return at once.
         */
        void waiter() {
            WaitQueueEntry wait = new WaitQueueEntry(Sched.current().name() + ".wait");
            Wait.initWait(wait);
            if (Kernel.bug(TEXTBOOK_CHECK_THEN_SLEEP)) {
                // The lost wake-up: test first, then queue and sleep.
                if (!cond.readOnce()) {
                    Kernel.event("cond == false");
                    Wait.prepareToWait(q, wait, Task.TASK_UNINTERRUPTIBLE);
                    Sched.waitingOn("q (cond)");
                    Sched.schedule();
                }
            } else {
                for (;;) {
                    Wait.prepareToWait(q, wait, Task.TASK_UNINTERRUPTIBLE);
                    if (cond.readOnce()) {
                        break;
                    }
                    Kernel.event("cond == false: sleep");
                    Sched.waitingOn("q (cond)");
                    Sched.schedule();
                }
            }
            Wait.finishWait(q, wait);
            wait.leaveScope();
            Kernel.event("sees cond");
            finished.add(Sched.current().name());
        }

        void waker() {
            cond.writeOnce(true);
            Kernel.event("cond = true");
            Wait.wakeUpAll(q);
            Kernel.event("wake_up_all(q)");
        }

        void check() {
            if (q.peekLength() != 0) {
                Kernel.fail(ViolationKind.BUG_ON, "q still has " + q.peekLength() + " entries at the end");
            }
        }
    }

    /** {@code textbook-waitqueue}: two waiters (wait_event loop) and a waker (wake_up_all). */
    public static Scenario<WaitWorld> waitqueue() {
        return Scenario.<WaitWorld>named("textbook-waitqueue",
                "two waiters sleep on a wait queue until a waker sets the condition (3 tasks)")
                .setup(WaitWorld::new)
                .task("waiter1", WaitWorld::waiter)
                .task("waiter2", WaitWorld::waiter)
                .task("waker", WaitWorld::waker)
                .atEnd(WaitWorld::check)
                .outcome(w -> Texts.join(",", w.finished))
                .build();
    }

    // ------------------------------------------------------------------ textbook-refcount

    /** A published object with a reference count (kref style); freed by the last put. */
    static final class Obj extends KObject {
        final RefcountT ref = new RefcountT("obj.ref", 1);

        Obj() {
            super("object", "obj");
        }

        @Override
        public int refs() {
            return ref.peek();
        }

        void free() {
            Kernel.event("free obj");
            released();
        }
    }

    /** A releaser unpublishes the object and drops the owner's reference; two users look it up. */
    static final class RefWorld {
        final Spinlock lookupLock = new Spinlock("lookup_lock");
        /** Protected by {@link #lookupLock}. */
        Obj published = new Obj();
        final Obj obj = published;
        final AtomicT usersDone = new AtomicT("users_done", 0);
        final WaitQueueHead doneWq = new WaitQueueHead("done_wq");

        /** Documentation/core-api/kref.rst: {@code kref_put()}: the last reference frees. */
        void objPut(Obj o) {
            // refcount_dec_and_test() below a freed object's zero is the double release
            if (o.ref.decAndTest()) {
                o.free();
            }
        }

        /** Lookup under the lock, then {@code kref_get()} while still holding it. */
        Obj lookup() {
            Spinlock.spinLock(lookupLock);
            Obj o = published;
            if (o != null) {
                o.touch();
                o.ref.inc();
            }
            Spinlock.spinUnlock(lookupLock);
            return o;
        }

        void user() {
            Obj o = lookup();
            if (o != null) {
                Kernel.event("got obj");
                o.touch();
                if (!(Kernel.bug(TEXTBOOK_FORGOTTEN_PUT) && Sched.current().name().equals("user1"))) {
                    objPut(o);
                    Kernel.event("put obj");
                }
            } else {
                Kernel.event("obj gone");
            }
            usersDone.inc();
            Wait.wakeUp(doneWq);
        }

        /** Unpublish, drop the owner's reference, wait until both users are done. */
        void releaser() {
            boolean sleepLocked = Kernel.bug(TEXTBOOK_SLEEP_HOLDING_SPINLOCK);
            Spinlock.spinLock(lookupLock);
            published = null;
            Kernel.event("unpublish obj");
            if (!sleepLocked) {
                Spinlock.spinUnlock(lookupLock);
            }
            objPut(obj);
            if (Kernel.bug(TEXTBOOK_DOUBLE_PUT)) {
                objPut(obj);
            }
            WaitQueueEntry wait = new WaitQueueEntry("releaser.wait");
            Wait.initWait(wait);
            for (;;) {
                Wait.prepareToWait(doneWq, wait, Task.TASK_UNINTERRUPTIBLE);
                if (usersDone.read() == 2) {
                    break;
                }
                Sched.waitingOn("done_wq (users_done == 2)");
                Sched.schedule();
            }
            Wait.finishWait(doneWq, wait);
            wait.leaveScope();
            if (sleepLocked) {
                Spinlock.spinUnlock(lookupLock);
            }
            Kernel.event("users done");
        }
    }

    /** {@code textbook-refcount}: kref-style get/put racing with unpublish and release. */
    public static Scenario<RefWorld> refcount() {
        return Scenario.<RefWorld>named("textbook-refcount",
                "a releaser unpublishes a refcounted object while two users look it up, use and put it")
                .setup(RefWorld::new)
                .task("releaser", RefWorld::releaser)
                .task("user1", RefWorld::user)
                .task("user2", RefWorld::user)
                .outcome(w -> w.obj.isFreed() ? "freed" : "live")
                .build();
    }
}
