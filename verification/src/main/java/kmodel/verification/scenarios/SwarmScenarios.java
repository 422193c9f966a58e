package kmodel.verification.scenarios;

import java.util.ArrayList;
import java.util.List;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.KernelOptions;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;
import kmodel.mm.AddressSpace;
import kmodel.mm.Filemap;
import kmodel.mm.Kiocb;
import kmodel.mm.MmOptions;
import kmodel.mm.Page;
import kmodel.mm.PageCache;
import kmodel.sim.world.AsyncRetry;
import kmodel.sim.world.ReadWorld;
import kmodel.sim.world.Texts;
import kmodel.verification.world.Scenario;

/**
 * Swarm scenarios: a {@link Scenario} built from a {@link SwarmRecipe}, deterministic given the
 * recipe. Its name is {@code swarm:<recipe text>}, so a replay token of a swarm counterexample
 * names its recipe and {@code ScenarioRegistry} rebuilds the scenario from it.
 *
 * <p>The world is the buffered-read world ({@link ReadWorld}: a block device, two request tags,
 * the recipe's read-ahead) with the recipe's cached, under-writeback and failing pages; task
 * {@code t<i>} runs its operations in order, the {@code irq} task ends the writebacks. Settings:
 * {@code PAGE_WAIT_TABLE_SIZE} and {@code WAITQUEUE_WALK_BREAK_CNT} from the recipe, and, when the
 * recipe sends SIGKILL, {@code PAGE_LOCK_UNFAIRNESS=0} as in {@code page-lock-killable} (with the
 * kernel's default the model's finding {@code finding-killed-locker-strands-waiter} applies;
 * {@code --set PAGE_LOCK_UNFAIRNESS=5} lays the default back over it). At the end: the read
 * world's checks (references, no page left locked, request tags free, cache equal to the device,
 * wait-table invariants) plus the runtime's own.
 *
 * <p>Coarse modelling: page operations find their page with {@code find_get_page()} and do
 * nothing when it is not cached (never created, or truncated); truncation is one page of
 * {@code truncate_inode_pages_range()} reduced to lock, wait for writeback, delete, unlock, put.
 */
public final class SwarmScenarios {
    /** Prefix of a swarm scenario's name. */
    public static final String PREFIX = "swarm:";

    private SwarmScenarios() {
    }

    /** The scenario of {@code recipe}, named {@code swarm:<recipe>}. */
    public static Scenario<SwarmWorld> scenario(SwarmRecipe recipe) {
        return scenario(PREFIX + recipe, "swarm recipe", recipe);
    }

    /** The scenario of {@code recipe} registered under a name of its own (a recipe kept as a standard scenario). */
    public static Scenario<SwarmWorld> scenario(String name, String description, SwarmRecipe recipe) {
        Scenario.Builder<SwarmWorld> b = Scenario.<SwarmWorld>named(name, description)
                .set(MmOptions.PAGE_WAIT_TABLE_SIZE, recipe.table())
                .set(KernelOptions.WAITQUEUE_WALK_BREAK_CNT, recipe.walk());
        if (recipe.hasKill()) {
            b.set(MmOptions.PAGE_LOCK_UNFAIRNESS, 0);
        }
        if (recipe.v57()) {
            b.set(MmOptions.PAGE_WAIT_V57, 1);
        }
        return b.setup(() -> new SwarmWorld(recipe))
                .tasks((w, s) -> {
                    for (int i = 0; i < w.tasks.length; i++) {
                        final int t = i;
                        w.tasks[i] = s.task("t" + i, () -> w.run(t));
                    }
                    if (!recipe.irq().isEmpty()) {
                        s.irq("irq", w::irq);
                    }
                })
                .atEnd(SwarmWorld::check)
                .outcome(SwarmWorld::outcome)
                .build();
    }

    /**
     * The scenario named {@code name} ({@code swarm:<recipe>}), or null when the name has no
     * {@code swarm:} prefix; IllegalArgumentException with a one-line message for a bad recipe.
     * The recipe may be of any swarm ({@link SwarmWorlds}).
     */
    public static Scenario<?> fromName(String name) {
        if (!name.startsWith(PREFIX)) {
            return null;
        }
        return SwarmWorlds.scenario(name.substring(PREFIX.length()));
    }

    /** One execution's world: the read world plus the recipe's page states and each task's locks. */
    public static final class SwarmWorld {
        private final SwarmRecipe recipe;
        private final ReadWorld io;
        private final AddressSpace mapping;
        /** The pages under writeback at the start, by index (the irq task ends them). */
        private final Page[] wbPages;
        /** Filled by the spawner before any task runs; read by {@code kill}. */
        final Task[] tasks;
        /** Per task: what each operation returned, in program order (the outcome). */
        private final List<List<String>> results = new ArrayList<>();

        SwarmWorld(SwarmRecipe recipe) {
            this.recipe = recipe;
            this.io = new ReadWorld(recipe.pages(), 2, recipe.ra());
            this.mapping = io.bdev.mapping();
            for (int p : recipe.cached()) {
                io.cached(p);
            }
            for (int p : recipe.failing()) {
                io.failing(p);
            }
            wbPages = new Page[recipe.pages()];
            for (int p : recipe.writeback()) {
                wbPages[p] = mapping.peekPage(p);
                Filemap.setPageWriteback(wbPages[p]);
            }
            tasks = new Task[recipe.tasks().size()];
            for (int i = 0; i < tasks.length; i++) {
                results.add(new ArrayList<>());
            }
            /*
             * javac compiles step()'s switch on the operation's kind to a table filled by a
             * synthetic class's static initializer, which runs once per JVM, in whichever
             * execution first switches (DESIGN.md: keep static initializers out of tasks). Here,
             * in the set-up, it runs before any task (the footprint audit saw it as a task's write).
             */
            switchTableBuilt(SwarmOp.Kind.LOCK);
        }

        private static boolean switchTableBuilt(SwarmOp.Kind k) {
            switch (k) {
                case LOCK:
                    return true;
                default:
                    return false;
            }
        }

        /** Task {@code t<i>}: its operations in order; every page lock it took is released by its own unlock. */
        void run(int i) {
            Page[] held = new Page[recipe.pages()];
            List<String> out = results.get(i);
            for (SwarmOp op : recipe.tasks().get(i)) {
                out.add(op + "=" + step(i, op, held));
            }
        }

        /** Runs one operation; returns what it returned, for the outcome. */
        private String step(int i, SwarmOp op, Page[] held) {
            int idx = op.arg();
            long pos = (long) idx << Page.PAGE_SHIFT;
            Page p;
            switch (op.kind()) {
                case LOCK:
                    p = PageCache.findGetPage(mapping, idx);
                    if (p == null) {
                        return "uncached";
                    }
                    Filemap.lockPage(p);
                    held[idx] = p;
                    return "0";
                case TRYLOCK:
                    p = PageCache.findGetPage(mapping, idx);
                    if (p == null) {
                        return "uncached";
                    }
                    if (Filemap.trylockPage(p)) {
                        held[idx] = p;
                        return "1";
                    }
                    Page.putPage(p);
                    return "0";
                case KILLABLE: {
                    p = PageCache.findGetPage(mapping, idx);
                    if (p == null) {
                        return "uncached";
                    }
                    int ret = Filemap.lockPageKillable(p);
                    Kernel.event("lock_page_killable(%s) = %s", p, Errno.name(ret));
                    if (ret == 0) {
                        held[idx] = p;
                    } else {
                        Page.putPage(p);
                    }
                    return Errno.name(ret);
                }
                case ALOCK:
                    p = PageCache.findGetPage(mapping, idx);
                    if (p == null) {
                        return "uncached";
                    }
                    held[idx] = p;
                    return asyncWait(i, p, true);
                case UNLOCK:
                    if (held[idx] == null) {
                        return "not-held";
                    }
                    Filemap.unlockPage(held[idx]);
                    Page.putPage(held[idx]);
                    held[idx] = null;
                    return "0";
                case WAITLOCKED:
                    p = PageCache.findGetPage(mapping, idx);
                    if (p == null) {
                        return "uncached";
                    }
                    Filemap.waitOnPageLocked(p);
                    Page.putPage(p);
                    return "0";
                case AWAIT: {
                    p = PageCache.findGetPage(mapping, idx);
                    if (p == null) {
                        return "uncached";
                    }
                    String r = asyncWait(i, p, false);
                    Page.putPage(p);
                    return r;
                }
                case WAITWB:
                    p = PageCache.findGetPage(mapping, idx);
                    if (p == null) {
                        return "uncached";
                    }
                    Filemap.waitOnPageWriteback(p);
                    Page.putPage(p);
                    return "0";
                case READ:
                    return Errno.name(io.read(pos, Page.PAGE_SIZE, 0));
                case READQ:
                    return Errno.name(io.readAsync("t" + i, pos, Page.PAGE_SIZE));
                case NOWAIT:
                    return Errno.name(io.read(pos, Page.PAGE_SIZE, Kiocb.IOCB_NOWAIT));
                case TRUNC:
                    return truncate(idx);
                case KILL:
                    Sched.sendSigkill(tasks[idx]);
                    return "0";
                default:
                    Kernel.BUG_ON(true, "swarm: " + op + " in task t" + i);
                    return "";
            }
        }

        /**
         * An io_uring-style page wait: {@code lock_page_async()} ({@code lock}) or
         * {@code wait_on_page_locked_async()}; on {@code -EIOCBQUEUED} wait for the page-unlock
         * callback's task_work and try again, as {@code async-page-lock}'s locker does. Returns the
         * retries the callback asked for.
         */
        private String asyncWait(int i, Page p, boolean lock) {
            AsyncRetry retry = new AsyncRetry("t" + i + ".wpq");
            for (;;) {
                retry.waiter.initEntry();
                int ret = lock ? Filemap.lockPageAsync(p, retry.waiter.wpq)
                        : Filemap.waitOnPageLockedAsync(p, retry.waiter.wpq);
                if (ret == 0) {
                    break;
                }
                Kernel.BUG_ON(ret != -Errno.EIOCBQUEUED, (lock ? "lock_page_async" : "wait_on_page_locked_async")
                        + " returned " + Errno.name(ret));
                retry.awaitCallback();
            }
            return retry.retries() + "cb";
        }

        /**
         * mm/truncate.c: {@code truncate_inode_pages_range()} for one page, reduced: lock it (a
         * page truncated meanwhile is skipped by {@code find_lock_page()}), wait for writeback,
         * {@code delete_from_page_cache()}, unlock, put.
         */
        private String truncate(int idx) {
            Page p = PageCache.findLockPage(mapping, idx);
            if (p == null) {
                return "uncached";
            }
            Filemap.waitOnPageWriteback(p);
            PageCache.deleteFromPageCache(p);
            Filemap.unlockPage(p);
            Page.putPage(p);
            return "0";
        }

        /** The irq task: {@code end_page_writeback()} of each page in the recipe's order. */
        void irq() {
            for (SwarmOp op : recipe.irq()) {
                Filemap.endPageWriteback(wbPages[op.arg()]);
            }
        }

        void check() {
            io.check();
        }

        String outcome() {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < results.size(); i++) {
                if (i > 0) {
                    sb.append(' ');
                }
                sb.append('t').append(i).append(':').append(Texts.join(",", results.get(i)));
            }
            return sb.toString();
        }
    }
}
