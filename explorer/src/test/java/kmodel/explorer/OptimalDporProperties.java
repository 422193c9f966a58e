package kmodel.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import kmodel.explorer.ReductionProperties.Op;
import kmodel.explorer.search.DfsStrategy;
import kmodel.explorer.search.DporStrategy;
import kmodel.explorer.search.ExplorationStrategy;
import kmodel.kernel.Kconfig;
import kmodel.kernel.sched.DeterministicRuntime;
import kmodel.kernel.sched.ExecutionResult;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;

/**
 * Optimal DPOR (wakeup trees, {@link DporStrategy}'s unbounded search) against the ground truth and
 * against the source-DPOR it replaced, on the generated programs of {@link ReductionProperties}:
 * it reaches exactly plain unbounded DFS's end states; no execution of it ends sleep-set blocked;
 * no two of its executions are the same Mazurkiewicz trace ({@link DporStrategy#traceSignature});
 * and it runs no more executions than source-DPOR runs that are not blocked. The examples show each
 * check failing on a deliberate break: a wakeup tree that drops reversals misses end states, and
 * source-DPOR without sleep sets runs one trace twice.
 */
@Tag("modelcheck")
class OptimalDporProperties {

    /** What one search saw: end states, executions, pruned ones, and executions whose trace came twice. */
    static final class Explored {
        final Set<String> outcomes = new TreeSet<>();
        long executions;
        long blocked;
        long duplicates;

        @Override
        public String toString() {
            return executions + " executions, " + blocked + " blocked, " + duplicates + " duplicate traces, "
                    + outcomes;
        }
    }

    /** Runs {@code strategy} over {@code target} to its end, by hand, so every execution's trace is seen. */
    static Explored explore(TestTarget<?> target, ExplorationStrategy strategy) {
        return DeterministicRuntime.callOnRuntimeThread(() -> {
            Explored x = new Explored();
            Set<String> traces = new HashSet<>();
            try (DeterministicRuntime rt = new DeterministicRuntime()) {
                do {
                    ExecutionResult r = rt.execute(target.program(), strategy, Kconfig.defaults(),
                            ModelCheck.DEFAULT_STEPS, false, false);
                    x.executions++;
                    if (r.pruned()) {
                        x.blocked++;
                        continue;
                    }
                    x.outcomes.add(r.violation() != null ? "!" + r.violation().kind().label() : r.outcome());
                    if (strategy instanceof DporStrategy && !traces.add(((DporStrategy) strategy).traceSignature())) {
                        x.duplicates++;
                    }
                } while (strategy.advance());
            }
            return x;
        });
    }

    @Provide
    Arbitrary<List<List<Op>>> programs() {
        return new ReductionProperties().programs();
    }

    /** The fast tier's size: 10 generated programs. */
    @Property(tries = 10, seed = "20261203")
    void optimalDporReachesThePlainEndStatesOncePerTraceAndNeverBlocks(@ForAll("programs") List<List<Op>> tasks) {
        optimalAgainstPlainAndSource(tasks);
    }

    /** The full tier's size ({@code mvn verify -Pfull}): 60 programs of another seed. */
    @Tag("full")
    @Property(tries = 60, seed = "20261204")
    void optimalDporReachesThePlainEndStatesOncePerTraceAndNeverBlocksAtTheFullSize(
            @ForAll("programs") List<List<Op>> tasks) {
        optimalAgainstPlainAndSource(tasks);
    }

    private static void optimalAgainstPlainAndSource(List<List<Op>> tasks) {
        TestTarget<ReductionProperties.World> s = ReductionProperties.program(tasks);
        Explored plain = explore(s, new DfsStrategy(Integer.MAX_VALUE));
        Explored optimal = explore(s, new DporStrategy());
        Explored source = explore(s, DporStrategy.sourceSets());
        assertEquals(plain.outcomes, optimal.outcomes, () -> tasks + "\noptimal: " + optimal);
        assertEquals(plain.outcomes, source.outcomes, () -> tasks + "\nsource: " + source);
        assertEquals(0, optimal.blocked, () -> tasks + "\noptimal: " + optimal);
        assertEquals(0, optimal.duplicates, () -> tasks + "\noptimal: " + optimal);
        assertTrue(optimal.executions <= source.executions - source.blocked,
                () -> tasks + "\noptimal: " + optimal + "\nsource: " + source);
    }

    /**
     * Found by shrinking (jqwik): two locked increments of x0 and a plain read of it between them,
     * on which source-DPOR ends an execution sleep-set blocked and optimal DPOR does not.
     */
    static final List<List<Op>> BLOCKING = List.of(
            List.of(new Op(2, 0, 1)),
            List.of(new Op(0, 0, 0)),
            List.of(new Op(2, 0, 1)));

    /** Found by shrinking: a write of x0 between two reads of it, two reversals at the first decision. */
    static final List<List<Op>> TWO_REVERSALS = List.of(
            List.of(new Op(0, 0, 0)),
            List.of(new Op(1, 0, 1)),
            List.of(new Op(0, 0, 0)));

    @Example
    void sourceDporBlocksWhereOptimalDporDoesNot() {
        TestTarget<ReductionProperties.World> s = ReductionProperties.program(BLOCKING);
        Explored source = explore(s, DporStrategy.sourceSets());
        Explored optimal = explore(s, new DporStrategy());
        assertTrue(source.blocked > 0, source::toString);
        assertEquals(0, optimal.blocked, optimal::toString);
        assertEquals(source.executions - source.blocked, optimal.executions, () -> optimal + " vs " + source);
    }

    /** The end-state check has teeth: a wakeup tree that drops a second reversal at a decision misses end states. */
    @Example
    void aWakeupTreeThatDropsReversalsMissesEndStates() {
        TestTarget<ReductionProperties.World> s = ReductionProperties.program(TWO_REVERSALS);
        Explored plain = explore(s, new DfsStrategy(Integer.MAX_VALUE));
        assertEquals(plain.outcomes, explore(s, new DporStrategy()).outcomes);
        Explored lossy = explore(s, DporStrategy.lossyWakeupForTesting());
        assertNotEquals(plain.outcomes, lossy.outcomes, lossy::toString);
    }

    /** The duplicate check has teeth: without sleep sets, source-DPOR runs some trace twice. */
    @Example
    void withoutSleepSetsATraceIsRunTwice() {
        TestTarget<ReductionProperties.World> s = ReductionProperties.program(BLOCKING);
        Explored noSleep = explore(s, DporStrategy.noSleepSetsForTesting());
        assertTrue(noSleep.duplicates > 0, noSleep::toString);
    }
}
