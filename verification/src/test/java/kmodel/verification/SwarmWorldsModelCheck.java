package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import kmodel.verification.catalog.BugCatalog;
import kmodel.verification.catalog.CatalogBug;
import kmodel.verification.scenarios.SwarmScenarios;
import kmodel.verification.scenarios.SwarmWorlds;
import org.junit.jupiter.api.Test;

/**
 * Each subsystem swarm finds catalog bugs of its subsystem from random recipes without being
 * told which: recipes {@code 0..N-1} of the swarm's generator (seed 1, the recipe seeds
 * {@link SwarmCheck} uses) are checked in order with the bug switched in (exhaustive, bounded
 * DPOR at preemption bound {@code PREEMPTIONS}, {@code BUDGET} executions per recipe) until one
 * fails; it must fail with the kind the catalog names, within {@code N} recipes; the same recipe
 * without the bug must not fail within the same budget (so the bug, not the recipe, is found);
 * and the violation's replay token names the recipe ({@code swarm:<recipe>}).
 *
 * <p>Strength: sampled recipes (the first ones of seed 1), bounded search; a pass says these
 * recipes expose these bugs at this bound, not that the swarm finds every bug. A bug's implied
 * settings (the form it lives in, {@link CatalogBug#impliedSettings}) are laid over the recipes,
 * as {@code ./kmodel swarm --bug} does. Times (load average 11-15, 2 cores): write 12 s, btrfs
 * 2.4 s, uring 2.5 s, the shrinker 3.6 s; so no {@code full} tag.
 */
class SwarmWorldsModelCheck {
    private static final long SEED = 1;
    private static final int PREEMPTIONS = 2;

    /** What one hunt found. */
    record Found(int index, String recipe, CheckResult result) {
    }

    /**
     * Checks recipes {@code 0..maxRecipes-1} of swarm {@code world} with {@code bug} switched in;
     * returns the first failing one (asserting the catalog's kind, and that the recipe passes
     * without the bug), or fails the test.
     */
    static Found hunt(String world, String bug, int maxRecipes, int preemptions, long budget) {
        CatalogBug cb = BugCatalog.find(bug);
        assertNotNull(cb, bug);
        Kconfig with = KconfigTable.build(List.of(), List.of(bug));
        SwarmCheck swarm = SwarmCheck.of(SEED, maxRecipes).worlds(List.of(world)).preemptions(preemptions)
                .executions(budget).config(with);
        for (int i = 0; i < maxRecipes; i++) {
            String text = SwarmCheck.recipeText(SEED, i, List.of(world));
            assertEquals(world, SwarmWorlds.worldOf(text));
            CheckResult r = swarm.check(text);
            if (r.violation() == null) {
                continue;
            }
            assertEquals(cb.kind(), r.kind(), () -> bug + " on recipe #" + " " + text + ": " + r.violation().summary());
            assertEquals(SwarmScenarios.PREFIX + text, r.scenario());
            ModelCheck.Replay replay = ModelCheck.replay(r.token(), ScenarioRegistry.everything(), false);
            assertEquals(SwarmScenarios.PREFIX + text, replay.token().scenario(), "the token names the recipe");
            assertEquals(cb.kind(), replay.violation().kind(), "the token replays the violation");
            CheckResult without = ModelCheck.exhaustive(SwarmWorlds.scenario(text)).preemptions(preemptions)
                    .executions(budget).config(cb.impliedSettings(Kconfig.defaults())).run();
            assertNull(without.violation(), () -> "recipe #" + " " + text + " fails without " + bug + ": "
                    + without.violation().summary());
            return new Found(i, text, r);
        }
        throw new AssertionError(world + " swarm did not find " + bug + " in " + maxRecipes + " recipes (bound "
                + preemptions + ", " + budget + " executions each)");
    }

    /**
     * The shrinker: a failing write recipe shrinks to a strictly smaller well-formed recipe that
     * fails with the same kind; with a check that never fails (a deliberate break) nothing shrinks.
     */
    @Test
    void aFailingRecipeShrinksToASmallerOneFailingTheSameWay() {
        Found f = hunt("write", "end-page-writeback-no-wake", 2, PREEMPTIONS, 1000);
        SwarmCheck swarm = SwarmCheck.of(SEED, 1).preemptions(PREEMPTIONS).executions(1000)
                .config(KconfigTable.build(List.of(), List.of("end-page-writeback-no-wake")));
        SwarmShrink.Result s = SwarmShrink.shrink(f.recipe(), f.result(), swarm::check, 200);
        assertTrue(s.recipe.length() < f.recipe().length(), s.recipe);
        assertEquals(f.result().kind(), s.result.kind());
        assertEquals(s.recipe, SwarmWorlds.canonical(s.recipe));
        assertEquals(SwarmScenarios.PREFIX + s.recipe, s.result.scenario());
        for (String c : SwarmShrink.candidates(s.recipe)) {
            try {
                String canon = SwarmWorlds.canonical(c);
                assertNull(swarm.check(canon).violation() != null && swarm.check(canon).kind() == s.result.kind()
                        ? canon : null, "a smaller candidate still fails: not a local minimum");
            } catch (IllegalArgumentException notWellFormed) {
                /* not a recipe */
            }
        }
        SwarmShrink.Result none = SwarmShrink.shrink(f.recipe(), f.result(),
                text -> ModelCheck.exhaustive(SwarmWorlds.scenario(text)).preemptions(0).executions(1).run(), 50);
        assertEquals(SwarmWorlds.canonical(f.recipe()), none.recipe, "a check that never fails shrinks nothing");
    }

    /**
     * io_uring reads on a btrfs file go through v5.10's {@code btrfs_file_read_iter()}: with the
     * series on, the read of an uncached page is armed on the page-unlock callback
     * ({@code IOCB_WAITQ}, btrfs' {@code FMODE_BUF_RASYNC}) and retried from task_work, not
     * punted; with it off ({@code series=0}: no {@code FMODE_BUF_RASYNC}) it is punted to io-wq.
     * Each run's outcome counts {@code btrfs_file_read_iter()} calls; a run that bypassed it
     * (the deliberate break: the block device's file, whose {@code ->read_iter} is not btrfs')
     * counts none.
     */
    @Test
    void uringReadsOnBtrfsFilesGoThroughBtrfsFileReadIter() {
        String on = "uring file=btrfs dev=nowait pages=1 tags=1 ra=0 cached=- path=510 plug=0 series=1 t0=read(0),reap(1),exit";
        CheckResult r = ModelCheck.exhaustive(SwarmWorlds.scenario(on)).preemptions(0).executions(50).run();
        assertNull(r.violation(), () -> r.violation().summary());
        for (String o : r.outcomes()) {
            assertTrue(o.contains(" 1=4096 | punts=0 armed=1 btrfs_file_read_iter="), o);
            assertTrue(!o.endsWith("btrfs_file_read_iter=0"), o);
        }
        String off = on.replace("series=1", "series=0");
        CheckResult p = ModelCheck.exhaustive(SwarmWorlds.scenario(off)).preemptions(0).executions(50).run();
        assertNull(p.violation(), () -> p.violation().summary());
        for (String o : p.outcomes()) {
            assertTrue(o.contains(" 1=4096 | punts=1 armed=0 btrfs_file_read_iter="), o);
        }
        String bdev = on.replace("file=btrfs", "file=bdev");
        CheckResult b = ModelCheck.exhaustive(SwarmWorlds.scenario(bdev)).preemptions(0).executions(50).run();
        for (String o : b.outcomes()) {
            assertTrue(!o.contains("btrfs_file_read_iter="), "the break is seen: " + o);
        }
    }

    /**
     * The write side: three catalog bugs of mm/filemap.c's and mm/truncate.c's write paths.
     * {@code end-writeback-no-page-ref} was the fourth, found as a {@code use-after-free} of the
     * page while pages were freed objects; a struct page is never freed now, and the bug's one
     * effect, a spurious wake-up of the reused page's writeback waiter that v5.10.0's single
     * {@code if} turns into {@code BUG_ON(PageWriteback)}, needs a page reused and under
     * writeback again, which no write recipe builds ({@code writeback-reuse-rewrite} does).
     */
    @Test
    void theWriteSwarmFindsWriteSideBugs() {
        hunt("write", "end-page-writeback-no-wake", 24, PREEMPTIONS, 1000);
        hunt("write", "truncate-pagecache-before-isize", 24, PREEMPTIONS, 1000);
        hunt("write", "wait-on-page-writeback-once", 24, PREEMPTIONS, 1000);
    }

    /** btrfs: the pagepool loops' two mutations and the bio allocation failure's error path. */
    @Test
    void theBtrfsSwarmFindsBtrfsBugs() {
        hunt("btrfs", "btrfs-pagepool-double-release", 24, PREEMPTIONS, 600);
        hunt("btrfs", "btrfs-pagepool-leak", 24, PREEMPTIONS, 600);
        hunt("btrfs", "btrfs-readpage-error-keeps-lock", 24, PREEMPTIONS, 600);
    }

    /**
     * io_uring: the two io_async_buf_func()/io_req_task_cancel() reference mutations, and the
     * IOCB_NOWAIT read io_read() issues sleeping on a page lock; on block-device and btrfs files.
     */
    @Test
    void theUringSwarmFindsUringBugs() {
        Found f = hunt("uring", "uring-no-req-ref", 12, 1, 300);
        assertTrue(f.recipe().startsWith("uring file=btrfs "), "found on a btrfs file: " + f.recipe());
        hunt("uring", "uring-cancel-leaks-ctx-ref", 12, 1, 300);
        hunt("uring", "nowait-waits-for-page", 12, 1, 300);
        assertEquals(ViolationKind.DOUBLE_RELEASE, f.result().kind());
    }
}
