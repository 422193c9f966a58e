package kmodel.mm;

import static kmodel.mm.PageFlags.PG_locked;
import static kmodel.mm.PageFlags.PG_uptodate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Program;
import kmodel.kernel.sched.Run;
import kmodel.kernel.sched.Runtime;
import kmodel.kernel.sched.Strategy;
import kmodel.kernel.sched.TraceEvent;
import org.junit.jupiter.api.Test;

/**
 * The struct page is never freed (Page's class comment): a freed page goes back to the
 * allocator and is reused, and a late access through a pointer to its earlier incarnation is
 * checked for its effect, not as a use-after-free.
 */
class PageReuseTest {
    /** A page of {@code mem}, freed again: locked, unlocked and put by its one owner. Returns it and its generation. */
    private static Page allocAndFree(PageAllocator mem) {
        Page p = mem.allocPage();
        PageFlags.__SetPageLocked(p);
        PageFlags.SetPageUptodate(p);
        Filemap.unlockPage(p);
        Page.putPage(p);
        return p;
    }

    @Test
    void aFreedPageIsReusedByTheNextAllocationWithItsFlagsCleared() {
        ExecutionResult r = Run.task(Kconfig.defaults(), () -> {
            PageAllocator mem = new PageAllocator(1);
            Page p = allocAndFree(mem);
            int gen = p.gen();
            Page q = mem.allocPage();
            assertSame(p, q, "the struct page comes back");
            assertTrue(q.gen() != gen, "as a new incarnation");
            assertEquals(0, q.flags.peek(), "free_pages_prepare() cleared PG_uptodate");
            PageFlags.PageLocked(p); // a read through the stale pointer: no use-after-free
            Page.putPage(q);
        });
        assertNull(r.violation(), () -> r.violation().summary());
    }

    /**
     * The truncate-vs-read-completion shape: the completion cleared PG_locked and has yet to walk
     * the queue when the page is freed and reused, locked by its new owner and waited on. The
     * late walk wakes the new owner's waiter (a spurious wake-up, counted in the trace) and
     * clears PG_waiters only because no waiter of the page is left queued: no violation.
     */
    @Test
    void aLateWakeUpOfAReusedPageIsASpuriousWakeUpAtMost() {
        int[] gens = new int[1];
        ExecutionResult r = Run.once(new Program() {
            Page q;

            @Override
            public void boot(Runtime rt) {
                PageAllocator mem = new PageAllocator(1);
                Page p = allocAndFree(mem);
                gens[0] = p.gen();
                q = mem.allocPage();
                PageFlags.__SetPageLocked(q);
                rt.spawn("waiter", null, false, false, () -> {
                    Page.getPage(q);
                    Filemap.waitOnPageLocked(q);
                    Page.putPage(q);
                });
                rt.spawn("stale", null, false, false, () -> Filemap.wakeUpPageBit(q, gens[0], PG_locked));
                rt.spawn("owner", null, false, false, () -> {
                    Filemap.unlockPage(q);
                    Page.putPage(q);
                });
            }

            @Override
            public String finish() {
                return "";
            }
        }, Run.nonPreemptive(), Kconfig.defaults(), true);
        assertNull(r.violation(), () -> r.violation().summary());
        long spurious = r.trace().stream().filter(e -> e.text().startsWith("spurious wake-up of waiter.wait_page")).count();
        assertEquals(1, spurious, () -> texts(r));
        assertTrue(r.trace().stream().anyMatch(e -> e.text().contains("clears PG_waiters of P0, reused as P1")), () -> texts(r));
    }

    /** The deliberate break: PG_locked cleared through a stale pointer while the page's new owner holds it. */
    @Test
    void aLateUnlockOfAReusedPageCorruptsItsNewOwnersLock() {
        ExecutionResult r = Run.task(Kconfig.defaults(), () -> {
            PageAllocator mem = new PageAllocator(1);
            Page p = allocAndFree(mem);
            int gen = p.gen();
            Page q = mem.allocPage();
            PageFlags.__SetPageLocked(q);
            p.lateFlagWrite(gen, PG_locked, false, "unlock_page");
        });
        assertNotNull(r.violation());
        assertEquals(ViolationKind.PAGE_FLAGS_CORRUPTED, r.violation().kind());
        assertTrue(r.violation().getMessage().contains("unlock_page through a stale pointer to P0 cleared PG_locked"
                + " of the same struct page reused as P1"), r.violation().getMessage());
    }

    @Test
    void aLateWriteThatChangesNothingHasNoEffect() {
        ExecutionResult r = Run.task(Kconfig.defaults(), () -> {
            PageAllocator mem = new PageAllocator(1);
            Page p = allocAndFree(mem);
            int gen = p.gen();
            Page q = mem.allocPage();
            p.lateFlagWrite(gen, PG_locked, false, "unlock_page"); // already clear
            p.lateFlagWrite(gen, PageFlags.PG_waiters, false, "wake_up_page_bit");
            Page.putPage(q);
        });
        assertNull(r.violation(), () -> r.violation().summary());
    }

    /** A flag set on a free page stays; check_new_page() finds it when the page is handed out. */
    @Test
    void aFlagSetOnAFreePageIsFoundByTheNextAllocation() {
        ExecutionResult r = Run.task(Kconfig.defaults(), () -> {
            PageAllocator mem = new PageAllocator(1);
            Page p = allocAndFree(mem);
            p.lateFlagWrite(p.gen(), PG_uptodate, true, "page_endio");
            PageFlags.SetPageUptodate(p);
            mem.allocPage();
        });
        assertNotNull(r.violation());
        assertEquals(ViolationKind.PAGE_FLAGS_CORRUPTED, r.violation().kind());
        assertTrue(r.violation().getMessage().contains("bad_page(P0): PAGE_FLAGS_CHECK_AT_PREP flag(s) set on a free page"
                + " by a late write: PG_uptodate"), r.violation().getMessage());
    }

    @Test
    void freeingALockedPageIsABadPage() {
        ExecutionResult r = Run.task(Kconfig.defaults(), () -> {
            Page p = new PageAllocator(1).allocPage();
            PageFlags.__SetPageLocked(p);
            Page.putPage(p);
        });
        assertNotNull(r.violation());
        assertEquals(ViolationKind.BUG_ON, r.violation().kind());
        assertTrue(r.violation().getMessage().contains("PAGE_FLAGS_CHECK_AT_FREE flag(s) set: PG_locked"),
                r.violation().getMessage());
    }

    @Test
    void getPageOnAFreePageIsAVmBugOnNotAUseAfterFree() {
        ExecutionResult r = Run.task(Kconfig.defaults(), () -> Page.getPage(allocAndFree(new PageAllocator(1))));
        assertNotNull(r.violation());
        assertEquals(ViolationKind.BUG_ON, r.violation().kind());
        assertTrue(r.violation().getMessage().startsWith("VM_BUG_ON_PAGE(page_ref_zero_or_close_to_overflow(page))"),
                r.violation().getMessage());
    }

    @Test
    void putPageOnAFreePageIsADoubleRelease() {
        ExecutionResult r = Run.task(Kconfig.defaults(), () -> Page.putPage(allocAndFree(new PageAllocator(1))));
        assertNotNull(r.violation());
        assertEquals(ViolationKind.DOUBLE_RELEASE, r.violation().kind());
        assertTrue(r.violation().getMessage().contains("VM_BUG_ON_PAGE(page_ref_count(page) == 0)"), r.violation().getMessage());
    }

    /** With two pages free, which one an allocation takes is a data choice among the two most recently freed. */
    @Test
    void whichFreePageIsTakenIsADataChoice() {
        Page[] got = new Page[4];
        for (int v = 0; v < 2; v++) {
            int value = v;
            Strategy pick = new Strategy() {
                @Override
                public void beginExecution() {
                }

                @Override
                public int pickTask(int[] ids, int n, int current) {
                    return current >= 0 ? current : ids[0];
                }

                @Override
                public int pickValue(int n) {
                    assertEquals(PageAllocator.REUSE_CHOICES, n);
                    return value;
                }
            };
            ExecutionResult r = Run.once(new Program() {
                @Override
                public void boot(Runtime rt) {
                    rt.spawn("t1", null, false, false, () -> {
                        PageAllocator mem = new PageAllocator(1);
                        Page a = mem.allocPage();
                        Page b = mem.allocPage();
                        Page.putPage(a);
                        Page.putPage(b);
                        got[2 * value] = mem.allocPage();
                        got[2 * value + 1] = value == 0 ? b : a;
                        Page.putPage(got[2 * value]);
                    });
                }

                @Override
                public String finish() {
                    return "";
                }
            }, pick, Kconfig.defaults(), false);
            assertNull(r.violation(), () -> r.violation().summary());
        }
        assertSame(got[1], got[0], "choice 0: the page freed last (the per-CPU list's head)");
        assertSame(got[3], got[2], "choice 1: the one freed before it");
    }

    private static String texts(ExecutionResult r) {
        StringBuilder sb = new StringBuilder();
        for (TraceEvent e : r.trace()) {
            sb.append(e.task()).append(": ").append(e.text()).append('\n');
        }
        return sb.toString();
    }
}
