package kmodel.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import kmodel.explorer.ReductionProperties.Op;
import kmodel.kernel.Kconfig;
import kmodel.kernel.MemoryModel;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;

/**
 * {@code --memory-model lkmm} in the explorer (issue 20, section 2 and acceptance 6), on small
 * generated programs of {@code Shared} loads and stores ({@code READ_ONCE}/{@code WRITE_ONCE},
 * acquire/release), {@code smp_mb()}/{@code smp_wmb()}/{@code smp_rmb()}, a spinlock and a fully
 * ordered atomic, two or three tasks:
 * <ul>
 *   <li>the reduced search (source-DPOR with sleep sets, with the reads-from data choices and the
 *       strong fences' order in the footprints) reaches exactly the end states plain unbounded DFS
 *       reaches under lkmm, as {@link ReductionProperties} asserts under SC;</li>
 *   <li>lkmm reaches every end state SC reaches, and more on SB- and MP-shaped programs without
 *       barriers; with the barriers the LKMM requires, no end state SC does not reach.</li>
 * </ul>
 */
@Tag("modelcheck")
class LkmmModeProperties {
    static final Kconfig LKMM = Kconfig.defaults().withMemoryModel(MemoryModel.LKMM);

    @Provide
    Arbitrary<List<List<Op>>> programs() {
        Arbitrary<Op> op = Arbitraries.integers().between(0, 10).flatMap(kind -> Arbitraries.integers().between(0, 1)
                .flatMap(var -> Arbitraries.integers().between(1, 2).map(value -> new Op(kind, var, value))));
        return op.list().ofMinSize(1).ofMaxSize(3).list().ofMinSize(2).ofMaxSize(3);
    }

    /** Two tasks of one to three operations: the fast tier's size (plain DFS under lkmm is the cost). */
    @Provide
    Arbitrary<List<List<Op>>> smallPrograms() {
        Arbitrary<Op> op = Arbitraries.integers().between(0, 10).flatMap(kind -> Arbitraries.integers().between(0, 1)
                .flatMap(var -> Arbitraries.integers().between(1, 2).map(value -> new Op(kind, var, value))));
        return op.list().ofMinSize(1).ofMaxSize(3).list().ofSize(2);
    }

    static CheckResult plain(List<List<Op>> tasks, Kconfig c) {
        CheckResult r = ModelCheck.exhaustive(ReductionProperties.program(tasks)).preemptions(ModelCheck.UNBOUNDED)
                .reduction(false).config(c).run();
        assertTrue(r.passed() && r.complete(), r::summaryLine);
        return r;
    }

    static CheckResult reduced(List<List<Op>> tasks, Kconfig c) {
        CheckResult r = ModelCheck.exhaustive(ReductionProperties.program(tasks)).preemptions(ModelCheck.UNBOUNDED)
                .config(c).run();
        assertTrue(r.passed() && r.complete(), r::summaryLine);
        return r;
    }

    /** Fast tier: 8 programs of two tasks. */
    @Property(tries = 8, seed = "20261203")
    void underLkmmTheReducedSearchReachesExactlyThePlainSearchsEndStates(@ForAll("smallPrograms") List<List<Op>> tasks) {
        CheckResult p = plain(tasks, LKMM);
        CheckResult r = reduced(tasks, LKMM);
        assertEquals(p.outcomes(), r.outcomes(), () -> tasks + "\n" + r.summaryLine());
        assertTrue(r.executions() <= p.executions(), () -> r.summaryLine() + " vs " + p.summaryLine());
    }

    /** Fast tier: 4 programs, with a preemption bound: bounded DPOR against plain DFS at the same bound. */
    @Property(tries = 4, seed = "20261206")
    void underLkmmBoundedReductionReachesExactlyThePlainSearchsEndStatesAtBoundOne(
            @ForAll("programs") List<List<Op>> tasks) {
        CheckResult p = ModelCheck.exhaustive(ReductionProperties.program(tasks)).preemptions(1).iterative(false)
                .reduction(false).config(LKMM).run();
        CheckResult r = ModelCheck.exhaustive(ReductionProperties.program(tasks)).preemptions(1).iterative(false)
                .config(LKMM).run();
        assertTrue(p.passed() && p.complete() && r.passed() && r.complete(), () -> p.summaryLine() + " / " + r.summaryLine());
        assertEquals(p.outcomes(), r.outcomes(), () -> tasks + "\n" + r.summaryLine());
    }

    /** Full tier: 40 programs of another seed. */
    @Tag("full")
    @Property(tries = 40, seed = "20261204")
    void underLkmmTheReducedSearchReachesExactlyThePlainSearchsEndStatesAtTheFullSize(
            @ForAll("programs") List<List<Op>> tasks) {
        underLkmmTheReducedSearchReachesExactlyThePlainSearchsEndStates(tasks);
    }

    /** Fast tier: 10 programs. */
    @Property(tries = 10, seed = "20261205")
    void lkmmReachesEveryEndStateScReaches(@ForAll("programs") List<List<Op>> tasks) {
        SortedSet<String> sc = reduced(tasks, Kconfig.defaults()).outcomes();
        SortedSet<String> lkmm = reduced(tasks, LKMM).outcomes();
        assertTrue(missing(sc, lkmm).isEmpty(), () -> tasks + ": SC end states lkmm misses: " + missing(sc, lkmm));
    }

    /** The end states of {@code sc} that {@code lkmm} lacks (the containment oracle). */
    static SortedSet<String> missing(SortedSet<String> sc, SortedSet<String> lkmm) {
        SortedSet<String> m = new TreeSet<>(sc);
        m.removeAll(lkmm);
        return m;
    }

    static Op w(int var, int v) {
        return new Op(1, var, v);
    }

    static Op r(int var) {
        return new Op(0, var, 0);
    }

    static final Op MB = new Op(6, 0, 0);

    /** SB: each task writes one variable and reads the other. */
    static final List<List<Op>> SB = List.of(List.of(w(0, 1), r(1)), List.of(w(1, 1), r(0)));
    /** MP: data then flag; flag then data. */
    static final List<List<Op>> MP = List.of(List.of(w(0, 1), w(1, 1)), List.of(r(1), r(0)));

    @Example
    void storeBufferingAndMessagePassingWithoutBarriersReachMoreThanSc() {
        for (List<List<Op>> p : List.of(SB, MP)) {
            SortedSet<String> sc = reduced(p, Kconfig.defaults()).outcomes();
            SortedSet<String> lkmm = reduced(p, LKMM).outcomes();
            assertTrue(lkmm.containsAll(sc), p::toString);
            assertTrue(lkmm.size() > sc.size(), () -> p + ": " + lkmm + " vs " + sc);
        }
        // SB's weak outcome: both reads see 0
        assertTrue(reduced(SB, LKMM).outcomes().contains("[0 ][0 ] x0=1 x1=1"), () -> reduced(SB, LKMM).outcomes().toString());
        // MP's: the flag is seen set, the data not
        assertTrue(reduced(MP, LKMM).outcomes().contains("[][1 0 ] x0=1 x1=1"), () -> reduced(MP, LKMM).outcomes().toString());
    }

    @Example
    void withTheBarriersTheLkmmRequiresNothingBeyondSc() {
        List<List<Op>> sbMb = List.of(List.of(w(0, 1), MB, r(1)), List.of(w(1, 1), MB, r(0)));
        List<List<Op>> mpRelAcq = List.of(List.of(w(0, 1), new Op(7, 1, 1)), List.of(new Op(8, 1, 0), r(0)));
        List<List<Op>> mpWmbRmb = List.of(List.of(w(0, 1), new Op(9, 0, 0), w(1, 1)),
                List.of(r(1), new Op(10, 0, 0), r(0)));
        for (List<List<Op>> p : List.of(sbMb, mpRelAcq, mpWmbRmb)) {
            assertEquals(reduced(p, Kconfig.defaults()).outcomes(), reduced(p, LKMM).outcomes(), p::toString);
            assertEquals(plain(p, LKMM).outcomes(), reduced(p, LKMM).outcomes(), p::toString);
        }
    }

    @Example
    void theOraclesFailOnABlindSearch() {
        // a search that takes every two steps as independent misses SC end states under lkmm, and
        // misses lkmm end states plain DFS finds: both oracles above notice
        CheckResult blind = ModelCheck.exhaustive(ReductionProperties.program(SB)).preemptions(ModelCheck.UNBOUNDED)
                .blindReductionForTesting().config(LKMM).run();
        SortedSet<String> sc = reduced(SB, Kconfig.defaults()).outcomes();
        assertFalse(missing(sc, blind.outcomes()).isEmpty(), blind.outcomes()::toString);
        assertTrue(plain(SB, LKMM).outcomes().size() > blind.outcomes().size());
    }

    @Example
    void theCanonicalConfigurationNamesTheModelOnlyUnderLkmm() {
        // so every SC replay token, result line and --json file reads as before
        assertEquals("memory-model=lkmm", LKMM.canonical());
        assertEquals("", Kconfig.defaults().canonical());
        assertEquals(LKMM, Kconfig.defaults().overlay(LKMM));
    }

    /** A word read and written through the runtime's memory-model calls, and once behind its back. */
    static final class Word extends kmodel.kernel.sched.Footprinted {
        long v;
    }

    @Example
    void aStoreThatBypassesTheMemoryModelIsAnOopsNotASilentlyStaleRead() {
        // the runtime checks at every access that the memory's latest store is the field's value:
        // a primitive that forgot to call Runtime.store*/rmw* is reported, here on purpose
        CheckResult r = ModelCheck.exhaustive(TestTarget.<Word>named("bypass", "a store behind the runtime's back")
                .setup(Word::new)
                .task("t", w -> {
                    kmodel.kernel.sched.Runtime rt = kmodel.kernel.Kernel.rt();
                    rt.point("store", w);
                    rt.storeLong(w, w.v, 1, kmodel.kernel.lkmm.Order.ONCE);
                    w.v = 1;
                    w.v = 2; // not through the memory model
                    rt.pointRead("load", w);
                    rt.loadLong(w, w.v, kmodel.kernel.lkmm.Order.ONCE);
                })
                .build()).preemptions(ModelCheck.UNBOUNDED).config(LKMM).run();
        assertEquals(kmodel.kernel.ViolationKind.OOPS, r.violation().kind(), r::summaryLine);
        assertTrue(r.violation().getMessage().contains("was changed without going through the memory model"),
                r.violation()::getMessage);
        // under SC the same program has nothing to check
        assertTrue(ModelCheck.exhaustive(TestTarget.<Word>named("bypass", "")
                .setup(Word::new)
                .task("t", w -> {
                    w.v = 2;
                    kmodel.kernel.Kernel.rt().loadLong(w, w.v, kmodel.kernel.lkmm.Order.ONCE);
                })
                .build()).preemptions(ModelCheck.UNBOUNDED).run().passed());
    }

    /** A poller that spins (with the fairness point) until a flag another task sets is seen. */
    static final class Poll {
        final kmodel.kernel.atomic.Shared<Boolean> flag = new kmodel.kernel.atomic.Shared<>("flag", false);
    }

    @Example
    void aBusyWaitRoundAfterAFruitlessOneSeesTheLatestStoreUnderLkmm() {
        // stores propagate in finite time: without the rule the poller could read the old flag at
        // every round until the step bound; with it every execution ends, under lkmm as under SC
        for (Kconfig c : List.of(Kconfig.defaults(), LKMM)) {
            CheckResult r = ModelCheck.exhaustive(TestTarget.<Poll>named("poll", "a poller and a setter")
                    .setup(Poll::new)
                    .task("poller", w -> {
                        while (!w.flag.readOnce()) {
                            kmodel.kernel.sched.Sched.spinYield("poll");
                        }
                    })
                    .task("setter", w -> w.flag.writeOnce(true))
                    .build()).preemptions(ModelCheck.UNBOUNDED).steps(200).config(c).run();
            assertTrue(r.passed() && r.complete(), r::summaryLine);
        }
    }

    /** The textbook sleeper: the state first (with or without its barrier), then the condition. */
    static final class Sleep {
        final kmodel.kernel.atomic.Shared<Boolean> cond = new kmodel.kernel.atomic.Shared<>("cond", false);
        kmodel.kernel.sched.Task sleeper;
    }

    static CheckTarget sleepWake(boolean stateBarrier) {
        return TestTarget.<Sleep>named("sleep-wake", "a sleeper and a waker")
                .setup(Sleep::new)
                .tasks((w, spawn) -> {
                    w.sleeper = spawn.task("sleeper", () -> {
                        if (stateBarrier) {
                            kmodel.kernel.sched.Sched.setCurrentState(kmodel.kernel.sched.Task.TASK_UNINTERRUPTIBLE);
                        } else {
                            kmodel.kernel.sched.Sched.__setCurrentState(kmodel.kernel.sched.Task.TASK_UNINTERRUPTIBLE);
                        }
                        if (!w.cond.readOnce()) {
                            kmodel.kernel.sched.Sched.waitingOn("cond");
                            kmodel.kernel.sched.Sched.schedule();
                        }
                        kmodel.kernel.sched.Sched.__setCurrentState(kmodel.kernel.sched.Task.TASK_RUNNING);
                    });
                    spawn.task("waker", () -> {
                        w.cond.writeOnce(true);
                        kmodel.kernel.sched.Sched.wakeUpProcess(w.sleeper);
                    });
                })
                .build();
    }

    @Example
    void setCurrentStatesBarrierPairsWithTryToWakeUpsUnderLkmm() {
        // set_current_state() is smp_store_mb() and try_to_wake_up() has smp_mb__after_spinlock():
        // the SB shape between state and condition never loses the wake-up
        CheckResult ok = ModelCheck.exhaustive(sleepWake(true)).preemptions(ModelCheck.UNBOUNDED).config(LKMM).run();
        assertTrue(ok.passed() && ok.complete(), ok::summaryLine);
        // without the sleeper's barrier (__set_current_state()) the condition's load may read the
        // old value after the waker found the task still running: a missed wake-up that only the
        // LKMM allows (under SC the same program passes)
        CheckResult sc = ModelCheck.exhaustive(sleepWake(false)).preemptions(ModelCheck.UNBOUNDED).run();
        assertTrue(sc.passed() && sc.complete(), sc::summaryLine);
        CheckResult lkmm = ModelCheck.exhaustive(sleepWake(false)).preemptions(ModelCheck.UNBOUNDED).config(LKMM).run();
        assertFalse(lkmm.passed(), lkmm::summaryLine);
        assertEquals(kmodel.kernel.ViolationKind.MISSED_WAKEUP, lkmm.violation().kind(), lkmm::summaryLine);
        // the diagram shows which store the sleeper's load read: the initial one, not the waker's
        assertTrue(lkmm.diagram().replaceAll("\\s+", " ").contains("reads cond = false (init), stale: the latest is true (waker)"),
                lkmm::diagram);
        // plain DFS agrees with the reduced search on both
        assertFalse(ModelCheck.exhaustive(sleepWake(false)).preemptions(ModelCheck.UNBOUNDED).reduction(false).config(LKMM)
                .run().passed());
    }
}
