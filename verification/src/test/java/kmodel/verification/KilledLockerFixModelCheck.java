package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;
import kmodel.mm.MmOptions;
import kmodel.verification.catalog.BugCatalog;
import kmodel.verification.catalog.CatalogBug;
import kmodel.verification.scenarios.PageLockScenarios;
import kmodel.verification.scenarios.SwarmScenarios;
import kmodel.verification.world.Scenario;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The finding {@code finding-killed-locker-strands-waiter} and its candidate fix
 * {@code PAGE_LOCK_WOKEN_KILLED_TRYLOCK} (docs/findings/killed-locker-strands-waiter.md): the
 * finding fails on the defaults and in the larger killed-locker worlds; with the fix on at the
 * kernel's default unfairness (5) the finding's world, every page-lock scenario and the larger
 * worlds pass, within the bound each test names; the fix brings back no catalog bug (each
 * page-lock one is still found with it on; the others cannot meet it, see
 * {@link #bugsTheFixCouldAffect}); and the v5.7 protocol loses the wake-up too, in a five-task
 * world (the report of 20200624161142.GA12184@redhat.com), which the README once said it did not.
 * Strength: exhaustive with DPOR within the preemption bound named, or sampled where it says
 * {@code random}.
 */
@Tag("modelcheck")
class KilledLockerFixModelCheck {

    /** The fix at the kernel's default unfairness budget, laid over each scenario's own settings. */
    private static Kconfig fixed() {
        return KconfigTable.build(List.of("PAGE_LOCK_WOKEN_KILLED_TRYLOCK=y", "PAGE_LOCK_UNFAIRNESS=5"), List.of());
    }

    private static Kconfig set(String... sets) {
        return KconfigTable.build(List.of(sets), List.of());
    }

    private static CheckResult bounded(String scenario, Kconfig cfg, int preemptions) {
        Scenario<?> s = ScenarioRegistry.everything().get(scenario);
        return ModelCheck.exhaustive(s).preemptions(preemptions).config(cfg).run();
    }

    private static void assertStrands(CheckResult r, String sleeper) {
        assertEquals(ViolationKind.MISSED_WAKEUP, r.kind(), r::summaryLine);
        assertTrue(r.violation().getMessage().startsWith(sleeper + " sleeps in TASK_UNINTERRUPTIBLE waiting on " + sleeper
                + ".wait_page"), r.violation()::getMessage);
    }

    @Test
    void theFindingStrandsTheOtherLockerOnTheDefaults() {
        CheckResult r = bounded("finding-killed-locker-strands-waiter", Kconfig.defaults(), 2);
        assertStrands(r, "locker");
        assertTrue(r.diagram().contains("wake_page_function(killable.wait_page)"), r::diagram);
        assertTrue(r.diagram().contains("lock_page_killable = -EINTR"), r::diagram);
    }

    /**
     * With the fix, the killed locker either leaves without having been picked (-EINTR) or takes
     * the lock it was woken for (0), and nobody is stranded: complete to preemption bound 2.
     */
    @Test
    void withTheFixTheFindingsWorldPassesAtTheDefaultUnfairness() {
        CheckResult r = bounded("finding-killed-locker-strands-waiter", fixed(), 2);
        assertTrue(r.passed(), r::summaryLine);
        assertEquals(Set.of("-EINTR", "0"), new TreeSet<>(r.outcomes()), r::summaryLine);
    }

    /** The fix is off by default: it is in no kernel. */
    @Test
    void theFixIsOffByDefault() {
        assertEquals(0L, Kconfig.defaults().value(MmOptions.PAGE_LOCK_WOKEN_KILLED_TRYLOCK));
        assertNotNull(KconfigTable.find("PAGE_LOCK_WOKEN_KILLED_TRYLOCK"));
    }

    /** Every page-lock scenario, the fix on, unfairness 5: complete to the bound named. */
    @TestFactory
    Stream<DynamicTest> everyPageLockScenarioPassesWithTheFixAtTheDefaultUnfairness() {
        Object[][] checks = {
            {"page-lock-stealer", 2},
            {"page-lock-killable-writeback", 2},
            {"async-page-lock", 2},
            {"page-wait-collisions", 2},
            {"writeback-free-reuse", 2},
            {"page-lock-crowd", ModelCheck.UNBOUNDED},
        };
        return Stream.of(checks).map(c -> DynamicTest.dynamicTest(c[0] + " bound " + c[1], () -> {
            CheckResult r = bounded((String) c[0], fixed(), (Integer) c[1]);
            assertTrue(r.passed(), r::summaryLine);
            assertEquals(5L, r.config().value(MmOptions.PAGE_LOCK_UNFAIRNESS), r::summaryLine);
        }));
    }

    /** The page-lock scenarios: those PageLockScenarios registers (standard, large and findings). */
    static ScenarioRegistry pageLockScenarios() {
        ScenarioRegistry r = new ScenarioRegistry();
        PageLockScenarios.registerAll(r);
        PageLockScenarios.registerLarge(r);
        PageLockScenarios.registerFindings(r);
        return r;
    }

    /**
     * The catalog bugs the fix could affect: those whose scenario is a page-lock one. The others
     * cannot be affected, and are not re-run here: the fix acts only in an exclusive page wait
     * ({@code lock_page()}, {@code lock_page_killable()}) that its waiter left on a signal, where
     * the wait entry is WOKEN without DONE after {@code finish_wait()}; otherwise it returns at its
     * first test, and every step of every execution is as without it. Such a wait needs a fatal
     * signal ({@code lock_page()} sleeps TASK_UNINTERRUPTIBLE, {@code lock_page_killable()}
     * TASK_KILLABLE, and only SIGKILL is modelled as fatal), and only the page-lock scenarios
     * (and swarm recipes, which the catalog does not name) send one
     * ({@link #onlyThePageLockScenariosAndSwarmRecipesSendAFatalSignal}).
     */
    static List<CatalogBug> bugsTheFixCouldAffect() {
        ScenarioRegistry pageLock = pageLockScenarios();
        List<CatalogBug> out = new ArrayList<>();
        for (CatalogBug b : BugCatalog.all()) {
            if (pageLock.find(b.scenario()) != null) {
                out.add(b);
            }
        }
        return out;
    }

    /** The fix brings back no page-lock catalog bug: each is still found, with its kind and message, with the fix on. */
    @TestFactory
    Stream<DynamicTest> everyPageLockCatalogBugIsStillFoundWithTheFixOn() {
        ScenarioRegistry reg = ScenarioRegistry.everything();
        return bugsTheFixCouldAffect().stream().map(bug -> DynamicTest.dynamicTest(bug.id(), () -> {
            Kconfig cfg = KconfigTable.build(List.of("PAGE_LOCK_WOKEN_KILLED_TRYLOCK=y"), List.of(bug.id()));
            CheckResult r = ModelCheck.exhaustive(reg.get(bug.scenario())).config(cfg).run();
            assertEquals(bug.kind(), r.kind(), r::summaryLine);
            assertTrue(r.violation().getMessage().contains(bug.signature()), r.violation()::getMessage);
        }));
    }

    /** The page-lock catalog bugs, by id: the set the test above re-runs (a change to it is a decision). */
    @Test
    void thePageLockCatalogBugsAreTheSixOfThePageLockScenarios() {
        List<String> ids = new ArrayList<>();
        for (CatalogBug b : bugsTheFixCouldAffect()) {
            ids.add(b.id());
        }
        assertEquals(List.of("async-lock-not-trylock", "async-page-match-not-set", "exclusive-wait-signal-first",
                "handoff-forgets-done", "end-writeback-no-page-ref", "wake-page-match-not-set"), ids);
    }

    /**
     * Why the other catalog bugs cannot be affected by the fix, checked on the model's classes:
     * a fatal signal is set only by {@code Sched.sendSigkill()} (the one write of
     * {@code Task.fatalSignal}), and only the page-lock scenarios and the swarm recipes call it.
     */
    @Test
    void onlyThePageLockScenariosAndSwarmRecipesSendAFatalSignal() {
        JavaClasses classes = modelClasses();
        assertEquals(List.of(), fatalSignalSendersOutside(classes, PageLockScenarios.class, SwarmScenarios.class));
    }

    private static JavaClasses modelClasses;

    /** The project's main classes (kernel to tools), imported once for the two checks below. */
    private static synchronized JavaClasses modelClasses() {
        if (modelClasses == null) {
            modelClasses = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("kmodel");
        }
        return modelClasses;
    }

    /**
     * The places of {@code classes} that make a signal fatal other than {@code Sched.sendSigkill()}
     * itself, and the callers of {@code Sched.sendSigkill()} outside {@code allowed} (and their
     * nested classes): each a line.
     */
    static List<String> fatalSignalSendersOutside(JavaClasses classes, Class<?>... allowed) {
        List<String> out = new ArrayList<>();
        for (JavaFieldAccess a : classes.get(Task.class).getField("fatalSignal").getAccessesToSelf()) {
            if (a.getAccessType() == JavaFieldAccess.AccessType.SET
                    && !(a.getOrigin().getOwner().isEquivalentTo(Sched.class) && a.getOrigin().getName().equals("sendSigkill"))) {
                out.add("sets Task.fatalSignal: " + a.getOrigin().getFullName());
            }
        }
        for (JavaMethodCall c : classes.get(Sched.class).getMethod("sendSigkill", Task.class).getCallsOfSelf()) {
            String owner = c.getOrigin().getOwner().getName();
            boolean ok = false;
            for (Class<?> a : allowed) {
                ok |= owner.equals(a.getName()) || owner.startsWith(a.getName() + "$");
            }
            if (!ok) {
                out.add("calls Sched.sendSigkill: " + c.getOrigin().getFullName());
            }
        }
        return out;
    }

    /** The check above can fail: with only the swarm recipes allowed, the page-lock scenarios' calls are named. */
    @Test
    void theFatalSignalCheckNamesACallerOutsideThoseAllowed() {
        JavaClasses classes = modelClasses();
        List<String> out = fatalSignalSendersOutside(classes, SwarmScenarios.class);
        assertFalse(out.isEmpty());
        for (String line : out) {
            assertTrue(line.startsWith("calls Sched.sendSigkill: " + PageLockScenarios.class.getName()), line);
        }
    }

    /**
     * The larger worlds: with a second plain locker, or with a lock stealer, the default v5.10
     * loses the wake-up within one preemption; with fair hand-off (their own setting,
     * unfairness 0) and with the fix they pass, complete to preemption bound 1.
     */
    @Test
    void inTheLargerWorldsTheDefaultStrandsALockerAndFairHandOffAndTheFixDoNot() {
        assertStrands(bounded("page-lock-killable-three", set("PAGE_LOCK_UNFAIRNESS=5"), 1), "locker1");
        assertStrands(bounded("page-lock-killable-stealer", set("PAGE_LOCK_UNFAIRNESS=5"), 1), "locker");
        for (String s : new String[] {"page-lock-killable-three", "page-lock-killable-stealer"}) {
            CheckResult fair = bounded(s, Kconfig.defaults(), 1);
            assertTrue(fair.passed(), fair::summaryLine);
            assertEquals(0L, fair.config().value(MmOptions.PAGE_LOCK_UNFAIRNESS), fair::summaryLine);
            CheckResult fix = bounded(s, fixed(), 1);
            assertTrue(fix.passed(), fix::summaryLine);
        }
    }

    /**
     * The v5.7 protocol loses the wake-up as well, in a five-task world (found by seeded random
     * search, a sampled result): the killable waiter sets TASK_KILLABLE, sees the lock free and
     * skips io_schedule(), loses test_and_set_bit_lock() to the first locker, whose unlock then
     * wakes it (it is still queued and "sleeping") as the walk's one exclusive wake-up; it returns
     * -EINTR and the second locker sleeps. Oleg Nesterov's report against v5.7,
     * 20200624161142.GA12184@redhat.com, answered by 2a9127fcf229 in v5.8.
     */
    @Test
    void theV57ProtocolStrandsALockerInTheFiveTaskWorld() {
        Scenario<?> s = ScenarioRegistry.everything().get("page-lock-killable-three");
        CheckResult r = ModelCheck.random(s).seed(1).executions(200_000).config(set("PAGE_WAIT_V57=y")).run();
        assertEquals(ViolationKind.MISSED_WAKEUP, r.kind(), r::summaryLine);
        assertTrue(r.violation().getMessage().contains(" sleeps in TASK_UNINTERRUPTIBLE waiting on locker"),
                r.violation()::getMessage);
        assertTrue(r.diagram().contains("lock_page_killable = -EINTR"), r::diagram);
    }
}
