package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import kmodel.verification.catalog.BugCatalog;
import kmodel.verification.catalog.CatalogBug;
import kmodel.verification.scenarios.SwarmScenarios;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * A small fixed-seed swarm run: the generated recipes pass on the default configuration, and with
 * a catalog bug switched in the same random recipes find it, each with a replay token that
 * replays to the same violation kind, on a recipe that passes without the bug.
 */
@Tag("modelcheck")
class SwarmModelCheck {
    /** The run's seed; recipes 0-5 of it are all clean on the defaults (exhaustive at bound 2). */
    private static final long SEED = 1;

    @Test
    void aFixedSeedSwarmPassesOnTheDefaultConfiguration() {
        List<SwarmCheck.Entry> run = SwarmCheck.of(SEED, 6).run();
        assertEquals(6, run.size());
        for (SwarmCheck.Entry e : run) {
            assertTrue(e.result().passed(), () -> "#" + e.index() + " " + e.result().summaryLine() + "\n"
                    + e.result().diagram());
            assertEquals(SwarmScenarios.PREFIX + e.recipe(), e.result().scenario());
        }
    }

    /**
     * Catalog bugs the first ten recipes of the seed find: a lock hand-off that forgets
     * {@code WQ_FLAG_DONE}, a wake function that forgets {@code page_match}, v1's async wait that
     * tests the lock before queueing, and v1's {@code io_async_buf_func()} that never sets
     * {@code page_match}. No recipe was written for them: each is the first failing recipe of
     * the seed. Each is found with the kind the catalog names, but for the hand-off: its first
     * failing recipe now truncates the page, and the killed waiter the lock was handed to
     * returns {@code -EINTR} and drops the last reference to a page still locked, which the
     * allocator's {@code free_pages_check()} reports first ({@code bad_page()}, a
     * {@code bug-on}; before the page allocator had that check the recipe passed).
     */
    @TestFactory
    Stream<DynamicTest> withACatalogBugSwitchedInTheSwarmFindsIt() {
        return Stream.of(BugCatalog.find("handoff-forgets-done"), BugCatalog.find("wake-page-match-not-set"),
                BugCatalog.find("async-wait-check-before-add"), BugCatalog.find("async-page-match-not-set"))
                .map(bug -> DynamicTest.dynamicTest(bug.id(), () -> findsAndReplays(bug)));
    }

    private static void findsAndReplays(CatalogBug bug) {
        Kconfig cfg = KconfigTable.build(List.of(), List.of(bug.id()));
        List<SwarmCheck.Entry> run = SwarmCheck.of(SEED, 10).config(cfg).stopAtFirstFailure(true).run();
        SwarmCheck.Entry found = run.get(run.size() - 1);
        CheckResult r = found.result();
        assertNotNull(r.violation(), () -> bug.id() + " not found in 10 recipes of seed " + SEED);
        ViolationKind kind = bug.kind();
        if (bug.id().equals("handoff-forgets-done")) {
            kind = ViolationKind.BUG_ON;
            assertTrue(r.violation().getMessage().contains("PAGE_FLAGS_CHECK_AT_FREE flag(s) set: PG_locked"),
                    r.violation()::summary);
        }
        ViolationKind expected = kind;
        assertEquals(expected, r.kind(), () -> r.summaryLine() + "\n" + r.diagram());
        assertTrue(r.config().bugs().contains(bug.id()));

        ModelCheck.Replay replay = ModelCheck.replay(r.token(), ScenarioRegistry.everything(), false);
        assertEquals(SwarmScenarios.PREFIX + found.recipe(), replay.token().scenario(), "the token names the recipe");
        assertNotNull(replay.violation());
        assertEquals(expected, replay.violation().kind());

        CheckResult without = ModelCheck.exhaustive(SwarmScenarios.scenario(found.recipe()))
                .config(bug.impliedSettings(Kconfig.defaults())).run();
        assertTrue(without.passed(), () -> "the recipe must pass without the bug: " + without.summaryLine() + "\n"
                + without.diagram());
    }
}
