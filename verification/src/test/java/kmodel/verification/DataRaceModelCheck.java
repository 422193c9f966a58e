package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.fs.blockdev.Bdev;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.locking.Spinlock;
import kmodel.mm.AddressSpace;
import kmodel.mm.Filemap;
import kmodel.mm.Page;
import kmodel.mm.PageCache;
import kmodel.mm.Truncate;
import kmodel.verification.world.Scenario;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code data-race} over the model's own code: {@code mapping->nrpages} is a plain field
 * protected by {@code i_pages}' lock ({@code kmodel.mm.AddressSpace}). A reader that takes the
 * lock is ordered with {@code add_to_page_cache_lru()}'s update; the same plain read without the
 * lock (what a careless caller of {@code mapping->nrpages} would do) is a data race, found under
 * the sequentially consistent search.
 */
@Tag("modelcheck")
class DataRaceModelCheck {
    static final class World {
        final Bdev bdev = Bdev.create(4, 2, 0);
        long seen = -1;

        AddressSpace mapping() {
            return bdev.mapping();
        }

        void adder() {
            Page page = PageCache.pageCacheAlloc(mapping());
            if (PageCache.addToPageCacheLru(page, mapping(), 0) == 0) {
                Filemap.unlockPage(page);
            }
            Page.putPage(page);
        }

        void lockedReader() {
            Spinlock.spinLockIrq(mapping().iPagesLock);
            seen = mapping().nrpages();
            Spinlock.spinUnlockIrq(mapping().iPagesLock);
        }

        void unlockedReader() {
            seen = mapping().nrpages();
        }
    }

    static Scenario<World> scenario(boolean locked) {
        return Scenario.<World>named(locked ? "nrpages-locked-read" : "nrpages-unlocked-read",
                "a page added to the cache while another task reads mapping->nrpages")
                .setup(World::new)
                .task("adder", World::adder)
                .task("reader", locked ? World::lockedReader : World::unlockedReader)
                .atEnd(w -> Truncate.truncateInodePages(w.mapping(), 0)) // the cache's reference
                .outcome(w -> "seen=" + w.seen)
                .build();
    }

    @Test
    void theReadUnderTheLockIsNoRace() {
        CheckResult r = ModelCheck.exhaustive(scenario(true)).run();
        assertTrue(r.passed(), () -> r.summaryLine() + "\n" + r.diagram());
        assertEquals(java.util.Set.of("seen=0", "seen=1"), r.outcomes());
    }

    @Test
    void theSameReadWithoutTheLockIsADataRace() {
        CheckResult r = ModelCheck.exhaustive(scenario(false)).run();
        assertEquals(ViolationKind.DATA_RACE, r.kind(), r::summaryLine);
        String text = r.summaryLine() + "\n" + r.diagram();
        assertTrue(text.contains("mapping->nrpages"), text);
    }
}
