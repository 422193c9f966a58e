package kmodel.verification.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The progress estimate of depth-first search ({@link DfsStrategy#explored()}): on a balanced tree
 * it is exact, and it respects the preemption bound (alternatives the bound forbids are not part
 * of the tree). Driven without a runtime: the test plays the runtime's part.
 */
class ExploredEstimateTest {

    /** One execution of a tree of {@code levels} data choices of {@code width} values each. */
    private static void runValues(DfsStrategy s, int levels, int width) {
        s.beginExecution();
        for (int i = 0; i < levels; i++) {
            s.pickValue(width);
        }
    }

    @Test
    void onABalancedTreeTheEstimateIsTheShareOfLeavesDone() {
        DfsStrategy s = new DfsStrategy(2);
        assertEquals(0.0, s.explored(), "before the first execution");
        int leaves = 27;
        for (int done = 1; done < leaves; done++) {
            runValues(s, 3, 3);
            assertTrue(s.advance());
            assertEquals((double) done / leaves, s.explored(), 1e-12, "after " + done + " executions");
        }
        runValues(s, 3, 3);
        assertFalse(s.advance(), "27 leaves, then done");
    }

    /**
     * Three tasks picked at one decision while task 0 runs: at bound 0 only task 0 (the free
     * choice) is in the tree, so one execution is the whole tree; at bound 1 all three are, a third
     * each.
     */
    @Test
    void alternativesBeyondThePreemptionBoundAreNotPartOfTheTree() {
        int[] ids = {0, 1, 2};
        DfsStrategy one = new DfsStrategy(1);
        one.beginExecution();
        one.pickTask(ids, 3, 0);
        one.pickValue(2);
        assertTrue(one.advance());
        assertEquals(1.0 / 6, one.explored(), 1e-12, "task 0, value 0 done: one leaf of six");
        one.beginExecution();
        one.pickTask(ids, 3, 0);
        one.pickValue(2);
        assertTrue(one.advance());
        assertEquals(1.0 / 3, one.explored(), 1e-12, "task 0's subtree done");

        DfsStrategy zero = new DfsStrategy(0);
        zero.beginExecution();
        zero.pickTask(ids, 3, 0);
        zero.pickValue(2);
        assertTrue(zero.advance());
        assertEquals(0.5, zero.explored(), 1e-12, "at bound 0 the tree is task 0's two leaves");
    }
}
