package kmodel.verification.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.kernel.Kconfig;
import kmodel.kernel.Kernel;
import kmodel.kernel.Violation;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.atomic.RefcountT;
import kmodel.kernel.lifetime.KObject;
import kmodel.kernel.locking.Spinlock;
import kmodel.kernel.sched.FreeRunningRuntime;
import kmodel.kernel.sched.Sched;
import kmodel.verification.world.Scenario;
import kmodel.verification.catalog.BugCatalog;
import org.junit.jupiter.api.Test;

/**
 * The free-running runner makes the deterministic runtime's end-of-run checks. Every test here
 * runs a single task, or a bug that every interleaving hits, so that its result does not depend on
 * how the real threads happen to interleave (the interleavings are for JPF and Lincheck).
 */
class FreeRunTest {

    /** A refcounted object, freed by its last put. */
    static final class Obj extends KObject {
        final RefcountT ref = new RefcountT("obj.ref", 1);

        Obj() {
            super("object", "obj");
        }

        @Override
        public int refs() {
            return ref.peek();
        }

        /** Documentation/core-api/kref.rst: {@code kref_put()}: the last reference frees. */
        void put() {
            if (ref.decAndTest()) {
                released();
            }
        }

        /** Documentation/core-api/kref.rst: {@code kref_get()}. */
        void get() {
            ref.inc();
        }
    }

    /** A one-task world: an object and a lock. */
    static final class World {
        final Obj obj = new Obj();
        final Spinlock lock = new Spinlock("lock");
        boolean done;
    }

    private static Scenario<World> oneTask(String name, java.util.function.Consumer<World> body) {
        return Scenario.<World>named(name, "one task, for FreeRunTest")
                .setup(World::new)
                .task("t", body)
                .atEnd(w -> Kernel.BUG_ON(!w.done, "the task did not finish"))
                .build();
    }

    @Test
    void aSingleTaskThatGetsUsesAndPutsEndsClean() {
        Scenario<World> s = oneTask("get-put", w -> {
            w.obj.get();
            Spinlock.spinLock(w.lock);
            w.obj.touch();
            Spinlock.spinUnlock(w.lock);
            w.obj.put();
            w.obj.put();
            w.done = true;
        });
        assertNull(FreeRun.run(s, Kconfig.defaults()));
    }

    @Test
    void aSingleTaskThatPutsOnceTooOftenIsADoubleRelease() {
        Violation v = FreeRun.run(oneTask("double-put", w -> {
            w.obj.put();
            w.obj.put();
            w.done = true;
        }), Kconfig.defaults());
        assertNotNull(v);
        assertEquals(ViolationKind.DOUBLE_RELEASE, v.kind());
        assertTrue(v.getMessage().contains("refcount_t obj.ref: underflow"), v::getMessage);
        assertEquals("t", v.task());
    }

    @Test
    void aReferenceNobodyDropsIsARefLeakAtTheEnd() {
        Violation v = FreeRun.run(oneTask("leak", w -> {
            w.obj.get();
            w.obj.put();
            w.done = true;
        }), Kconfig.defaults());
        assertNotNull(v);
        assertEquals(ViolationKind.REF_LEAK, v.kind());
        assertTrue(v.getMessage().contains("object obj holds 1 reference(s) at the end"), v::getMessage);
    }

    @Test
    void aTaskThatExitsHoldingASpinlockIsALockLeak() {
        Violation v = FreeRun.run(oneTask("exit-locked", w -> {
            Spinlock.spinLock(w.lock);
            w.obj.put();
            w.done = true;
        }), Kconfig.defaults());
        assertNotNull(v);
        assertEquals(ViolationKind.LOCK_LEAK, v.kind());
        assertEquals("t exited holding 1 spinlock(s)", v.getMessage());
    }

    @Test
    void theScenariosOwnEndCheckRuns() {
        Violation v = FreeRun.run(oneTask("unfinished", w -> w.obj.put()), Kconfig.defaults());
        assertNotNull(v);
        assertEquals(ViolationKind.BUG_ON, v.kind());
        assertEquals("BUG_ON: the task did not finish", v.getMessage());
    }

    @Test
    void aModelCrashIsAnOopsNamingTheTask() {
        Violation v = FreeRun.run(oneTask("crash", w -> {
            Object[] pages = new Object[1];
            w.done = pages[0].hashCode() == 0;
        }), Kconfig.defaults());
        assertNotNull(v);
        assertEquals(ViolationKind.OOPS, v.kind());
        assertTrue(v.getMessage().startsWith("oops in t: java.lang.NullPointerException"), v::getMessage);
        assertTrue(v.getMessage().contains("at kmodel.verification.harness.FreeRunTest"), v::getMessage);
    }

    @Test
    void aViolationInSetupIsReturnedBeforeAnyTaskRuns() {
        Scenario<World> s = Scenario.<World>named("bad-setup", "setup fails")
                .setup(() -> {
                    World w = new World();
                    w.obj.put();
                    w.obj.put();
                    return w;
                })
                .task("t", w -> w.done = true)
                .build();
        Violation v = FreeRun.run(s, Kconfig.defaults());
        assertNotNull(v);
        assertEquals(ViolationKind.DOUBLE_RELEASE, v.kind());
    }

    @Test
    void theChooserMakesTheDataChoices() {
        int[] seen = new int[2];
        Scenario<World> s = oneTask("choice", w -> {
            seen[0] = Kernel.rt().choose(3, "which");
            seen[1] = Kernel.rt().choose(1, "only one");
            w.obj.put();
            w.done = true;
        });
        assertNull(FreeRun.run(s, Kconfig.defaults(), (n, why) -> n - 1));
        assertEquals(2, seen[0]);
        assertEquals(0, seen[1]);
        assertNull(FreeRun.run(s, Kconfig.defaults(), FreeRunningRuntime.FIRST));
        assertEquals(0, seen[0]);
    }

    @Test
    void theConfigurationIsLaidOverTheScenarios() {
        boolean[] bug = new boolean[1];
        Scenario<World> s = oneTask("config", w -> {
            bug[0] = Kernel.bug(BugCatalog.TEXTBOOK_DOUBLE_PUT) && Sched.current().name().equals("t");
            w.obj.put();
            w.done = true;
        });
        assertNull(FreeRun.run(s, Kconfig.defaults().withBug(BugCatalog.TEXTBOOK_DOUBLE_PUT)));
        assertTrue(bug[0]);
    }

    /**
     * {@code textbook-double-put}: the releaser drops the owner's reference twice, so every
     * interleaving drops one reference more than was taken: each ends in a double release, or in a
     * use-after-free when a user touches the object after the early free. Whatever the threads do,
     * the run fails; the other tasks are stopped and the run returns.
     */
    @Test
    void theDoublePutBugFailsTextbookRefcountOnRealThreads() {
        Harness h = Harnesses.named("textbook-refcount");
        Violation v = h.run(BugCatalog.TEXTBOOK_DOUBLE_PUT);
        assertNotNull(v);
        assertTrue(v.kind() == ViolationKind.DOUBLE_RELEASE || v.kind() == ViolationKind.USE_AFTER_FREE, v::toString);
    }
}
