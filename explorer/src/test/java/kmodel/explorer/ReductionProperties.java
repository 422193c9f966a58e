package kmodel.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import kmodel.kernel.Kernel;
import kmodel.kernel.atomic.AtomicT;
import kmodel.kernel.atomic.Shared;
import kmodel.kernel.locking.Spinlock;
import kmodel.kernel.sched.Footprinted;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;

/**
 * Partial-order reduction against the ground truth: on small random programs (two or three
 * tasks reading and writing two shared variables, taking a spinlock, incrementing an atomic,
 * taking a reference in the same step as a lock's acquire or release),
 * the reduced search (source-DPOR with sleep sets) reaches exactly the end states that plain
 * unbounded DFS reaches, every interleaving of which it runs. The programs are small enough
 * for plain DFS to finish.
 */
@Tag("modelcheck")
class ReductionProperties {

    /** One operation of a generated task. */
    static final class Op {
        /**
         * 0 read, 1 write, 2 locked increment, 3 atomic increment, 4 locked increment and then a
         * reference taken in the release's step, 5 a locked read with a reference taken in the
         * acquire's step (the page cache's insert and lookup: see {@code AcquireRaceTest}); for
         * the memory-model programs ({@link LkmmModeProperties}) also 6 {@code smp_mb()}, 7
         * {@code smp_store_release()}, 8 {@code smp_load_acquire()}, 9 {@code smp_wmb()}, 10
         * {@code smp_rmb()}.
         */
        final int kind;
        final int var;
        final int value;

        Op(int kind, int var, int value) {
            this.kind = kind;
            this.var = var;
            this.value = value;
        }

        @Override
        public String toString() {
            switch (kind) {
                case 0: return "r(x" + var + ")";
                case 1: return "w(x" + var + "=" + value + ")";
                case 2: return "lock-inc(x" + var + ")";
                case 4: return "lock-inc-get(x" + var + ")";
                case 5: return "lock-get-r(x" + var + ")";
                case 6: return "mb";
                case 7: return "w-rel(x" + var + "=" + value + ")";
                case 8: return "r-acq(x" + var + ")";
                case 9: return "wmb";
                case 10: return "rmb";
                default: return "atomic-inc";
            }
        }
    }

    /** A reference count: each get is reported to the runtime as an access, with no point. */
    static final class Ref extends Footprinted {
        int count;

        void get() {
            Kernel.rt().access(this);
            count++;
        }
    }

    /** The world of one execution. */
    static final class World {
        final List<Shared<Integer>> vars = new ArrayList<>();
        final Spinlock lock = new Spinlock("L");
        final AtomicT counter = new AtomicT("c", 0);
        /** A reference count touched without a scheduling point of its own, in the step around it. */
        final Ref ref = new Ref();
        final StringBuilder[] seen;

        World(int tasks) {
            vars.add(new Shared<>("x0", 0));
            vars.add(new Shared<>("x1", 0));
            seen = new StringBuilder[tasks];
            for (int i = 0; i < tasks; i++) {
                seen[i] = new StringBuilder();
            }
        }

        void run(int task, List<Op> ops) {
            for (Op op : ops) {
                Shared<Integer> x = vars.get(op.var);
                switch (op.kind) {
                    case 0:
                        seen[task].append(x.readOnce()).append(' ');
                        break;
                    case 1:
                        x.writeOnce(op.value);
                        break;
                    case 2:
                        Spinlock.spinLock(lock);
                        x.writeOnce(x.readOnce() + 1);
                        Spinlock.spinUnlock(lock);
                        break;
                    case 4:
                        Spinlock.spinLock(lock);
                        x.writeOnce(x.readOnce() + 1);
                        Spinlock.spinUnlock(lock);
                        ref.get();
                        break;
                    case 5:
                        Spinlock.spinLock(lock);
                        ref.get();
                        seen[task].append(x.readOnce()).append(' ');
                        Spinlock.spinUnlock(lock);
                        break;
                    case 6:
                        kmodel.kernel.atomic.Barriers.smpMb("generated");
                        break;
                    case 7:
                        x.storeRelease(op.value);
                        break;
                    case 8:
                        seen[task].append(x.loadAcquire()).append(' ');
                        break;
                    case 9:
                        kmodel.kernel.atomic.Barriers.smpWmb("generated");
                        break;
                    case 10:
                        kmodel.kernel.atomic.Barriers.smpRmb("generated");
                        break;
                    default:
                        seen[task].append('c').append(counter.addReturn(1)).append(' ');
                        break;
                }
            }
        }

        String outcome() {
            StringBuilder sb = new StringBuilder();
            for (StringBuilder s : seen) {
                sb.append('[').append(s).append(']');
            }
            return sb.append(" x0=").append(vars.get(0).plain()).append(" x1=").append(vars.get(1).plain()).toString();
        }
    }

    static TestTarget<World> program(List<List<Op>> tasks) {
        return TestTarget.<World>named("generated " + tasks, "a generated program")
                .setup(() -> new World(tasks.size()))
                .tasks((w, spawn) -> {
                    for (int i = 0; i < tasks.size(); i++) {
                        final int t = i;
                        spawn.task("t" + t, () -> w.run(t, tasks.get(t)));
                    }
                })
                .outcome(World::outcome)
                .build();
    }

    @Provide
    Arbitrary<List<List<Op>>> programs() {
        Arbitrary<Op> op = Arbitraries.integers().between(0, 5).flatMap(kind -> Arbitraries.integers().between(0, 1)
                .flatMap(var -> Arbitraries.integers().between(1, 2).map(value -> new Op(kind, var, value))));
        return op.list().ofMinSize(1).ofMaxSize(3).list().ofMinSize(2).ofMaxSize(3);
    }

    /** The fast tier's size: 10 generated programs. */
    @Property(tries = 10, seed = "20261201")
    void theReducedSearchReachesExactlyThePlainSearchsEndStates(@ForAll("programs") List<List<Op>> tasks) {
        reducedReachesPlainEndStates(tasks);
    }

    /** The full tier's size ({@code mvn verify -Pfull}): 40 programs of another seed. */
    @Tag("full")
    @Property(tries = 40, seed = "20261202")
    void theReducedSearchReachesExactlyThePlainSearchsEndStatesAtTheFullSize(
            @ForAll("programs") List<List<Op>> tasks) {
        reducedReachesPlainEndStates(tasks);
    }

    private static void reducedReachesPlainEndStates(List<List<Op>> tasks) {
        TestTarget<World> s = program(tasks);
        CheckResult plain = ModelCheck.exhaustive(s).preemptions(ModelCheck.UNBOUNDED).reduction(false).run();
        CheckResult reduced = ModelCheck.exhaustive(s).preemptions(ModelCheck.UNBOUNDED).run();
        assertTrue(plain.passed() && plain.complete(), plain::summaryLine);
        assertTrue(reduced.passed() && reduced.complete(), reduced::summaryLine);
        assertEquals(plain.outcomes(), reduced.outcomes(), () -> tasks + "\n" + reduced.summaryLine());
        assertTrue(reduced.executions() <= plain.executions(), () -> reduced.summaryLine() + " vs " + plain.summaryLine());
    }

    /** The property's oracle fails on a search that takes every step as independent. */
    @Example
    void aSearchBlindToDependenceMissesEndStates() {
        List<List<Op>> tasks = List.of(List.of(new Op(1, 0, 1)), List.of(new Op(0, 0, 0)));
        TestTarget<World> s = program(tasks);
        CheckResult plain = ModelCheck.exhaustive(s).preemptions(ModelCheck.UNBOUNDED).reduction(false).run();
        CheckResult blind = ModelCheck.exhaustive(s).preemptions(ModelCheck.UNBOUNDED).blindReductionForTesting().run();
        CheckResult reduced = ModelCheck.exhaustive(s).preemptions(ModelCheck.UNBOUNDED).run();
        // t1 reads x0 before or after t0 writes 1: two end states
        assertEquals(2, plain.distinctOutcomes(), plain::summaryLine);
        assertEquals(plain.outcomes(), reduced.outcomes());
        assertEquals(1, blind.distinctOutcomes(), blind::summaryLine);
    }
}
