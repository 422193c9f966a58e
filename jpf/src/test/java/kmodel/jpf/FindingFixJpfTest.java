package kmodel.jpf;

import kmodel.verification.harness.Harness;
import kmodel.verification.harness.Harnesses;
import org.junit.Test;

/**
 * The v5.10 finding's harness ({@code page-lock-killable-v510-unfair}: page-lock-killable at the
 * kernel's default unfairness budget) with the candidate fix {@code PAGE_LOCK_WOKEN_KILLED_TRYLOCK=y}
 * (docs/findings/killed-locker-strands-waiter.md): JPF must prove it, with a complete search (no
 * violation, no deadlock, every interleaving at the explorer's scheduling points), where the same
 * harness without the fix is found failing ({@link HarnessJpfTest}).
 */
public class FindingFixJpfTest extends JpfTestBase {

    @Test
    public void theFindingHarnessWithTheFixIsProved() {
        Harness h = Harnesses.named("page-lock-killable-v510-unfair");
        JpfOutcome o = runMain(h.name() + " [PAGE_LOCK_WOKEN_KILLED_TRYLOCK=y]", JpfSettings.Granularity.PRIMITIVE,
                HarnessJpfTest.BUDGET, HarnessMain.class, h.name(), "-", HarnessMain.WITH_FIX);
        o.assertProof();
    }
}
