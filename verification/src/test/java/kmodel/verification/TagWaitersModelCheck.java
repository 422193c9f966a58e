package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import kmodel.block.BlockOptions;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import kmodel.verification.world.Scenario;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The tag waiters of lib/sbitmap.c (v5.10) with {@code wake_batch = 2} (one wait queue, depth 2):
 * the finding {@code finding-sbitmap-cleared-race} strands a waiter on v5.10's
 * {@code sbitmap_deferred_clear()} (the race 72d04bdcf3f7 fixed in v6.11-rc1), and
 * {@code tag-waiters-batch}, the same world with that fix, strands nobody. Strength: exhaustive
 * with DPOR within the preemption bound named (the worlds are too large for the default bound 3).
 */
@Tag("modelcheck")
class TagWaitersModelCheck {

    private static CheckResult bounded(String scenario, Kconfig cfg, int preemptions) {
        Scenario<?> s = ScenarioRegistry.everything().get(scenario);
        return ModelCheck.exhaustive(s).preemptions(preemptions).config(cfg).run();
    }

    @Test
    void v510StrandsATagWaiterWhenWakeBatchIsTwo() {
        CheckResult r = bounded("finding-sbitmap-cleared-race", Kconfig.defaults(), 2);
        assertEquals(ViolationKind.MISSED_WAKEUP, r.kind(), r::summaryLine);
        assertTrue(r.violation().getMessage().contains("waiting on a request tag of sda, and no task is left to wake it"),
                r.violation()::getMessage);
        assertTrue(r.diagram().contains("blk_mq_get_tag: no tag on sda, sleeps"), r::diagram);
        /* bound 1 is not enough: it takes two preemptions */
        assertTrue(bounded("finding-sbitmap-cleared-race", Kconfig.defaults(), 1).passed());
    }

    /**
     * Bound 1 here (7,206 executions); bound 2 also passes (247,762 executions, about 35 s:
     * {@code ./kmodel check --scenario tag-waiters-batch --preemptions 2}).
     */
    @Test
    void withTheFixNoTagWaiterIsStrandedToPreemptionBoundOne() {
        CheckResult r = bounded("tag-waiters-batch", Kconfig.defaults(), 1);
        assertTrue(r.passed(), () -> r.summaryLine() + "\n" + r.diagram());
        assertTrue(r.config().enabled(BlockOptions.SBITMAP_CLEARED_RACE_FIX), r::summaryLine);
        assertEquals(1L, r.config().value(BlockOptions.SBQ_WAIT_QUEUES), r::summaryLine);
    }

    /** The fix is off by default: v5.10 does not have it. */
    @Test
    void theFixIsOffByDefault() {
        assertEquals(0L, Kconfig.defaults().value(BlockOptions.SBITMAP_CLEARED_RACE_FIX));
        assertEquals(8L, Kconfig.defaults().value(BlockOptions.SBQ_WAIT_QUEUES));
        assertTrue(KconfigTable.build(List.of("SBITMAP_CLEARED_RACE_FIX=y"), List.of())
                .enabled(BlockOptions.SBITMAP_CLEARED_RACE_FIX));
    }
}
