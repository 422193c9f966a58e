package kmodel.verification.scenarios;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.KernelOptions;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;
import kmodel.mm.Filemap;
import kmodel.mm.MmOptions;
import kmodel.mm.Page;
import kmodel.mm.PageCache;
import kmodel.mm.PageFlags;
import kmodel.sim.world.AsyncRetry;
import kmodel.sim.world.Texts;
import kmodel.verification.world.Scenario;
import kmodel.verification.world.ScenarioSet;

/**
 * Scenarios about the page lock and wait protocol itself (mm/filemap.c v5.10, and v5.7 with
 * {@code PAGE_WAIT_V57=y}), on pages that are already cached: no I/O, only lockers, waiters,
 * writeback completions and page-unlock callbacks.
 */
public final class PageLockScenarios {
    private PageLockScenarios() {
    }

    /** Registers the scenarios that pass on the default configuration. */
    public static void registerAll(ScenarioSet r) {
        r.register(killable());
        r.register(collisions());
        r.register(writebackFreeReuse());
        r.register(asyncLock());
        r.register(stealer());
        r.register(killableWriteback());
        r.register(killableUnfairFixed());
    }

    /**
     * Registers the scenarios too large for the default run: the crowd, which partial-order
     * reduction finishes ({@code --preemptions unbounded}), and the five- and six-task worlds of
     * killed lockers (docs/findings/killed-locker-strands-waiter.md); not run by default.
     */
    public static void registerLarge(ScenarioSet r) {
        r.register(writebackReuseRewrite());
        r.register(crowd());
        r.register(killableStealer());
        r.register(killableThree());
        r.register(twoKillable());
    }

    /** Registers the scenarios that show model findings (they fail on the default configuration). */
    public static void registerFindings(ScenarioSet r) {
        r.register(killedLockerStrandsWaiter());
    }

    // ------------------------------------------------------------------ page-lock-killable

    /** A holder, a plain locker and a killable locker on one page; a killer sends SIGKILL. */
    static final class LockWorld {
        final CachedFile file = new CachedFile("file", 1);
        final Page page = file.pages[0];
        final List<String> results = new ArrayList<>();
        Task killable;

        LockWorld() {
            /* The holder owns the lock from the start. */
            Filemap.lockPage(page);
        }

        void holder() {
            Kernel.event("holder: unlock_page(%s)", page);
            Filemap.unlockPage(page);
        }

        void locker() {
            Filemap.lockPage(page);
            Kernel.event("locker owns %s", page);
            Filemap.unlockPage(page);
        }

        void killableLocker() {
            int ret = Filemap.lockPageKillable(page);
            Kernel.event("lock_page_killable = %s", Errno.name(ret));
            if (ret == 0) {
                Filemap.unlockPage(page);
            }
            results.add(Errno.name(ret));
        }

        void killer() {
            Sched.sendSigkill(killable);
        }
    }

    private static Scenario.Builder<LockWorld> lockers(String name, String description) {
        return Scenario.<LockWorld>named(name, description)
                .setup(LockWorld::new)
                .task("holder", LockWorld::holder)
                .task("locker", LockWorld::locker)
                .tasks((w, s) -> {
                    w.killable = s.task("killable", w::killableLocker);
                    s.task("killer", w::killer);
                })
                .atEnd(w -> w.file.check())
                .outcome(w -> Texts.join(",", w.results));
    }

    /**
     * {@code page-lock-killable}: exclusive lockers plus a killable locker that receives a fatal
     * signal. Runs with {@code PAGE_LOCK_UNFAIRNESS=0} (every exclusive waiter a fair hand-off,
     * kind (c)): with the default budget the model finds a lost wake-up in v5.10 itself, shown by
     * {@code finding-killed-locker-strands-waiter}.
     */
    static Scenario<LockWorld> killable() {
        return lockers("page-lock-killable",
                "a holder, a lock_page locker and a lock_page_killable locker that gets SIGKILL (fair hand-off)")
                .set(MmOptions.PAGE_LOCK_UNFAIRNESS, 0)
                .build();
    }

    /**
     * {@code finding-killed-locker-strands-waiter}: the same world with the kernel's default
     * unfairness budget (5). A killable exclusive waiter that has seen the signal and left its wait
     * loop can still be chosen by the unlocker's walk before its {@code finish_wait()}: the wake
     * function sets WOKEN (not DONE, it is not a hand-off waiter), returns 1 and so uses up the
     * walk's one exclusive wake-up; the waiter then returns -EINTR without the lock, and the
     * other locker sleeps until some later unlock that never comes. Fails on purpose.
     */
    static Scenario<LockWorld> killedLockerStrandsWaiter() {
        return lockers("finding-killed-locker-strands-waiter",
                "model finding: v5.10 killable exclusive waiter consumes the exclusive wake-up it then ignores")
                .build();
    }

    /**
     * {@code page-lock-killable-unfair-fixed}: {@code page-lock-killable} at the kernel's default
     * unfairness budget (5) with the candidate fix {@code PAGE_LOCK_WOKEN_KILLED_TRYLOCK=y}: the
     * killed waiter that a walk picked after its signal check takes the lock (or leaves the
     * wake-up to the lock's owner) instead of returning -EINTR with the wake-up used up.
     */
    static Scenario<LockWorld> killableUnfairFixed() {
        return lockers("page-lock-killable-unfair-fixed",
                "page-lock-killable at the default unfairness (5) with the candidate fix PAGE_LOCK_WOKEN_KILLED_TRYLOCK")
                .set(MmOptions.PAGE_LOCK_UNFAIRNESS, 5)
                .set(MmOptions.PAGE_LOCK_WOKEN_KILLED_TRYLOCK, 1)
                .build();
    }

    // ------------------------------------------------------------------ larger worlds of killed lockers

    /**
     * A page locked by a holder; plain {@code lock_page()} lockers, {@code lock_page_killable()}
     * lockers each with a killer of its own (SIGKILL at any point), and optionally a stealer that
     * takes the lock once by {@code trylock_page()} alone, never queueing.
     */
    static final class KillWorld {
        final CachedFile file = new CachedFile("file", 1);
        final Page page = file.pages[0];
        final List<String> results = new ArrayList<>();
        int steals;

        KillWorld() {
            /* The holder owns the lock from the start. */
            Filemap.lockPage(page);
        }

        void holder() {
            Kernel.event("holder: unlock_page(%s)", page);
            Filemap.unlockPage(page);
        }

        void locker() {
            Filemap.lockPage(page);
            Kernel.event("%s owns %s", Kernel.current().name(), page);
            Filemap.unlockPage(page);
        }

        void killableLocker() {
            int ret = Filemap.lockPageKillable(page);
            Kernel.event("lock_page_killable = %s", Errno.name(ret));
            if (ret == 0) {
                Filemap.unlockPage(page);
            }
            results.add(Errno.name(ret));
        }

        void stealer() {
            if (Filemap.trylockPage(page)) {
                steals++;
                Kernel.event("stealer owns %s", page);
                Filemap.unlockPage(page);
            }
        }

        /** The killable lockers' results in a fixed order, and the steals. */
        String outcome() {
            List<String> sorted = new ArrayList<>(results);
            Collections.sort(sorted);
            return Texts.join(",", sorted) + (steals > 0 ? " steals=" + steals : "");
        }
    }

    /**
     * A world of a holder, {@code lockers} plain lockers, {@code killables} killable lockers with
     * a killer each, and a stealer if {@code stealer}; {@code PAGE_LOCK_UNFAIRNESS=0} as in
     * {@code page-lock-killable} (lay {@code --set PAGE_LOCK_UNFAIRNESS=5} over it for the
     * kernel's default).
     */
    private static Scenario<KillWorld> killWorld(String name, String description, int lockers, int killables,
            boolean stealer) {
        Scenario.Builder<KillWorld> b = Scenario.<KillWorld>named(name, description)
                .set(MmOptions.PAGE_LOCK_UNFAIRNESS, 0)
                .setup(KillWorld::new)
                .task("holder", KillWorld::holder);
        for (int i = 0; i < lockers; i++) {
            b.task(lockers == 1 ? "locker" : "locker" + i, KillWorld::locker);
        }
        for (int i = 0; i < killables; i++) {
            final String k = killables == 1 ? "killable" : "killable" + i;
            final String killer = killables == 1 ? "killer" : "killer" + i;
            b.tasks((w, sp) -> {
                Task t = sp.task(k, w::killableLocker);
                sp.task(killer, () -> Sched.sendSigkill(t));
            });
        }
        if (stealer) {
            b.task("stealer", KillWorld::stealer);
        }
        return b.atEnd(w -> w.file.check()).outcome(KillWorld::outcome).build();
    }

    /**
     * {@code page-lock-killable-stealer}: {@code page-lock-killable} with a lock stealer (one
     * {@code trylock_page()}): five tasks. Checks the claims about the finding where the lock can
     * be taken from under a woken waiter.
     */
    static Scenario<KillWorld> killableStealer() {
        return killWorld("page-lock-killable-stealer",
                "a holder, a lock_page locker, a killable locker that gets SIGKILL and a trylock_page stealer (fair hand-off)",
                1, 1, true);
    }

    /** {@code page-lock-killable-three}: {@code page-lock-killable} with a second plain locker: five tasks. */
    static Scenario<KillWorld> killableThree() {
        return killWorld("page-lock-killable-three",
                "a holder, two lock_page lockers and a killable locker that gets SIGKILL (fair hand-off)", 2, 1, false);
    }

    /**
     * {@code page-lock-two-killable}: a holder, a plain locker and two killable lockers, each
     * with its own killer: six tasks.
     */
    static Scenario<KillWorld> twoKillable() {
        return killWorld("page-lock-two-killable",
                "a holder, a lock_page locker and two killable lockers, each killed at any point (fair hand-off)", 1, 2,
                false);
    }

    // ------------------------------------------------------------------ page-wait-collisions

    /** Two pages sharing one hashed wait queue; waiters on different pages and bits. */
    static final class CollisionWorld {
        final CachedFile file = new CachedFile("file", 2);
        final Page p0 = file.pages[0];
        final Page p1 = file.pages[1];

        CollisionWorld() {
            Filemap.lockPage(p0);
            Filemap.setPageWriteback(p0);
            Filemap.lockPage(p1);
        }
    }

    /**
     * {@code page-wait-collisions}: with a one-head wait table and a walk that drops the lock after
     * every entry, waiters on P0's lock, P1's lock and P0's writeback share one queue while the
     * pages are unlocked and the writeback ends (one task does both, to keep the exploration at
     * bound 2 to seconds).
     */
    static Scenario<CollisionWorld> collisions() {
        return Scenario.<CollisionWorld>named("page-wait-collisions",
                "waiters on two pages and two bits collide in a 1-head wait table with WAITQUEUE_WALK_BREAK_CNT=1")
                .set(MmOptions.PAGE_WAIT_TABLE_SIZE, 1)
                .set(KernelOptions.WAITQUEUE_WALK_BREAK_CNT, 1)
                .setup(CollisionWorld::new)
                .task("wait-lock0", w -> Filemap.waitOnPageLocked(w.p0))
                .task("wait-lock1", w -> Filemap.waitOnPageLocked(w.p1))
                .task("wait-wb0", w -> Filemap.waitOnPageWriteback(w.p0))
                .task("unlocker", w -> {
                    Filemap.unlockPage(w.p1);
                    Filemap.endPageWriteback(w.p0);
                    Filemap.unlockPage(w.p0);
                })
                .atEnd(w -> w.file.check())
                .build();
    }

    // ------------------------------------------------------------------ writeback-free-reuse

    /** A page under writeback that is truncated (and freed) as soon as the writeback ends. */
    static final class ReuseWorld {
        final CachedFile file = new CachedFile("file", 1);
        final Page page = file.pages[0];
        String reused = "no";

        ReuseWorld() {
            Filemap.setPageWriteback(page);
        }

        /** A reader of the page that waits for its writeback (holding a reference). */
        void waiter() {
            Page p = PageCache.findGetPage(file.mapping, 0);
            if (p != null) {
                Filemap.waitOnPageWriteback(p);
                Page.putPage(p);
            }
        }

        /**
         * mm/truncate.c, in short: lock, wait for writeback, delete from the cache, unlock, put;
         * then refill the index with a newly allocated page, which reuses the freed
         * {@code struct page} when it is free by then.
         */
        void truncater() {
            Page p = PageCache.findLockPage(file.mapping, 0);
            Filemap.waitOnPageWriteback(p);
            PageCache.deleteFromPageCache(p);
            Filemap.unlockPage(p);
            Page.putPage(p);
            Page fresh = PageCache.pageCacheAlloc(file.mapping);
            if (fresh == page) {
                reused = "yes";
                Kernel.event("%s reused", fresh);
            }
            PageCache.addToPageCacheLru(fresh, file.mapping, 0);
            PageFlags.SetPageUptodate(fresh);
            Filemap.unlockPage(fresh);
            Page.putPage(fresh);
        }
    }

    /**
     * {@code writeback-free-reuse}: writeback ends in interrupt context while a reader waits on
     * it and a truncation waits to free the page, which a third task then reuses.
     */
    static Scenario<ReuseWorld> writebackFreeReuse() {
        return Scenario.<ReuseWorld>named("writeback-free-reuse",
                "writeback ends while a reader waits on it; truncation frees the page and it is reused")
                .set(MmOptions.PAGE_WAIT_TABLE_SIZE, 1)
                .setup(ReuseWorld::new)
                .task("waiter", ReuseWorld::waiter)
                .task("truncate", ReuseWorld::truncater)
                .tasks((w, s) -> s.irq("end_io", () -> Filemap.endPageWriteback(w.page)))
                .atEnd(w -> w.file.check())
                .outcome(w -> "reused=" + w.reused)
                .build();
    }

    // ------------------------------------------------------------------ writeback-reuse-rewrite

    /**
     * 073861ed77b6's message, in Matthew Wilcox's words: writeback ends ({@code thread A}:
     * {@code test_clear_page_writeback()}), truncation deletes and frees the page, the page is
     * reallocated, added to the page cache and written back again, and {@code thread C}, waiting
     * for that writeback, is woken by A's belated {@code wake_up_page(page, PG_writeback)}.
     */
    static final class RewriteWorld {
        final CachedFile file = new CachedFile("file", 1);
        final Page page = file.pages[0];
        String reused = "no";

        RewriteWorld() {
            Filemap.setPageWriteback(page);
        }

        /**
         * Thread B: mm/truncate.c, in short (lock, wait for writeback, delete, unlock, put), then
         * the index refilled and written back: a new page, locked, under writeback, unlocked, and
         * its writeback ended.
         */
        void truncateAndRewrite() {
            Page p = PageCache.findLockPage(file.mapping, 0);
            Filemap.waitOnPageWriteback(p);
            PageCache.deleteFromPageCache(p);
            Filemap.unlockPage(p);
            Page.putPage(p);
            Page fresh = PageCache.pageCacheAlloc(file.mapping);
            if (fresh == page) {
                reused = "yes";
            }
            PageCache.addToPageCacheLru(fresh, file.mapping, 0);
            PageFlags.SetPageUptodate(fresh);
            Filemap.setPageWriteback(fresh);
            Filemap.unlockPage(fresh);
            Filemap.endPageWriteback(fresh);
            Page.putPage(fresh);
        }

        /**
         * Thread C: mm/page-writeback.c {@code write_cache_pages()}' data-integrity wait on the
         * page it finds: lock it, {@code wait_on_page_writeback()}, then
         * {@code BUG_ON(PageWriteback(page))}.
         */
        void syncer() {
            Page p = PageCache.findGetPage(file.mapping, 0);
            if (p == null) {
                return;
            }
            Filemap.lockPage(p);
            if (p.mapping == file.mapping) {
                Filemap.waitOnPageWriteback(p);
                if (PageFlags.PageWriteback(p)) {
                    Kernel.BUG_ON(true, "write_cache_pages: BUG_ON(PageWriteback(" + p.describe() + "))");
                }
            }
            Filemap.unlockPage(p);
            Page.putPage(p);
        }
    }

    /**
     * {@code writeback-reuse-rewrite}: the sequence 073861ed77b6's message gives for a
     * writeback completion that wakes without a page reference. With the reference
     * (v5.10-rc6 on) the page cannot be freed before the wake-up; without it (bug
     * {@code end-writeback-no-page-ref}) the wake-up reaches the page's next incarnation, whose
     * writeback waiter sees a spurious wake-up: harmless with c2407cf7d22d's loop, the
     * {@code BUG_ON(PageWriteback)} of the commit's title with v5.10.0's single {@code if}
     * (which the bug implies, as the kernels it lived in had it). Large: not run by default.
     */
    static Scenario<RewriteWorld> writebackReuseRewrite() {
        return Scenario.<RewriteWorld>named("writeback-reuse-rewrite",
                "writeback ends, truncation frees the page, it is reused and written back while a syncer waits on it")
                .set(MmOptions.PAGE_WAIT_TABLE_SIZE, 1)
                .setup(RewriteWorld::new)
                .task("truncate", RewriteWorld::truncateAndRewrite)
                .task("syncer", RewriteWorld::syncer)
                .tasks((w, s) -> s.irq("end_io", () -> Filemap.endPageWriteback(w.page)))
                .atEnd(w -> w.file.check())
                .outcome(w -> "reused=" + w.reused)
                .build();
    }

    // ------------------------------------------------------------------ async-page-lock

    /** A page locked and under writeback; an async locker waits for it by callback. */
    static final class AsyncWorld {
        final CachedFile file = new CachedFile("file", 1);
        final Page page = file.pages[0];
        int retries;

        AsyncWorld() {
            Filemap.lockPage(page);
            Filemap.setPageWriteback(page);
        }

        /**
         * An io_uring-style locker: {@code lock_page_async()}; on {@code -EIOCBQUEUED} wait for the
         * page-unlock callback's task_work and try again.
         */
        void asyncLocker() {
            AsyncRetry retry = new AsyncRetry("aio.wpq");
            for (;;) {
                retry.waiter.initEntry();
                int ret = Filemap.lockPageAsync(page, retry.waiter.wpq);
                if (ret == 0) {
                    break;
                }
                Kernel.BUG_ON(ret != -Errno.EIOCBQUEUED, "lock_page_async returned " + Errno.name(ret));
                retry.awaitCallback();
            }
            Kernel.event("aio owns %s", page);
            Filemap.unlockPage(page);
            retries = retry.retries();
        }
    }

    /**
     * {@code async-page-lock}: {@code lock_page_async()} with a task_work retry against a holder's
     * unlock and a writeback completion on the same page (which walks the page's queue for
     * another bit, so the callback entry must record {@code page_match}).
     */
    static Scenario<AsyncWorld> asyncLock() {
        return Scenario.<AsyncWorld>named("async-page-lock",
                "lock_page_async with a task_work retry vs a holder's unlock and end_page_writeback on the same page")
                .setup(AsyncWorld::new)
                .task("holder", w -> Filemap.unlockPage(w.page))
                .task("aio", AsyncWorld::asyncLocker)
                .tasks((w, s) -> s.irq("end_io", () -> Filemap.endPageWriteback(w.page)))
                .atEnd(w -> w.file.check())
                .outcome(w -> "retries=" + w.retries)
                .build();
    }

    // ------------------------------------------------------------------ page-lock-stealer

    /** A holder, a queued locker and a stealer that only ever uses the trylock fast path. */
    static final class StealWorld {
        final CachedFile file = new CachedFile("file", 1);
        final Page page = file.pages[0];
        int steals;

        StealWorld() {
            Filemap.lockPage(page);
        }

        void holder() {
            Kernel.event("holder: unlock_page(%s)", page);
            Filemap.unlockPage(page);
        }

        void locker() {
            Filemap.lockPage(page);
            Kernel.event("locker owns %s", page);
            Filemap.unlockPage(page);
        }

        /**
         * Two attempts by {@code trylock_page()} alone (the fast path of {@code lock_page()},
         * never queueing): each one that wins takes the lock from under a woken waiter and
         * releases it at once.
         */
        void stealer() {
            for (int i = 0; i < 2; i++) {
                if (Filemap.trylockPage(page)) {
                    steals++;
                    Kernel.event("stealer owns %s", page);
                    Filemap.unlockPage(page);
                }
            }
        }
    }

    /**
     * {@code page-lock-stealer}: a lock stealer against a queued {@code lock_page()} waiter, with
     * {@code PAGE_LOCK_UNFAIRNESS=1}: a waiter whose first wake-up is stolen queues again as a
     * hand-off waiter (kind (c) of {@code wake_page_function()}), and the next unlock gives it the
     * lock directly, so the stealer can no longer take it (5ef64cc8987a).
     */
    static Scenario<StealWorld> stealer() {
        return Scenario.<StealWorld>named("page-lock-stealer",
                "a holder, a lock_page waiter and a trylock_page stealer; a stolen wake-up turns into a fair hand-off")
                .set(MmOptions.PAGE_LOCK_UNFAIRNESS, 1)
                .setup(StealWorld::new)
                .task("holder", StealWorld::holder)
                .task("locker", StealWorld::locker)
                .task("stealer", StealWorld::stealer)
                .atEnd(w -> w.file.check())
                .outcome(w -> "steals=" + w.steals)
                .build();
    }

    // ------------------------------------------------------------------ page-lock-killable-writeback

    /**
     * A page locked and under writeback. The holder waits for the writeback to end (as truncation
     * does: a non-killable wait) and then unlocks; a killable locker waits for the lock meanwhile,
     * on the same wait queue, and gets SIGKILL at any point; the writeback ends in interrupt
     * context. (With a plain locker as a fifth task, bound 2 exceeded the 2,000,000 budget of the time.)
     */
    static final class KillableWritebackWorld {
        final CachedFile file = new CachedFile("file", 1);
        final Page page = file.pages[0];
        final List<String> results = new ArrayList<>();
        Task killable;

        KillableWritebackWorld() {
            Filemap.lockPage(page);
            Filemap.setPageWriteback(page);
        }

        void holder() {
            Filemap.waitOnPageWriteback(page);
            Kernel.event("holder: writeback done, unlock_page(%s)", page);
            Filemap.unlockPage(page);
        }

        void killableLocker() {
            int ret = Filemap.lockPageKillable(page);
            Kernel.event("lock_page_killable = %s", Errno.name(ret));
            if (ret == 0) {
                Filemap.unlockPage(page);
            }
            results.add(Errno.name(ret));
        }
    }

    /**
     * {@code page-lock-killable-writeback}: a killable locker and a non-killable writeback waiter
     * (the lock's holder) on one page and one wait queue, a fatal signal delivered at any point,
     * and writeback ending while both wait. Runs with the kernel's default
     * {@code PAGE_LOCK_UNFAIRNESS} (5): with a single locker, the killed waiter has no exclusive
     * wake-up to use up that another locker needed ({@code finding-killed-locker-strands-waiter}
     * needs two lockers).
     */
    static Scenario<KillableWritebackWorld> killableWriteback() {
        return Scenario.<KillableWritebackWorld>named("page-lock-killable-writeback",
                "the holder waits for writeback, a lock_page_killable locker gets SIGKILL at any point, writeback ends")
                .setup(KillableWritebackWorld::new)
                .task("holder", KillableWritebackWorld::holder)
                .tasks((w, s) -> {
                    w.killable = s.task("killable", w::killableLocker);
                    s.task("killer", () -> Sched.sendSigkill(w.killable));
                    s.irq("end_io", () -> Filemap.endPageWriteback(w.page));
                })
                .atEnd(w -> w.file.check())
                .outcome(w -> Texts.join(",", w.results))
                .build();
    }

    // ------------------------------------------------------------------ page-lock-crowd

    /** Lockers in the crowd: two on the contended page, one on each page of its own. */
    static final int CROWD_LOCKERS = 8;

    /**
     * {@code lockers} lockers over {@code lockers - 1} pages hashed into a two-head wait table:
     * locker0 and locker1 contend for P0; every further locker locks a page of its own.
     */
    static final class CrowdWorld {
        final CachedFile file;
        final int[] owners;

        CrowdWorld(int lockers) {
            file = new CachedFile("file", lockers - 1);
            owners = new int[lockers - 1];
        }

        void locker(int i) {
            int p = i < 2 ? 0 : i - 1;
            Page page = file.pages[p];
            Filemap.lockPage(page);
            owners[p]++;
            Filemap.unlockPage(page);
        }
    }

    /**
     * {@code page-lock-crowd}: eight lockers, two of them contending for one page, the other six
     * each on a page of its own, in a two-head wait table (so the pages share wait queues). Six
     * lockers interact with nobody: their steps commute with everyone's, and partial-order
     * reduction does not reorder them, where plain DFS explores every order in which the eight
     * finish (8! = 40,320 at preemption bound 0 alone).
     */
    static Scenario<?> crowd() {
        return crowdOf(CROWD_LOCKERS, "page-lock-crowd",
                "8 lockers on 7 pages in a 2-head wait table: 2 contend for P0, 6 lock pages of their own");
    }

    /**
     * The crowd with {@code lockers} lockers (at least 2), not registered: tests compare the
     * registered crowd against the contending pair alone.
     */
    public static Scenario<?> crowdOf(int lockers, String name, String description) {
        Scenario.Builder<CrowdWorld> b = Scenario.<CrowdWorld>named(name, description)
                .set(MmOptions.PAGE_WAIT_TABLE_SIZE, 2)
                .setup(() -> new CrowdWorld(lockers));
        for (int i = 0; i < lockers; i++) {
            final int idx = i;
            b.task("locker" + i, w -> w.locker(idx));
        }
        return b.atEnd(w -> {
            w.file.check();
            for (int p = 0; p < w.owners.length; p++) {
                int expected = p == 0 ? 2 : 1;
                Kernel.BUG_ON(w.owners[p] != expected, "P" + p + " was owned " + w.owners[p] + " times, not " + expected);
            }
        }).build();
    }
}
