package kmodel.mm;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import kmodel.kernel.Errno;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.FreeRunningRuntime;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;
import net.jqwik.api.statistics.Statistics;

/**
 * A stateful check of the page cache and page lock API (add_to_page_cache_lru, find_get_page,
 * pagecache_get_page, trylock/lock/unlock_page, delete_from_page_cache, get_page/put_page) against
 * a simple reference model, single-threaded under the free-running runtime, with
 * {@link PageCache#checkInvariants} and the model comparison after every action.
 */
class PageCacheProperties {
    static final int INDEXES = 4;

    /** What the reference model knows about one live page. */
    static final class ModelPage {
        final Page page;
        boolean cached;
        boolean locked;
        int handles;

        ModelPage(Page page, boolean cached, boolean locked, int handles) {
            this.page = page;
            this.cached = cached;
            this.locked = locked;
            this.handles = handles;
        }

        int expectedRefs() {
            return handles + (cached ? 1 : 0);
        }
    }

    /** The system under test and its reference model. */
    static final class Machine {
        final Inode inode = new Inode("inode", INDEXES * Page.PAGE_SIZE, new FakeAops(FakeAops.Mode.READAHEAD, false),
                Page.PAGE_SHIFT);
        final AddressSpace mapping = inode.iMapping;
        /** The references this task holds, one entry per reference. */
        final List<Page> handles = new ArrayList<>();
        final List<ModelPage> live = new ArrayList<>();
        final TreeSet<Integer> seenPfns = new TreeSet<>();

        ModelPage model(Page p) {
            for (ModelPage m : live) {
                if (m.page == p) {
                    return m;
                }
            }
            return null;
        }

        ModelPage cachedAt(long index) {
            for (ModelPage m : live) {
                if (m.cached && m.page.index == index) {
                    return m;
                }
            }
            return null;
        }

        void noteAllocation(Page p) {
            Statistics.label("allocation").collect(seenPfns.add(p.pfn) ? "fresh struct page" : "reused struct page");
        }

        void expect(boolean cond, String what) {
            if (!cond) {
                Kernel.fail(ViolationKind.BUG_ON, "model disagrees: " + what);
            }
        }

        /** The invariants, after every action. */
        void check() {
            PageCache.checkInvariants(mapping);
            long n = 0;
            for (long i = 0; i < INDEXES; i++) {
                ModelPage m = cachedAt(i);
                expect(mapping.peekPage(i) == (m != null ? m.page : null), "page cached at index " + i);
                if (m != null) {
                    n++;
                }
            }
            expect(mapping.peekNrpages() == n, "nrpages " + mapping.peekNrpages() + " vs " + n);
            for (ModelPage m : live) {
                expect(!m.page.isFreed(), m.page.name() + " freed while referenced");
                expect(m.page.refs() == m.expectedRefs(), m.page.describe() + " expected refs " + m.expectedRefs());
                boolean locked = (m.page.flags.peek() & (1L << PageFlags.PG_locked)) != 0;
                expect(locked == m.locked, m.page.describe() + " locked=" + m.locked);
                expect(m.handles == count(m.page), m.page.name() + " handles");
            }
            mapping.allocator.waitTable().checkInvariants();
        }

        int count(Page p) {
            int c = 0;
            for (Page h : handles) {
                if (h == p) {
                    c++;
                }
            }
            return c;
        }

        /** Drops one of our references; the model frees the page when none is left. */
        void put(int handle) {
            Page p = handles.remove(handle);
            ModelPage m = model(p);
            Page.putPage(p);
            m.handles--;
            if (m.expectedRefs() == 0) {
                expect(p.isFreed(), p.name() + " should be freed");
                live.remove(m);
                Statistics.label("put_page").collect("freed");
            } else {
                Statistics.label("put_page").collect("kept");
            }
        }
    }

    @Property(tries = 300, seed = "20201213")
    void thePageCacheAndPageLockAgreeWithAReferenceModel(@ForAll("chains") ActionChain<Machine> chain) {
        FreeRunningRuntime rt = FreeRunningRuntime.install(Kconfig.defaults());
        try {
            chain.withInvariant("model", Machine::check).run();
        } finally {
            rt.uninstall();
        }
    }

    @Provide
    Arbitrary<ActionChain<Machine>> chains() {
        return ActionChain.<Machine>startWith(Machine::new)
                .withAction(3, new AddToPageCache())
                .withAction(2, new PagecacheGetPage())
                .withAction(3, new FindGetPage())
                .withAction(2, new Trylock())
                .withAction(2, new Lock())
                .withAction(3, new Unlock())
                .withAction(1, new Delete())
                .withAction(1, new Get())
                .withAction(3, new Put())
                .withMaxTransformations(40);
    }

    static Arbitrary<Long> indexes() {
        return Arbitraries.longs().between(0, INDEXES - 1);
    }

    /** Indexes of our handles whose page satisfies {@code p}. */
    static Arbitrary<Integer> handleWhere(Machine m, java.util.function.Predicate<ModelPage> p) {
        List<Integer> ok = new ArrayList<>();
        for (int i = 0; i < m.handles.size(); i++) {
            if (p.test(m.model(m.handles.get(i)))) {
                ok.add(i);
            }
        }
        return Arbitraries.of(ok);
    }

    static boolean anyHandle(Machine m, java.util.function.Predicate<ModelPage> p) {
        for (Page h : m.handles) {
            if (p.test(m.model(h))) {
                return true;
            }
        }
        return false;
    }

    /** add_to_page_cache_lru() of a fresh page: inserted locked, or -EEXIST. */
    static final class AddToPageCache implements Action.Independent<Machine> {
        @Override
        public Arbitrary<Transformer<Machine>> transformer() {
            return indexes().map(index -> Transformer.mutate("add_to_page_cache_lru(" + index + ")", m -> add(m, index)));
        }

        static void add(Machine m, long index) {
            Page p = PageCache.pageCacheAlloc(m.mapping);
            m.noteAllocation(p);
            int err = PageCache.addToPageCacheLru(p, m.mapping, index);
            if (m.cachedAt(index) != null) {
                m.expect(err == -Errno.EEXIST, "add over a cached page returned " + Errno.name(err));
                m.expect(!PageFlags.PageLocked(p), "a page that lost the race is unlocked again");
                Page.putPage(p);
                m.expect(p.isFreed(), "the losing copy is freed");
                Statistics.label("add_to_page_cache_lru").collect("-EEXIST");
            } else {
                m.expect(err == 0, "add returned " + Errno.name(err));
                m.handles.add(p);
                m.live.add(new ModelPage(p, true, true, 1));
                Statistics.label("add_to_page_cache_lru").collect("inserted");
            }
        }
    }

    /** pagecache_get_page(FGP_CREAT [| FGP_LOCK]); FGP_LOCK only where it cannot sleep. */
    static final class PagecacheGetPage implements Action.Independent<Machine> {
        @Override
        public Arbitrary<Transformer<Machine>> transformer() {
            return indexes().flatMap(index -> Arbitraries.of(true, false).map(lock -> Transformer.mutate(
                    "pagecache_get_page(" + index + (lock ? ", FGP_CREAT|FGP_LOCK)" : ", FGP_CREAT)"), m -> {
                        ModelPage before = m.cachedAt(index);
                        if (lock && before != null && before.locked) {
                            return; /* would sleep on our own lock */
                        }
                        int fgp = PageCache.FGP_CREAT | (lock ? PageCache.FGP_LOCK : 0);
                        Page p = PageCache.pagecacheGetPage(m.mapping, index, fgp);
                        m.expect(p != null, "FGP_CREAT returned null");
                        m.handles.add(p);
                        if (before != null) {
                            m.expect(p == before.page, "returned another page than the cached one");
                            before.handles++;
                            before.locked |= lock;
                        } else {
                            m.noteAllocation(p);
                            m.live.add(new ModelPage(p, true, lock, 1));
                        }
                    })));
        }
    }

    /** find_get_page(): the cached page with a new reference, or null. */
    static final class FindGetPage implements Action.Independent<Machine> {
        @Override
        public Arbitrary<Transformer<Machine>> transformer() {
            return indexes().map(index -> Transformer.mutate("find_get_page(" + index + ")", m -> {
                Page p = PageCache.findGetPage(m.mapping, index);
                ModelPage c = m.cachedAt(index);
                m.expect((p == null) == (c == null), "find_get_page(" + index + ") presence");
                if (p != null) {
                    m.expect(p == c.page, "find_get_page returned another page");
                    m.handles.add(p);
                    c.handles++;
                }
                Statistics.label("find_get_page").collect(p != null ? "hit" : "miss");
            }));
        }
    }

    /** trylock_page(): succeeds exactly when the page is unlocked. */
    static final class Trylock implements Action.Dependent<Machine> {
        @Override
        public boolean precondition(Machine m) {
            return !m.handles.isEmpty();
        }

        @Override
        public Arbitrary<Transformer<Machine>> transformer(Machine m) {
            return handleWhere(m, x -> true).map(h -> Transformer.mutate("trylock_page(#" + h + ")", s -> {
                ModelPage mp = s.model(s.handles.get(h));
                boolean ok = Filemap.trylockPage(mp.page);
                s.expect(ok == !mp.locked, "trylock_page on a page locked=" + mp.locked + " returned " + ok);
                mp.locked = true;
                Statistics.label("trylock_page").collect(ok ? "taken" : "contended");
            }));
        }
    }

    /** lock_page() of an unlocked page (a locked one would sleep forever: this is one task). */
    static final class Lock implements Action.Dependent<Machine> {
        @Override
        public boolean precondition(Machine m) {
            return anyHandle(m, x -> !x.locked);
        }

        @Override
        public Arbitrary<Transformer<Machine>> transformer(Machine m) {
            return handleWhere(m, x -> !x.locked).map(h -> Transformer.mutate("lock_page(#" + h + ")", s -> {
                ModelPage mp = s.model(s.handles.get(h));
                Filemap.lockPage(mp.page);
                mp.locked = true;
            }));
        }
    }

    /** unlock_page() of a page we locked. */
    static final class Unlock implements Action.Dependent<Machine> {
        @Override
        public boolean precondition(Machine m) {
            return anyHandle(m, x -> x.locked);
        }

        @Override
        public Arbitrary<Transformer<Machine>> transformer(Machine m) {
            return handleWhere(m, x -> x.locked).map(h -> Transformer.mutate("unlock_page(#" + h + ")", s -> {
                ModelPage mp = s.model(s.handles.get(h));
                Filemap.unlockPage(mp.page);
                mp.locked = false;
            }));
        }
    }

    /** delete_from_page_cache() of a locked cached page: drops the cache's reference. */
    static final class Delete implements Action.Dependent<Machine> {
        @Override
        public boolean precondition(Machine m) {
            return anyHandle(m, x -> x.locked && x.cached);
        }

        @Override
        public Arbitrary<Transformer<Machine>> transformer(Machine m) {
            return handleWhere(m, x -> x.locked && x.cached).map(h -> Transformer.mutate("delete_from_page_cache(#" + h + ")",
                    s -> {
                        ModelPage mp = s.model(s.handles.get(h));
                        PageCache.deleteFromPageCache(mp.page);
                        mp.cached = false;
                        s.expect(mp.page.mapping == null, "page->mapping cleared");
                    }));
        }
    }

    /** get_page(): one more reference. */
    static final class Get implements Action.Dependent<Machine> {
        @Override
        public boolean precondition(Machine m) {
            return !m.handles.isEmpty();
        }

        @Override
        public Arbitrary<Transformer<Machine>> transformer(Machine m) {
            return handleWhere(m, x -> true).map(h -> Transformer.mutate("get_page(#" + h + ")", s -> {
                Page p = s.handles.get(h);
                Page.getPage(p);
                s.handles.add(p);
                s.model(p).handles++;
            }));
        }
    }

    /** put_page(): one reference less; freeing a page still locked is not allowed. */
    static final class Put implements Action.Dependent<Machine> {
        static boolean allowed(ModelPage x) {
            return x.expectedRefs() > 1 || !x.locked;
        }

        @Override
        public boolean precondition(Machine m) {
            return anyHandle(m, Put::allowed);
        }

        @Override
        public Arbitrary<Transformer<Machine>> transformer(Machine m) {
            return handleWhere(m, Put::allowed).map(h -> Transformer.mutate("put_page(#" + h + ")", s -> s.put(h)));
        }
    }

    /** The model comparison can fail: the catalog's EEXIST reference leak is caught at once. */
    @net.jqwik.api.Example
    void theReferenceModelCatchesTheEexistReferenceLeak() {
        FreeRunningRuntime rt = FreeRunningRuntime.install(Kconfig.defaults().withBug(FilemapBugs.ADD_TO_PAGE_CACHE_EEXIST_REF_LEAK));
        try {
            Machine m = new Machine();
            AddToPageCache.add(m, 0);
            kmodel.kernel.Violation v = org.junit.jupiter.api.Assertions.assertThrows(kmodel.kernel.Violation.class,
                    () -> AddToPageCache.add(m, 0));
            org.junit.jupiter.api.Assertions.assertTrue(v.getMessage().contains("the losing copy is freed"), v::getMessage);
        } finally {
            rt.uninstall();
        }
    }
}
