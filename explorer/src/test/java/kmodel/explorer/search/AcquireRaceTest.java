package kmodel.explorer.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.TreeSet;
import kmodel.explorer.ModelCheck;
import kmodel.explorer.TestTarget;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Kernel;
import kmodel.kernel.atomic.Shared;
import kmodel.kernel.locking.Spinlock;
import kmodel.kernel.sched.DeterministicRuntime;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Footprinted;
import org.junit.jupiter.api.Test;

/**
 * A lock's acquire races with its previous acquire even when a later step of the earlier holder
 * also touches what the acquiring step touches. The shape is the page cache's: the inserter takes
 * {@code i_pages}' lock, inserts, and its {@code spin_unlock} step goes on to touch the page (a
 * reference); the looker's {@code spin_lock} step finds the page and takes a reference. The
 * looker's acquire then has two race candidates, the inserter's acquire (through the lock) and its
 * release step (through the page), and the release follows the acquire in program order. Counting
 * the release as ordering the acquire drops the acquire-acquire race, yet the release cannot be
 * reordered with the looker's acquire (the lock is held until it), so "the looker ran first" is
 * never tried. That is how DPOR missed a {@code ref-leak} plain DFS found on
 * {@code btrfs-2-readers-1page}.
 */
class AcquireRaceTest {
    /** Stands in for the page: an object whose reference count steps touch without a point of their own. */
    static final class Page extends Footprinted {
        int refs;

        void get() {
            Kernel.rt().access(this);
            refs++;
        }
    }

    static final class World {
        final Spinlock lock = new Spinlock("i_pages");
        final Shared<Page> slot = new Shared<>("slot", null);
        final Page page = new Page();
        String seen = "?";

        void inserter() {
            Spinlock.spinLock(lock);
            slot.writeOnce(page);
            Spinlock.spinUnlock(lock);
            page.get(); // the same step as the release
        }

        void looker() {
            Spinlock.spinLock(lock);
            page.get(); // the same step as the acquire
            seen = slot.readOnce() == null ? "missed" : "found";
            Spinlock.spinUnlock(lock);
        }
    }

    static TestTarget<World> scenario() {
        return TestTarget.<World>named("acquire-race", "a lookup racing an insertion under one lock")
                .setup(World::new)
                .tasks((w, sc) -> {
                    sc.task("inserter", w::inserter);
                    sc.task("looker", w::looker);
                })
                .outcome(w -> w.seen)
                .build();
    }

    private static Set<String> outcomes(ExplorationStrategy strategy) {
        TestTarget<World> s = scenario();
        return DeterministicRuntime.callOnRuntimeThread(() -> {
            Set<String> out = new TreeSet<>();
            try (DeterministicRuntime rt = new DeterministicRuntime()) {
                do {
                    ExecutionResult r = rt.execute(s.program(), strategy, Kconfig.defaults(), ModelCheck.DEFAULT_STEPS,
                            false, false);
                    if (!r.pruned()) {
                        out.add(r.violation() != null ? r.violation().toString() : r.outcome());
                    }
                } while (strategy.advance());
            }
            return out;
        });
    }

    @Test
    void theReducedSearchTriesTheLookerBeforeTheInserter() {
        Set<String> plain = outcomes(new DfsStrategy(Integer.MAX_VALUE));
        assertEquals(Set.of("found", "missed"), plain);
        assertEquals(plain, outcomes(new DporStrategy()));
        for (int bound = 0; bound <= 2; bound++) {
            assertEquals(outcomes(new DfsStrategy(bound)), outcomes(new DporStrategy(bound)), "bound " + bound);
        }
    }

    /** The test has teeth: the old rule loses the acquire-acquire race and never sees "missed". */
    @Test
    void theOldRuleMissesIt() {
        Set<String> old = outcomes(DporStrategy.acquireShortcutForTesting());
        assertTrue(old.contains("found"), old::toString);
        assertEquals(Set.of("found"), old);
    }
}
