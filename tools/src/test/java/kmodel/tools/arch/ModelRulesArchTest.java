package kmodel.tools.arch;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameStartingWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.collect.ImmutableList;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.TryCatchBlock;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Supplier;
import kmodel.explorer.CheckResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Keeps the model modules ({@code kernel} .. {@code io-uring}) in the JPF-safe subset of
 * DESIGN.md: no records, no streams, no {@code java.util.concurrent} beyond
 * {@code AtomicInteger} and {@code LockSupport}, no Guava, no {@code java.util.function}, no
 * dependency on the explorer, sim, verification or tools modules; and, from the model-module rules every
 * helper follows, no catching of {@code Throwable}/{@code Error}/{@code Exception}/
 * {@code RuntimeException}/{@code Violation} (which would swallow a violation or the runtime's
 * abort) and no static mutable state (which survives from one execution to the next and breaks
 * replay).
 *
 * <p>The runtime implementations {@code kmodel.kernel.sched.DeterministicRuntime*} and
 * {@code FreeRunningRuntime*} are exempt: they are the machinery under the model (threads,
 * reflection, {@code ThreadFactory}, {@code Supplier}, catching what tasks throw), not model code.
 * So are the static fields through which model code reaches the runtime of the current execution:
 * {@code Kernel.rt}, which the runtime sets at the start of every execution, and
 * {@code Kernel.sole}, the one runtime bound to its own threads while there is only one (runtimes
 * that run side by side bind their threads through a final {@code ThreadLocal}); and
 * {@code FieldAudit.sink}, set only by the footprint audit inside its own class loader.
 *
 * <p>The free-running harnesses ({@code kmodel.verification.harness}) run under Java PathFinder,
 * and with them everything they load: {@code Scenario} and {@code ScenarioSet}
 * ({@code kmodel.verification.world}), the scenarios, the worlds they share with the simulation
 * ({@code kmodel.sim.world}), the explorer's {@code CheckTarget} (an interface {@code Scenario}
 * implements) and {@code FreeRunningRuntime} ({@link #HARNESS_RUNTIME}). Those keep to the JPF-safe rules
 * too ({@link #HARNESS_RULES}: no records, streams, Guava, {@code java.util.concurrent} beyond
 * the two, static mutable state or {@code String.join}), and load nothing of the explorer, the
 * bug catalog or the deterministic runtime; lambdas and {@code java.util.function} are allowed
 * there. {@code String.join} is also kept out of the model.
 *
 * <p>It lives in {@code tools}, the one module whose test classpath holds every module, beside
 * {@link LayersArchTest}.
 *
 * <p>A rule that cannot fail proves nothing (and an importer pointed at the wrong classpath
 * finds nothing): each rule is also evaluated against a test-only canary class that breaks it
 * and must be reported, and against canaries that break the other rules and must not be.
 */
@Tag("arch")
class ModelRulesArchTest {
    /** The packages of the model modules. */
    static final String[] MODEL_PACKAGES = {
        "kmodel.kernel..", "kmodel.mm..", "kmodel.block..", "kmodel.fs..", "kmodel.iouring.."
    };

    /** The runtime implementations, exempt from the model rules. */
    static final DescribedPredicate<JavaClass> RUNTIME_IMPLEMENTATION = DescribedPredicate.describe(
            "a runtime implementation (kmodel.kernel.sched.DeterministicRuntime*, FreeRunningRuntime*)",
            c -> nameStartingWith("kmodel.kernel.sched.DeterministicRuntime").test(c)
                    || nameStartingWith("kmodel.kernel.sched.FreeRunningRuntime").test(c));

    /** Model classes: the model packages without the runtime implementations. */
    static final DescribedPredicate<JavaClass> MODEL = resideInAnyPackage(MODEL_PACKAGES)
            .and(not(RUNTIME_IMPLEMENTATION))
            .as("model classes (" + String.join(", ", MODEL_PACKAGES) + ", except the runtime implementations)");

    /** Caught types that would also catch a Violation or the runtime's abort error. */
    static final Set<String> SWALLOWING = Set.of("java.lang.Throwable", "java.lang.Error", "java.lang.Exception",
            "java.lang.RuntimeException", "kmodel.kernel.Violation");

    /** Static fields the runtime sets for each execution: how model code finds the current runtime. */
    static final Set<String> RUNTIME_INSTALLATION_POINTS = Set.of("kmodel.kernel.Kernel.rt",
            "kmodel.kernel.Kernel.sole", "kmodel.kernel.sched.FieldAudit.sink");

    /** One rule of the subset, applicable to any set of classes (the model, or a canary). */
    private static final class Rule {
        final String name;
        final Function<DescribedPredicate<? super JavaClass>, ArchRule> forScope;

        Rule(String name, Function<DescribedPredicate<? super JavaClass>, ArchRule> forScope) {
            this.name = name;
            this.forScope = forScope;
        }

        ArchRule on(DescribedPredicate<? super JavaClass> scope) {
            return forScope.apply(scope);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static final Rule NO_RECORDS = new Rule("no records", scope -> noClasses().that(scope)
            .should().beAssignableTo(Record.class)
            .because("JPF silently stops a thread inside a record's generated equals/hashCode/toString"));

    static final Rule NO_STREAMS = new Rule("no streams", scope -> noClasses().that(scope)
            .should().dependOnClassesThat().resideInAPackage("java.util.stream..")
            .because("JPF fails on streams and collectors (Collectors.joining)"));

    static final Rule NO_CONCURRENT = new Rule("no java.util.concurrent beyond AtomicInteger and LockSupport",
            scope -> noClasses().that(scope)
                    .should().dependOnClassesThat(resideInAPackage("java.util.concurrent..")
                            .and(not(type(AtomicInteger.class)))
                            .and(not(type(LockSupport.class)))
                            .as("java.util.concurrent.. other than AtomicInteger and LockSupport"))
                    .because("JPF fails on VarHandle-based classes, Condition, BlockingQueue, AtomicLong, AtomicReference"));

    static final Rule NO_GUAVA = new Rule("no Guava", scope -> noClasses().that(scope)
            .should().dependOnClassesThat().resideInAPackage("com.google.common..")
            .because("the model modules stay in the JPF-safe subset (Guava is for verification and tools)"));

    static final Rule NO_FUNCTION = new Rule("no java.util.function", scope -> noClasses().that(scope)
            .should().dependOnClassesThat().resideInAPackage("java.util.function..")
            .because("model code is straight kernel-style Java; functional plumbing belongs to the runtime and the verifier"));

    static final Rule NO_UPWARD_DEPENDENCY = new Rule("no dependency on explorer, sim, verification or tools",
            scope -> noClasses().that(scope)
                    .should().dependOnClassesThat().resideInAnyPackage("kmodel.explorer..", "kmodel.sim..",
                            "kmodel.verification..", "kmodel.tools..")
                    .because("dependencies point one way: kernel <- ... <- io-uring <- sim, verification <- tools; "
                            + "kernel <- explorer <- verification"));

    static final Rule NO_SWALLOWING_CATCH = new Rule("no catching Throwable, Error, Exception, RuntimeException or Violation",
            scope -> noClasses().that(scope)
                    .should(catchAnyOf(SWALLOWING))
                    .because("a model that catches these swallows violations and the runtime's abort"));

    static final Rule NO_STATIC_MUTABLE_STATE = new Rule("no static mutable state",
            scope -> fields().that().areDeclaredInClassesThat(scope)
                    .and().areStatic()
                    .and(DescribedPredicate.describe("are not a runtime installation point "
                            + RUNTIME_INSTALLATION_POINTS, f -> !RUNTIME_INSTALLATION_POINTS.contains(f.getFullName())))
                    .should().beFinal()
                    .allowEmptyShould(true)
                    .because("static state survives from one execution to the next and breaks replay"));

    static final Rule NO_STRING_JOIN = new Rule("no String.join", scope -> noClasses().that(scope)
            .should().callMethod(String.class, "join", CharSequence.class, Iterable.class)
            .orShould().callMethod(String.class, "join", CharSequence.class, CharSequence[].class)
            .because("JPF fails on String.join (DESIGN.md): join by hand (kmodel.sim.world.Texts)"));

    static final Rule NO_FOUR_ARGUMENT_THROWABLE = new Rule("no four-argument Throwable constructor",
            scope -> noClasses().that(scope)
                    .should().callConstructor(Throwable.class, String.class, Throwable.class, boolean.class, boolean.class)
                    .orShould().callConstructor(Exception.class, String.class, Throwable.class, boolean.class, boolean.class)
                    .orShould().callConstructor(RuntimeException.class, String.class, Throwable.class, boolean.class, boolean.class)
                    .orShould().callConstructor(Error.class, String.class, Throwable.class, boolean.class, boolean.class)
                    .because("JPF's Throwable has no (String, Throwable, boolean, boolean) constructor: under JPF the "
                            + "call is a NoSuchMethodException (found by mvn -Pjpf verify); for a stackless throwable "
                            + "override fillInStackTrace()"));

    static final List<Rule> RULES = ImmutableList.of(NO_RECORDS, NO_STREAMS, NO_CONCURRENT, NO_GUAVA, NO_FUNCTION,
            NO_UPWARD_DEPENDENCY, NO_SWALLOWING_CATCH, NO_STATIC_MUTABLE_STATE, NO_STRING_JOIN,
            NO_FOUR_ARGUMENT_THROWABLE);

    // ------------------------------------------------------------------ the free-running harnesses

    /**
     * What the free-running harnesses load at run time, besides the model: the harness package,
     * {@code Scenario} and {@code ScenarioSet}, the scenarios, the worlds of {@code kmodel.sim.world},
     * the explorer's {@code CheckTarget} (loaded as {@code Scenario}'s interface), and the
     * free-running runtime.
     * JPF runs all of it, so it keeps to the JPF-safe subset too ({@link #HARNESS_RULES}), except
     * that lambdas and {@code java.util.function} are allowed (JPF handles them).
     */
    static final DescribedPredicate<JavaClass> HARNESS_RUNTIME = DescribedPredicate.describe(
            "the harnesses' run-time classes (kmodel.verification.harness.., kmodel.verification.scenarios.., "
                    + "kmodel.verification.world.., kmodel.sim.world.., kmodel.explorer.CheckTarget, "
                    + "kmodel.kernel.sched.FreeRunningRuntime*)",
            c -> resideInAnyPackage("kmodel.verification.harness..", "kmodel.verification.scenarios..",
                    "kmodel.verification.world..", "kmodel.sim.world..").test(c)
                    || c.getName().equals("kmodel.explorer.CheckTarget")
                    || nameStartingWith("kmodel.kernel.sched.FreeRunningRuntime").test(c));

    /**
     * Breaks the harnesses' isolation: the explorer's machinery, the bug catalog (Guava) or the
     * deterministic runtime (reflection, {@code ThreadFactory}) loaded by a harness.
     */
    static final Rule NO_EXPLORER = new Rule("no explorer, catalog or deterministic runtime",
            scope -> noClasses().that(scope)
                    .should().dependOnClassesThat(DescribedPredicate.describe(
                            "explorer, sim, verification or tools classes outside the harnesses' run-time classes, "
                                    + "or DeterministicRuntime",
                            (JavaClass c) -> (resideInAnyPackage("kmodel.explorer..", "kmodel.sim..",
                                    "kmodel.verification..", "kmodel.tools..").test(c)
                                    && !HARNESS_RUNTIME.test(c))
                                    || nameStartingWith("kmodel.kernel.sched.DeterministicRuntime").test(c)))
                    .because("JPF runs the harnesses: the catalog uses Guava, the explorer and the deterministic "
                            + "runtime threads, reflection and java.util.concurrent"));

    static final List<Rule> HARNESS_RULES = ImmutableList.of(NO_RECORDS, NO_STREAMS, NO_CONCURRENT, NO_GUAVA,
            NO_STATIC_MUTABLE_STATE, NO_STRING_JOIN, NO_EXPLORER, NO_FOUR_ARGUMENT_THROWABLE);

    private static JavaClasses imported;
    private static JavaClasses canaries;

    @BeforeAll
    static void importTheModel() {
        imported = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("kmodel");
        List<Class<?>> all = new ArrayList<>(CANARIES);
        all.add(CanaryAllowed.class);
        all.add(CanaryCatalog.class);
        canaries = new ClassFileImporter().importClasses(all);
    }

    private static ArchCondition<JavaClass> catchAnyOf(Set<String> forbidden) {
        return new ArchCondition<JavaClass>("catch " + String.join(", ", forbidden)) {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                for (JavaCodeUnit unit : c.getCodeUnits()) {
                    for (TryCatchBlock block : unit.getTryCatchBlocks()) {
                        for (JavaClass caught : block.getCaughtThrowables()) {
                            if (forbidden.contains(caught.getName())) {
                                events.add(SimpleConditionEvent.satisfied(c, unit.getFullName() + " catches "
                                        + caught.getName() + " in " + block.getSourceCodeLocation()));
                            }
                        }
                    }
                }
            }
        };
    }

    // ------------------------------------------------------------------ the model obeys every rule

    @Test
    void theImportSeesTheModelModulesAndExemptsOnlyTheRuntimeImplementations() {
        List<String> model = new ArrayList<>();
        List<String> exempt = new ArrayList<>();
        for (JavaClass c : imported) {
            if (MODEL.test(c)) {
                model.add(c.getName());
            } else if (RUNTIME_IMPLEMENTATION.test(c)) {
                exempt.add(c.getName());
            }
        }
        assertTrue(model.contains("kmodel.kernel.wait.Wait"), "kernel classes are imported");
        assertTrue(model.contains("kmodel.kernel.sched.Sched"), "kernel.sched model classes are not exempt");
        assertTrue(model.contains("kmodel.mm.Page"), "mm classes are imported");
        assertTrue(exempt.contains("kmodel.kernel.sched.DeterministicRuntime"), exempt::toString);
        assertTrue(exempt.contains("kmodel.kernel.sched.FreeRunningRuntime"), exempt::toString);
        for (String e : exempt) {
            assertTrue(e.startsWith("kmodel.kernel.sched.DeterministicRuntime")
                    || e.startsWith("kmodel.kernel.sched.FreeRunningRuntime"), e);
        }
        for (JavaClass c : imported) {
            assertFalse(MODEL.test(c) && c.getPackageName().startsWith("kmodel.verification"), c::getName);
        }
    }

    @Test
    void modelClassesAreNotRecords() {
        NO_RECORDS.on(MODEL).check(imported);
    }

    @Test
    void modelClassesDoNotUseStreams() {
        NO_STREAMS.on(MODEL).check(imported);
    }

    @Test
    void modelClassesUseNoJavaUtilConcurrentBeyondAtomicIntegerAndLockSupport() {
        NO_CONCURRENT.on(MODEL).check(imported);
    }

    @Test
    void modelClassesDoNotUseGuava() {
        NO_GUAVA.on(MODEL).check(imported);
    }

    @Test
    void modelClassesDoNotUseJavaUtilFunction() {
        NO_FUNCTION.on(MODEL).check(imported);
    }

    @Test
    void modelClassesDoNotDependOnVerificationOrTools() {
        NO_UPWARD_DEPENDENCY.on(MODEL).check(imported);
    }

    @Test
    void modelClassesDoNotCatchViolationsOrTheirSupertypes() {
        NO_SWALLOWING_CATCH.on(MODEL).check(imported);
    }

    @Test
    void modelClassesHaveNoStaticMutableState() {
        NO_STATIC_MUTABLE_STATE.on(MODEL).check(imported);
    }

    @Test
    void modelClassesDoNotCallStringJoin() {
        NO_STRING_JOIN.on(MODEL).check(imported);
    }

    @Test
    void modelClassesDoNotCallTheFourArgumentThrowableConstructor() {
        NO_FOUR_ARGUMENT_THROWABLE.on(MODEL).check(imported);
    }

    @Test
    void theHarnessScopeHoldsWhatTheHarnessesLoad() {
        List<String> scope = new ArrayList<>();
        for (JavaClass c : imported) {
            if (HARNESS_RUNTIME.test(c)) {
                scope.add(c.getName());
            }
        }
        for (String n : List.of("kmodel.verification.harness.Harness", "kmodel.verification.harness.Harnesses",
                "kmodel.verification.harness.FreeRun", "kmodel.verification.world.Scenario",
                "kmodel.verification.world.Scenario$Builder", "kmodel.verification.world.ScenarioSet",
                "kmodel.verification.scenarios.PageLockScenarios", "kmodel.verification.scenarios.TextbookScenarios",
                "kmodel.sim.world.AsyncRetry", "kmodel.sim.world.Texts", "kmodel.explorer.CheckTarget",
                "kmodel.kernel.sched.FreeRunningRuntime")) {
            assertTrue(scope.contains(n), () -> n + " in " + scope);
        }
        for (String n : List.of("kmodel.verification.catalog.BugCatalog", "kmodel.explorer.ModelCheck",
                "kmodel.explorer.Targets", "kmodel.verification.ScenarioRegistry", "kmodel.verification.KconfigTable",
                "kmodel.sim.Simulator",
                "kmodel.kernel.sched.DeterministicRuntime")) {
            assertFalse(scope.contains(n), n);
        }
    }

    @Test
    void theHarnessesKeepToTheJpfSafeSubset() {
        for (Rule r : HARNESS_RULES) {
            r.on(HARNESS_RUNTIME).check(imported);
        }
    }

    // ------------------------------------------------------------------ canaries: every rule can fail

    /** Breaks NO_RECORDS. */
    record CanaryRecord(int pages) {
    }

    /** Breaks NO_STREAMS. */
    static final class CanaryStream {
        static int sum(int[] a) {
            return Arrays.stream(a).sum();
        }
    }

    /** Breaks NO_CONCURRENT. */
    static final class CanaryConcurrent {
        final ConcurrentHashMap<String, Integer> pages = new ConcurrentHashMap<>();
    }

    /** Breaks NO_GUAVA. */
    static final class CanaryGuava {
        final ImmutableList<String> names = ImmutableList.of("P0", "P1");
    }

    /** Breaks NO_FUNCTION. */
    static final class CanaryFunction {
        final Supplier<String> name = () -> "bio0";
    }

    /** Breaks NO_UPWARD_DEPENDENCY. */
    static final class CanaryUpward {
        static String name(CheckResult r) {
            return r.scenario();
        }
    }

    /** Breaks NO_SWALLOWING_CATCH. */
    static final class CanaryCatch {
        static void run(Runnable body) {
            try {
                body.run();
            } catch (RuntimeException e) {
                return;
            }
        }
    }

    /** Breaks NO_STATIC_MUTABLE_STATE. */
    static final class CanaryStatic {
        static int nextBio;

        static String name() {
            return "bio" + nextBio++;
        }
    }

    /** Breaks NO_STRING_JOIN. */
    static final class CanaryJoin {
        static String names(List<String> pages) {
            return String.join(",", pages);
        }
    }

    /** Breaks NO_EXPLORER (and, as a model class, NO_UPWARD_DEPENDENCY: it is not in the model matrix). */
    static final class CanaryCatalog {
        static boolean known(String id) {
            return kmodel.verification.catalog.BugCatalog.find(id) != null;
        }
    }

    /** Breaks NO_FOUR_ARGUMENT_THROWABLE. */
    static final class CanaryStackless extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CanaryStackless() {
            super("stackless", null, false, false);
        }
    }

    /** Breaks nothing: the allowed concurrency classes, a narrow catch, static final constants. */
    static final class CanaryAllowed {
        static final int PAGE_SIZE = 4096;
        final AtomicInteger refs = new AtomicInteger(1);

        void wake(Thread t) {
            LockSupport.unpark(t);
        }

        static int parse(String s) {
            try {
                return Integer.parseInt(s);
            } catch (NumberFormatException e) {
                return -PAGE_SIZE;
            }
        }
    }

    /** The canary that breaks {@code RULES.get(i)}, in the same order. */
    static final List<Class<?>> CANARIES = List.of(CanaryRecord.class, CanaryStream.class, CanaryConcurrent.class,
            CanaryGuava.class, CanaryFunction.class, CanaryUpward.class, CanaryCatch.class, CanaryStatic.class,
            CanaryJoin.class, CanaryStackless.class);

    /** The canary that breaks {@code HARNESS_RULES.get(i)}, in the same order. */
    static final List<Class<?>> HARNESS_CANARIES = List.of(CanaryRecord.class, CanaryStream.class,
            CanaryConcurrent.class, CanaryGuava.class, CanaryStatic.class, CanaryJoin.class, CanaryCatalog.class,
            CanaryStackless.class);

    private static boolean violates(Rule rule, Class<?> canary) {
        return rule.on(type(canary)).evaluate(canaries).hasViolation();
    }

    @Test
    void everyRuleReportsItsCanaryAndOnlyItsCanary() {
        assertEquals(RULES.size(), CANARIES.size());
        for (int r = 0; r < RULES.size(); r++) {
            for (int c = 0; c < CANARIES.size(); c++) {
                assertEquals(r == c, violates(RULES.get(r), CANARIES.get(c)),
                        "rule '" + RULES.get(r) + "' on " + CANARIES.get(c).getSimpleName());
            }
            assertFalse(violates(RULES.get(r), CanaryAllowed.class), "rule '" + RULES.get(r) + "' on CanaryAllowed");
        }
    }

    @Test
    void everyHarnessRuleReportsItsCanaryAndOnlyItsCanary() {
        assertEquals(HARNESS_RULES.size(), HARNESS_CANARIES.size());
        for (int r = 0; r < HARNESS_RULES.size(); r++) {
            for (int c = 0; c < HARNESS_CANARIES.size(); c++) {
                assertEquals(r == c, violates(HARNESS_RULES.get(r), HARNESS_CANARIES.get(c)),
                        "rule '" + HARNESS_RULES.get(r) + "' on " + HARNESS_CANARIES.get(c).getSimpleName());
            }
            assertFalse(violates(HARNESS_RULES.get(r), CanaryAllowed.class), "rule '" + HARNESS_RULES.get(r) + "' on CanaryAllowed");
            // lambdas and java.util.function are fine where JPF runs
            assertFalse(violates(HARNESS_RULES.get(r), CanaryFunction.class), "rule '" + HARNESS_RULES.get(r) + "' on CanaryFunction");
        }
    }

    @Test
    void withoutTheRuntimeExemptionTheRuntimeImplementationsWouldBreakTheRules() {
        DescribedPredicate<JavaClass> everything = resideInAnyPackage(MODEL_PACKAGES);
        EvaluationResult function = NO_FUNCTION.on(everything).evaluate(imported);
        assertTrue(function.hasViolation());
        assertTrue(function.getFailureReport().toString().contains("DeterministicRuntime"),
                () -> function.getFailureReport().toString());
        EvaluationResult concurrent = NO_CONCURRENT.on(everything).evaluate(imported);
        assertTrue(concurrent.getFailureReport().toString().contains("ThreadFactory"),
                () -> concurrent.getFailureReport().toString());
        assertTrue(NO_SWALLOWING_CATCH.on(everything).evaluate(imported).hasViolation());
    }

    @Test
    void theRecordRuleRecognisesRecordsByTheirSupertype() {
        assertTrue(assignableTo(Record.class).test(canaries.get(CanaryRecord.class)));
        assertFalse(assignableTo(Record.class).test(canaries.get(CanaryAllowed.class)));
    }
}
