package kmodel.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntFunction;
import kmodel.explorer.search.DfsStrategy;
import kmodel.explorer.search.DporStrategy;
import kmodel.explorer.search.ExplorationStrategy;
import kmodel.kernel.Kconfig;
import kmodel.kernel.sched.DeterministicRuntime;
import kmodel.kernel.sched.ExecutionResult;
import net.jqwik.api.Example;
import net.jqwik.api.Tag;

/**
 * Bounded DPOR against plain DFS with the same preemption bound on a generated program of three
 * tasks: a known gap of the bounded search (below), and the preemption-aware sleep sets tried on
 * 2026-12-02 ({@link DporStrategy#preemptionAwareSleepForTesting}), which pass every standard
 * scenario and catalog bug at bounds 1 and 2 but are not the default.
 */
@Tag("modelcheck")
class BoundedSleepSetProperties {

    /** End states and executions of the search iterated over bounds 0..bound. */
    static Object[] explore(TestTarget<?> target, int bound, IntFunction<ExplorationStrategy> strategy) {
        return DeterministicRuntime.callOnRuntimeThread(() -> {
            Set<String> out = new TreeSet<>();
            long n = 0;
            try (DeterministicRuntime rt = new DeterministicRuntime()) {
                for (int b = 0; b <= bound; b++) {
                    ExplorationStrategy st = strategy.apply(b);
                    do {
                        ExecutionResult r = rt.execute(target.program(), st, Kconfig.defaults(), ModelCheck.DEFAULT_STEPS,
                                false, false);
                        n++;
                        if ((r.violation() != null || r.stepBound() != null) && st instanceof DporStrategy) {
                            ((DporStrategy) st).executionCut();
                        }
                        if (!r.pruned()) {
                            out.add(r.violation() != null ? "!" + r.violation().kind().label() : r.outcome());
                        }
                    } while (st.advance());
                }
            }
            return new Object[] {n, out};
        });
    }

    /**
     * Found on 2026-12-02 by a property comparing bounded DPOR with plain DFS on generated programs of
     * three or four tasks (seed 20261203, the first of 25 tries): bounded DPOR itself (the default
     * check's bounded phase, as it was at 2a445d4 too) misses two end states plain DFS reaches within
     * preemption bound 1, and reaches them at bound 2 (every end state of plain DFS at bounds 2 and
     * 3, and the unbounded reduced search reaches all). A known soundness gap of the bounded search,
     * not yet fixed (docs/checker.md, "Limits"): pinned here so that a fix shows. The preemption-aware
     * sleep sets tried the same day miss the same two.
     */
    @Example
    void boundedDporMissesTwoEndStatesAtBound1OnThisProgram() {
        List<List<ReductionProperties.Op>> tasks = List.of(
                List.of(new ReductionProperties.Op(0, 0, 0)),
                List.of(new ReductionProperties.Op(1, 1, 1), new ReductionProperties.Op(2, 0, 0)),
                List.of(new ReductionProperties.Op(0, 1, 0), new ReductionProperties.Op(2, 1, 0),
                        new ReductionProperties.Op(5, 0, 0)));
        TestTarget<ReductionProperties.World> s = ReductionProperties.program(tasks);
        Object[] plain = explore(s, 1, DfsStrategy::new);
        Object[] dpor = explore(s, 1, DporStrategy::new);
        Object[] aware = explore(s, 1, DporStrategy::preemptionAwareSleepForTesting);
        assertEquals(List.of(104L, 39L, 35L), List.of(plain[0], dpor[0], aware[0]));
        @SuppressWarnings("unchecked")
        Set<String> missing = new TreeSet<>((Set<String>) plain[1]);
        missing.removeAll((Set<?>) dpor[1]);
        assertEquals(Set.of("[0 ][][0 1 ] x0=1 x1=2", "[1 ][][0 1 ] x0=1 x1=2"), missing);
        assertEquals(dpor[1], aware[1]);
        Object[] plain2 = explore(s, 2, DfsStrategy::new);
        Object[] dpor2 = explore(s, 2, DporStrategy::new);
        assertEquals(plain2[1], dpor2[1]);
        assertTrue(((Set<?>) dpor2[1]).containsAll(missing));
    }
}
