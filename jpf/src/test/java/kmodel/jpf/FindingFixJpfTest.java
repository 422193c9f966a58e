package kmodel.jpf;

import kmodel.verification.harness.Harness;
import kmodel.verification.harness.Harnesses;
import org.junit.Test;

/**
 * The v5.10 finding's harness ({@code page-lock-killable-v510-unfair}: page-lock-killable at the
 * kernel's default unfairness budget) with the candidate fix {@code PAGE_LOCK_WOKEN_KILLED_TRYLOCK=y}
 * (docs/findings/killed-locker-strands-waiter.md): JPF must find no violation and no deadlock.
 * Bounded like the other page-lock proofs ({@link HarnessJpfTest#PROOF_BUDGET} new states): JPF's
 * depth-first search does not finish this world, and does not reach the finding itself without the
 * fix within {@link HarnessJpfTest#FINDING_BUDGET} either (README, "Java PathFinder"), so this is
 * a check that the fix adds no violation JPF can see, not a proof that it removes the finding.
 */
public class FindingFixJpfTest extends JpfTestBase {

    @Test
    public void theFindingHarnessWithTheFixPasses() {
        Harness h = Harnesses.named("page-lock-killable-v510-unfair");
        JpfOutcome o = runMain(h.name() + " [PAGE_LOCK_WOKEN_KILLED_TRYLOCK=y]", JpfSettings.Granularity.PRIMITIVE,
                HarnessJpfTest.PROOF_BUDGET, HarnessMain.class, h.name(), "-", HarnessMain.WITH_FIX);
        o.assertBoundedProof(HarnessJpfTest.PROOF_BUDGET);
    }
}
