package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.atomic.Shared;
import kmodel.kernel.sched.DeterministicRuntime;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Program;
import kmodel.verification.catalog.BugCatalog;
import kmodel.verification.catalog.CatalogBug;
import kmodel.explorer.search.DfsStrategy;
import kmodel.explorer.search.Minimiser;
import kmodel.explorer.search.Schedule;
import kmodel.explorer.trace.ReplayToken;
import kmodel.verification.world.Scenario;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Counterexample minimisation ({@link Minimiser}): from the largest failing schedule of a small
 * program it reaches the smallest one, found by enumerating every schedule; on catalog bugs the
 * printed counterexample is never larger than the one the search found and still replays to
 * the same kind.
 */
@Tag("modelcheck")
class MinimiserModelCheck {

    /**
     * t1 opens a window (x = 1) and closes it two steps later; t2 fails if it sees the window
     * open; t3 only adds steps and switches. The smallest failing schedule preempts t1 once,
     * inside the window, for t2.
     */
    static Scenario<Shared<Integer>[]> window() {
        return Scenario.<Shared<Integer>[]>named("test-window", "a window t2 must not see open")
                .setup(() -> {
                    @SuppressWarnings({"unchecked", "rawtypes"})
                    Shared<Integer>[] v = new Shared[] {new Shared<>("x", 0), new Shared<>("pad", 0)};
                    return v;
                })
                .task("t1", v -> {
                    v[1].writeOnce(1);
                    v[0].writeOnce(1);
                    v[1].writeOnce(2);
                    v[0].writeOnce(0);
                })
                .task("t2", v -> {
                    v[1].readOnce();
                    Kernel.BUG_ON(v[0].readOnce() == 1, "t2 saw the window open");
                })
                .task("t3", v -> {
                    v[1].writeOnce(3);
                    v[1].writeOnce(4);
                }).build();
    }

    /** Every failing schedule of {@code s}, by plain unbounded DFS. */
    private static List<Schedule> failingSchedules(DeterministicRuntime rt, Program p) {
        List<Schedule> out = new ArrayList<>();
        DfsStrategy dfs = new DfsStrategy(Integer.MAX_VALUE);
        do {
            ExecutionResult r = rt.execute(p, dfs, Kconfig.defaults(), ModelCheck.DEFAULT_STEPS, false, false);
            if (r.violation() != null) {
                out.add(dfs.schedule().copy());
            }
        } while (dfs.advance());
        return out;
    }

    @Test
    void fromTheLargestFailingScheduleItReachesTheSmallest() {
        Program p = window().program();
        DeterministicRuntime.callOnRuntimeThread(() -> {
            try (DeterministicRuntime rt = new DeterministicRuntime()) {
                List<Schedule> failing = failingSchedules(rt, p);
                assertTrue(failing.size() > 10, "many failing schedules: " + failing.size());
                Minimiser.Measure smallest = null;
                Minimiser.Measure largest = null;
                Schedule worst = null;
                for (Schedule s : failing) {
                    Minimiser.Measure m = Minimiser.measure(rt, p, Kconfig.defaults(), ModelCheck.DEFAULT_STEPS, s);
                    assertNotNull(m);
                    if (smallest == null || m.compareTo(smallest) < 0) {
                        smallest = m;
                    }
                    if (largest == null || m.compareTo(largest) > 0) {
                        largest = m;
                        worst = s;
                    }
                }
                // By hand: t1 runs to its second write, t2 runs and fails: one preemption; the
                // first pick and the preemption are the switches.
                assertEquals(1, smallest.preemptions());
                assertEquals(2, smallest.switches());
                assertTrue(largest.compareTo(smallest) > 0);
                Minimiser.Result r = Minimiser.minimise(rt, p, Kconfig.defaults(), ModelCheck.DEFAULT_STEPS, worst,
                        ViolationKind.BUG_ON, Minimiser.DEFAULT_BUDGET);
                assertEquals(largest, r.found());
                assertEquals(smallest, r.minimised(), () -> "from " + r.found() + " in " + r.replays() + " replays");
                ExecutionResult again = rt.execute(p, new kmodel.explorer.search.ReplayStrategy(r.schedule()),
                        Kconfig.defaults(), ModelCheck.DEFAULT_STEPS, false, false);
                assertEquals(ViolationKind.BUG_ON, again.violation().kind(), "the minimised schedule replays exactly");
                // And from every other failing schedule, never larger than where it started.
                for (Schedule s : failing) {
                    Minimiser.Result each = Minimiser.minimise(rt, p, Kconfig.defaults(), ModelCheck.DEFAULT_STEPS, s,
                            ViolationKind.BUG_ON, Minimiser.DEFAULT_BUDGET);
                    assertTrue(each.minimised().compareTo(each.found()) <= 0);
                    assertEquals(smallest, each.minimised(), () -> "from " + each.found());
                }
            }
            return null;
        });
    }

    @Test
    void anUnboundedSearchPrintsTheMinimisedCounterexample() {
        Scenario<?> s = window();
        CheckResult found = ModelCheck.exhaustive(s).preemptions(ModelCheck.UNBOUNDED).reduction(false).minimise(0).run();
        CheckResult minimised = ModelCheck.exhaustive(s).preemptions(ModelCheck.UNBOUNDED).reduction(false).run();
        Minimiser.Measure before = measure(s, found.token());
        Minimiser.Measure after = measure(s, minimised.token());
        assertTrue(after.compareTo(before) < 0, before + " -> " + after);
        assertEquals(1, after.preemptions());
        assertEquals(2, after.switches());
        assertEquals(found.kind(), minimised.kind());
    }

    /**
     * The forgotten put leaks in a schedule without preemptions (bounded search finds it at
     * bound 0); the reduced unbounded search happens to find it with one. Minimised, it has none.
     */
    @Test
    void aPreemptionTheBugDoesNotNeedIsRemoved() {
        Scenario<?> s = ScenarioRegistry.everything().get("textbook-refcount");
        Kconfig config = Kconfig.defaults().withBug(BugCatalog.TEXTBOOK_FORGOTTEN_PUT);
        CheckResult bounded = ModelCheck.exhaustive(s).config(config).preemptions(0).minimise(0).run();
        assertEquals(ViolationKind.REF_LEAK, bounded.kind(), bounded::summaryLine);
        CheckResult found = ModelCheck.exhaustive(s).config(config).preemptions(ModelCheck.UNBOUNDED).minimise(0).run();
        CheckResult minimised = ModelCheck.exhaustive(s).config(config).preemptions(ModelCheck.UNBOUNDED).run();
        Minimiser.Measure before = measure(s, found.token());
        Minimiser.Measure after = measure(s, minimised.token());
        assertEquals(ViolationKind.REF_LEAK, minimised.kind(), minimised::summaryLine);
        assertTrue(after.compareTo(before) <= 0, before + " -> " + after);
        assertEquals(0, after.preemptions(), before + " -> " + after);
        assertTrue(after.compareTo(measure(s, bounded.token())) <= 0, "no larger than bound 0's first find");
    }

    private static Minimiser.Measure measure(Scenario<?> s, String token) {
        Schedule schedule = ReplayToken.decode(token).schedule();
        Kconfig config = KconfigTable.parseCanonical(ReplayToken.decode(token).config());
        return DeterministicRuntime.callOnRuntimeThread(() -> {
            try (DeterministicRuntime rt = new DeterministicRuntime()) {
                return Minimiser.measure(rt, s.program(), config, ModelCheck.DEFAULT_STEPS, schedule);
            }
        });
    }

    @Test
    void onCatalogBugsTheCounterexampleIsNoLargerAndReplaysToTheSameKind() {
        ScenarioRegistry registry = ScenarioRegistry.everything();
        String[] ids = {BugCatalog.TEXTBOOK_CHECK_THEN_SLEEP, kmodel.mm.FilemapBugs.HANDOFF_FORGETS_DONE,
                kmodel.mm.FilemapBugs.ASYNC_WAIT_CHECK_BEFORE_ADD};
        for (String id : ids) {
            CatalogBug bug = BugCatalog.find(id);
            Scenario<?> s = registry.get(bug.scenario());
            Kconfig config = bug.impliedSettings(Kconfig.defaults()).withBug(id);
            CheckResult found = ModelCheck.exhaustive(s).config(config).minimise(0).run();
            CheckResult minimised = ModelCheck.exhaustive(s).config(config).run();
            assertEquals(bug.kind(), found.kind(), found::summaryLine);
            assertEquals(bug.kind(), minimised.kind(), minimised::summaryLine);
            assertTrue(minimised.violation().getMessage().contains(bug.signature()), minimised.violation().getMessage());
            Minimiser.Measure before = measure(s, found.token());
            Minimiser.Measure after = measure(s, minimised.token());
            assertTrue(after.compareTo(before) <= 0, id + ": " + before + " -> " + after);
            ModelCheck.Replay replay = ModelCheck.replay(minimised.token(), registry, false);
            assertEquals(bug.kind(), replay.violation().kind(), id);
            assertEquals(minimised.diagram(), replay.diagram(), id + ": the token replays the printed diagram");
        }
    }
}
