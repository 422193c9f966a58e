package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import kmodel.mm.FilemapBugs;
import kmodel.verification.scenarios.SwarmWorlds;
import kmodel.verification.world.Scenario;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The struct page is never freed (docs/model.md): truncation racing a read's completion, once a
 * {@code use-after-free}, passes with the page reused and a spurious wake-up at most; a late
 * flag write under the page's next owner is {@code page-flags-corrupted}; and the swarm draws
 * truncation together with reads. Exhaustive search with partial-order reduction, within the
 * preemption bound each test names; the default configuration (v5.10.y).
 */
@Tag("modelcheck")
class PageReuseModelCheck {
    private static final ScenarioRegistry REG = ScenarioRegistry.everything();
    private static final String SWARM_FINDING = "pages=1 table=1 walk=64 ra=0 cached=- wb=- fail=- t0=nowait(0) t1=trunc(0)";

    private static CheckResult check(Scenario<?> s, Kconfig c, int bound) {
        return ModelCheck.exhaustive(s).config(c).preemptions(bound).run();
    }

    @Test
    void truncationRacingAReadCompletionWithReuseIsNoViolation() {
        CheckResult r = check(REG.get("read-truncate-reuse"), Kconfig.defaults(), 1);
        assertTrue(r.passed(), () -> r.summaryLine() + "\n" + r.diagram());
    }

    @Test
    void theSwarmFindingOnceReportedAsUseAfterFreePasses() {
        CheckResult r = check(SwarmWorlds.scenario(SWARM_FINDING), Kconfig.defaults(), 1);
        assertTrue(r.passed(), () -> r.summaryLine() + "\n" + r.diagram());
    }

    /** The deliberate break: a read completion that sets PG_uptodate after unlocking a page that has been reused. */
    @Test
    void aLateUptodateOnAReusedPageIsFlagCorruption() {
        CheckResult r = check(REG.get("read-truncate-reuse"), Kconfig.defaults().withBug(FilemapBugs.PAGE_ENDIO_UNLOCK_FIRST), 1);
        assertNotNull(r.violation(), r::summaryLine);
        assertEquals(ViolationKind.PAGE_FLAGS_CORRUPTED, r.kind(), () -> r.summaryLine() + "\n" + r.diagram());
        assertTrue(r.violation().getMessage().contains("page_endio through a stale pointer to P0 set PG_uptodate of the same"
                + " struct page reused as"), r.violation()::summary);
    }

    /**
     * 073861ed77b6 undone, but with c2407cf7d22d's loop in wait_on_page_writeback(): the belated
     * wake-up of the reused page is spurious and the syncer waits again. Only v5.10.0's single
     * {@code if} (which the catalog bug implies) turns it into the BUG_ON.
     */
    @Test
    void aLateWritebackWakeUpOfAReusedPageIsSpuriousUnderTheWaitLoop() {
        Scenario<?> s = REG.get("writeback-reuse-rewrite");
        CheckResult loop = check(s, Kconfig.defaults().withBug(FilemapBugs.END_WRITEBACK_NO_PAGE_REF), 1);
        assertTrue(loop.passed(), () -> loop.summaryLine() + "\n" + loop.diagram());
        CheckResult once = check(s, Kconfig.defaults().withBug(FilemapBugs.END_WRITEBACK_NO_PAGE_REF)
                .withBug(FilemapBugs.WAIT_ON_PAGE_WRITEBACK_ONCE), 2);
        assertEquals(ViolationKind.BUG_ON, once.kind(), once::summaryLine);
        CheckResult fixed = check(s, Kconfig.defaults().withBug(FilemapBugs.WAIT_ON_PAGE_WRITEBACK_ONCE), 1);
        assertTrue(fixed.passed(), () -> "with the page reference the page is not reused early: " + fixed.summaryLine());
    }

    /** The generator no longer keeps truncation apart from reads: the first such recipe of seed 1 passes. */
    @Test
    void theSwarmDrawsTruncationTogetherWithReads() {
        String found = null;
        for (int i = 0; i < 40 && found == null; i++) {
            String text = SwarmCheck.recipeText(1, i, List.of("page"));
            boolean reads = text.matches(".*\\b(read|readq|nowait)\\(.*") || !text.contains("fail=-");
            if (text.contains("trunc(") && reads) {
                found = text;
            }
        }
        assertNotNull(found, "no recipe of the first 40 of seed 1 draws truncation with reads");
        String recipe = found;
        CheckResult r = check(SwarmWorlds.scenario(recipe), Kconfig.defaults(), 2);
        assertTrue(r.passed(), () -> recipe + ": " + r.summaryLine() + "\n" + r.diagram());
    }

    @Test
    @Tag("full")
    void truncationRacingAReadCompletionWithReusePassesAtBoundTwo() {
        CheckResult r = check(REG.get("read-truncate-reuse"), Kconfig.defaults(), 2);
        assertTrue(r.passed(), () -> r.summaryLine() + "\n" + r.diagram());
        CheckResult w = check(REG.get("writeback-reuse-rewrite"), Kconfig.defaults().withBug(FilemapBugs.END_WRITEBACK_NO_PAGE_REF), 2);
        assertTrue(w.passed(), () -> w.summaryLine() + "\n" + w.diagram());
    }
}
