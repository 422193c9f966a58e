package kmodel.explorer.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The progress estimate of depth-first search ({@link DfsStrategy#explored()}): on a balanced tree
 * it is exact, an alternative not explored yet counts as large as the subtrees beside it, and it respects the preemption bound (alternatives the bound forbids are not part
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
     * A lopsided tree: the root's first alternative has four leaves under one choice point, its
     * second four leaves under two. An alternative not tried yet is first taken to be as large
     * as the one under way, then as the subtrees finished at its depth.
     */
    @Test
    void anAlternativeNotYetExploredIsTakenToBeAsLargeAsTheSubtreesFinishedBesideIt() {
        DfsStrategy s = new DfsStrategy(2);
        double[] seen = new double[8];
        for (int done = 1; done <= 8; done++) {
            s.beginExecution();
            if (s.pickValue(2) == 0) {
                s.pickValue(4);
            } else {
                s.pickValue(2);
                s.pickValue(2);
            }
            boolean more = s.advance();
            assertEquals(done < 8, more, "eight leaves");
            if (more) {
                seen[done] = s.explored();
            }
        }
        // The first alternative is taken to be 4 (1 done, 3 left of size 1), the second as large.
        assertEquals(1.0 / 8, seen[1], 1e-12);
        // The first alternative done (4): the second is taken to be as large as it.
        assertEquals(0.5, seen[4], 1e-12);
        // Under the second, the untried branch of its first choice point is taken to be as large as
        // the subtrees finished at that depth, which are the first alternative's leaves: 1. So the
        // second alternative is estimated at 2 + 1 = 3: five of seven (truly five of eight).
        assertEquals(5.0 / 7, seen[5], 1e-12);
        // Its first branch done (2), the second taken to be as large: exact again.
        assertEquals(7.0 / 8, seen[7], 1e-12);
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
