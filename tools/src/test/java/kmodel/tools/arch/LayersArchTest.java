package kmodel.tools.arch;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import kmodel.tools.arch.canary.explorer.CanaryExplorerUsesMm;
import kmodel.tools.arch.canary.explorer.CanaryModelCheck;
import kmodel.tools.arch.canary.explorer.search.CanarySearchUsesModelCheck;
import kmodel.tools.arch.canary.explorer.trace.CanaryToken;
import kmodel.tools.arch.canary.mm.CanaryPage;
import kmodel.tools.arch.canary.sim.CanarySimulator;
import kmodel.tools.arch.canary.sim.world.CanaryWorldUsesSimulator;
import kmodel.tools.arch.canary.tools.CanaryCommand;
import kmodel.tools.arch.canary.tools.fio.CanaryFioUsesCommand;
import kmodel.tools.arch.canary.verification.CanaryRegistry;
import kmodel.tools.arch.canary.verification.CanaryVerificationUsesExplorer;
import kmodel.tools.arch.canary.verification.scenarios.CanaryScenariosUseRegistry;
import kmodel.tools.arch.canary.verification.world.CanaryScenario;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The house (issue 24): the module graph, and the layers of the packages inside each module, with
 * no import running back up a layer.
 *
 * <pre>
 * kernel &lt;- mm-filemap &lt;- block &lt;- fs-btrfs &lt;- io-uring &lt;- sim &lt;- verification &lt;- tools
 * kernel &lt;- explorer &lt;- verification
 * </pre>
 *
 * Every module has root packages of its own ({@link #MODULES}), so that a package never spans two
 * modules. Inside the modules this split made, bottom up:
 * <ul>
 *   <li>explorer: {@code kmodel.explorer.search} (strategies, DPOR, the minimiser, schedules) &lt;
 *       {@code kmodel.explorer.trace} (diagrams, replay tokens) &lt; {@code kmodel.explorer} (the
 *       API: {@code ModelCheck}, {@code SplitExplorer}, results, {@code CheckTarget});</li>
 *   <li>sim: {@code kmodel.sim.world} (the worlds it shares with the scenarios) &lt;
 *       {@code kmodel.sim} (the simulation, the cost model, the reproduction);</li>
 *   <li>verification: {@code kmodel.verification.catalog} and {@code kmodel.verification.world}
 *       ({@code Scenario}, {@code ScenarioSet}) &lt; {@code kmodel.verification.scenarios} &lt;
 *       {@code kmodel.verification.harness} and {@code kmodel.verification} (the registry, the
 *       Kconfig table, swarm), which do not use each other;</li>
 *   <li>tools: {@code kmodel.tools.fio}, {@code .report}, {@code .xref}, {@code .litmus} &lt; {@code kmodel.tools}
 *       (the commands) &lt; {@code kmodel.tools.jmh_generated} (JMH's code around
 *       {@code kmodel bench}'s benchmark).</li>
 * </ul>
 * Maven already keeps a module from compiling against one above it; the rules say so again, and
 * say it of the packages, which Maven cannot see.
 *
 * <p>A rule that cannot fail proves nothing: each rule is built over a root package, and is also
 * evaluated over {@code kmodel.tools.arch.canary}, where a canary class imports one layer up and
 * must be reported, and a canary that imports down must not be.
 */
@Tag("arch")
class LayersArchTest {
    /** Each module's root packages, bottom up. */
    static final Map<String, List<String>> MODULES = new LinkedHashMap<>();

    static {
        MODULES.put("kernel", List.of("kmodel.kernel"));
        MODULES.put("mm-filemap", List.of("kmodel.mm"));
        MODULES.put("block", List.of("kmodel.block", "kmodel.fs.blockdev"));
        MODULES.put("fs-btrfs", List.of("kmodel.fs.btrfs"));
        MODULES.put("io-uring", List.of("kmodel.iouring"));
        MODULES.put("explorer", List.of("kmodel.explorer"));
        MODULES.put("sim", List.of("kmodel.sim"));
        MODULES.put("verification", List.of("kmodel.verification"));
        MODULES.put("tools", List.of("kmodel.tools"));
    }

    static final String CANARY_ROOT = "kmodel.tools.arch.canary";

    private static JavaClasses imported;
    private static JavaClasses canaries;

    @BeforeAll
    static void importTheProject() {
        imported = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("kmodel");
        canaries = new ClassFileImporter().importPackages(CANARY_ROOT);
    }

    // ------------------------------------------------------------------ the rules, over a root package

    /** The module graph, over the packages under {@code root} ({@code kmodel}, or the canaries'). */
    static ArchRule modules(String root, boolean optional) {
        return layeredArchitecture().consideringOnlyDependenciesInLayers()
                .withOptionalLayers(optional)
                .layer("kernel").definedBy(root + ".kernel..")
                .layer("mm-filemap").definedBy(root + ".mm..")
                .layer("block").definedBy(root + ".block..", root + ".fs.blockdev..")
                .layer("fs-btrfs").definedBy(root + ".fs.btrfs..")
                .layer("io-uring").definedBy(root + ".iouring..")
                .layer("explorer").definedBy(root + ".explorer..")
                .layer("sim").definedBy(root + ".sim..")
                .layer("verification").definedBy(root + ".verification..")
                .layer("tools").definedBy(root + ".tools..")
                .whereLayer("tools").mayNotBeAccessedByAnyLayer()
                .whereLayer("verification").mayOnlyBeAccessedByLayers("tools")
                .whereLayer("sim").mayOnlyBeAccessedByLayers("verification", "tools")
                .whereLayer("explorer").mayOnlyBeAccessedByLayers("verification", "tools")
                .whereLayer("io-uring").mayOnlyBeAccessedByLayers("sim", "verification", "tools")
                .whereLayer("fs-btrfs").mayOnlyBeAccessedByLayers("io-uring", "sim", "verification", "tools")
                .whereLayer("block").mayOnlyBeAccessedByLayers("fs-btrfs", "io-uring", "sim", "verification", "tools")
                .whereLayer("mm-filemap").mayOnlyBeAccessedByLayers("block", "fs-btrfs", "io-uring", "sim",
                        "verification", "tools")
                .ensureAllClassesAreContainedInArchitectureIgnoring(not(resideInAPackage(root + "..")))
                .because("dependencies point one way (DESIGN.md, Modules): the explorer depends on the runtime "
                        + "(kernel) only, the simulation on the model, not on the scenarios");
    }

    /** The packages of the explorer module under {@code root}. */
    static ArchRule explorerPackages(String root, boolean optional) {
        String m = root + ".explorer";
        return layeredArchitecture().consideringOnlyDependenciesInLayers()
                .withOptionalLayers(optional)
                .layer("search").definedBy(m + ".search..")
                .layer("trace").definedBy(m + ".trace..")
                .layer("api").definedBy(m)
                .whereLayer("api").mayNotBeAccessedByAnyLayer()
                .whereLayer("trace").mayOnlyBeAccessedByLayers("api")
                .whereLayer("search").mayOnlyBeAccessedByLayers("trace", "api")
                .ensureAllClassesAreContainedInArchitectureIgnoring(not(resideInAPackage(m + "..")))
                .because("strategies and schedules know nothing of the checks built on them");
    }

    /** The packages of the verification module under {@code root}. */
    static ArchRule verificationPackages(String root, boolean optional) {
        String m = root + ".verification";
        return layeredArchitecture().consideringOnlyDependenciesInLayers()
                .withOptionalLayers(optional)
                .layer("catalog").definedBy(m + ".catalog..")
                .layer("world").definedBy(m + ".world..")
                .layer("scenarios").definedBy(m + ".scenarios..")
                .layer("harness").definedBy(m + ".harness..")
                .layer("registry").definedBy(m)
                .whereLayer("registry").mayNotBeAccessedByAnyLayer()
                .whereLayer("harness").mayNotBeAccessedByAnyLayer()
                .whereLayer("scenarios").mayOnlyBeAccessedByLayers("harness", "registry")
                .whereLayer("world").mayOnlyBeAccessedByLayers("scenarios", "harness", "registry")
                .whereLayer("catalog").mayOnlyBeAccessedByLayers("scenarios", "harness", "registry")
                .ensureAllClassesAreContainedInArchitectureIgnoring(not(resideInAPackage(m + "..")))
                .because("a scenario registers into a ScenarioSet, not into the registry that lists them all");
    }

    /** The packages of the sim module under {@code root}. */
    static ArchRule simPackages(String root, boolean optional) {
        String m = root + ".sim";
        return layeredArchitecture().consideringOnlyDependenciesInLayers()
                .withOptionalLayers(optional)
                .layer("world").definedBy(m + ".world..")
                .layer("simulation").definedBy(m)
                .whereLayer("simulation").mayNotBeAccessedByAnyLayer()
                .whereLayer("world").mayOnlyBeAccessedByLayers("simulation")
                .ensureAllClassesAreContainedInArchitectureIgnoring(not(resideInAPackage(m + "..")))
                .because("the worlds are shared with the scenarios, which must not load the simulation");
    }

    /** The packages of the tools module under {@code root}. */
    static ArchRule toolsPackages(String root, boolean optional) {
        String m = root + ".tools";
        return layeredArchitecture().consideringOnlyDependenciesInLayers()
                .withOptionalLayers(optional)
                .layer("fio").definedBy(m + ".fio..")
                .layer("report").definedBy(m + ".report..")
                .layer("xref").definedBy(m + ".xref..")
                .layer("litmus").definedBy(m + ".litmus..")
                .layer("commands").definedBy(m)
                .layer("jmh generated").definedBy(m + ".jmh_generated..")
                .whereLayer("jmh generated").mayNotBeAccessedByAnyLayer()
                .whereLayer("commands").mayOnlyBeAccessedByLayers("jmh generated")
                .whereLayer("fio").mayOnlyBeAccessedByLayers("commands")
                .whereLayer("report").mayOnlyBeAccessedByLayers("commands")
                .whereLayer("xref").mayOnlyBeAccessedByLayers("commands")
                .whereLayer("litmus").mayOnlyBeAccessedByLayers("commands")
                .ensureAllClassesAreContainedInArchitectureIgnoring(not(resideInAPackage(m + "..")))
                .because("the commands use the libraries beneath them, never the other way");
    }

    // ------------------------------------------------------------------ the project obeys them

    @Test
    void theModulesDependOneWay() {
        modules("kmodel", false).check(imported);
    }

    @Test
    void insideTheExplorerNoImportRunsUpALayer() {
        explorerPackages("kmodel", false).check(imported);
    }

    @Test
    void insideVerificationNoImportRunsUpALayer() {
        verificationPackages("kmodel", false).check(imported);
    }

    @Test
    void insideSimNoImportRunsUpALayer() {
        simPackages("kmodel", false).check(imported);
    }

    @Test
    void insideToolsNoImportRunsUpALayer() {
        toolsPackages("kmodel", false).check(imported);
    }

    private static final Pattern MODULE_DIR = Pattern.compile("/([a-z-]+)/target/(?:test-)?classes/");
    private static final Pattern MODULE_JAR = Pattern.compile("/([a-z-]+)-[0-9][^/]*\\.jar!");

    /** The module a class was loaded from: its {@code target/classes} directory or its jar. */
    private static String moduleOf(JavaClass c) {
        String uri = c.getSource().map(s -> s.getUri().toString()).orElse("");
        Matcher m = MODULE_DIR.matcher(uri);
        if (m.find()) {
            return m.group(1);
        }
        m = MODULE_JAR.matcher(uri);
        return m.find() ? m.group(1) : "? " + uri;
    }

    @Test
    void everyModuleKeepsToItsOwnRootPackagesSoNoPackageSpansTwo() {
        Map<String, TreeSet<String>> modulesOfPackage = new TreeMap<>();
        List<String> strays = new ArrayList<>();
        for (JavaClass c : imported) {
            String module = moduleOf(c);
            modulesOfPackage.computeIfAbsent(c.getPackageName(), p -> new TreeSet<>()).add(module);
            List<String> roots = MODULES.get(module);
            boolean inRoot = false;
            for (String r : roots == null ? List.<String>of() : roots) {
                inRoot |= c.getPackageName().equals(r) || c.getPackageName().startsWith(r + ".");
            }
            if (!inRoot) {
                strays.add(c.getName() + " (" + module + ")");
            }
        }
        assertTrue(strays.isEmpty(), () -> "outside their module's root packages: " + strays);
        modulesOfPackage.forEach((p, ms) -> assertEquals(1, ms.size(), () -> p + " spans " + ms));
        TreeSet<String> seen = new TreeSet<>();
        modulesOfPackage.values().forEach(seen::addAll);
        assertEquals(new TreeSet<>(MODULES.keySet()), seen, "every module is on the classpath, and no other");
    }

    // ------------------------------------------------------------------ canaries: every rule can fail

    /** The rules, by name, built over a root package (optional layers for the sparse canaries). */
    static final Map<String, Function<String, ArchRule>> RULES = new LinkedHashMap<>();

    static {
        RULES.put("modules", r -> modules(r, true));
        RULES.put("explorer packages", r -> explorerPackages(r, true));
        RULES.put("verification packages", r -> verificationPackages(r, true));
        RULES.put("sim packages", r -> simPackages(r, true));
        RULES.put("tools packages", r -> toolsPackages(r, true));
    }

    /** The canary that imports one layer up, per rule, in {@link #RULES}' order. */
    static final List<Class<?>> UPWARD = List.of(CanaryExplorerUsesMm.class, CanarySearchUsesModelCheck.class,
            CanaryScenariosUseRegistry.class, CanaryWorldUsesSimulator.class, CanaryFioUsesCommand.class);

    /** Canaries that import only down (or sideways where allowed): no rule reports them. */
    static final List<Class<?>> DOWNWARD = List.of(CanaryVerificationUsesExplorer.class, CanaryModelCheck.class,
            CanaryToken.class, CanaryRegistry.class, CanaryScenario.class, CanarySimulator.class, CanaryCommand.class,
            CanaryPage.class);

    /** The classes a failure report names as origins: the first {@code <...>} of each line, up to its member. */
    private static TreeSet<String> origins(EvaluationResult result) {
        TreeSet<String> out = new TreeSet<>();
        for (String line : result.getFailureReport().getDetails()) {
            int a = line.indexOf('<');
            int b = line.indexOf('>', a + 1);
            if (a >= 0 && b > a) {
                String origin = line.substring(a + 1, b);
                int paren = origin.indexOf('(');
                String owner = paren < 0 ? origin : origin.substring(0, origin.lastIndexOf('.', paren));
                out.add(owner.contains("$") ? owner.substring(0, owner.indexOf('$')) : owner);
            }
        }
        return out;
    }

    @Test
    void everyRuleReportsItsUpwardCanaryAndOnlyIt() {
        assertEquals(RULES.size(), UPWARD.size());
        int i = 0;
        for (Map.Entry<String, Function<String, ArchRule>> rule : RULES.entrySet()) {
            EvaluationResult result = rule.getValue().apply(CANARY_ROOT).evaluate(canaries);
            TreeSet<String> origins = origins(result);
            String report = String.join("\n", result.getFailureReport().getDetails());
            for (int u = 0; u < UPWARD.size(); u++) {
                String name = UPWARD.get(u).getName();
                assertEquals(u == i, origins.contains(name), "rule '" + rule.getKey() + "' on " + name + ":\n" + report);
            }
            for (Class<?> d : DOWNWARD) {
                assertFalse(origins.contains(d.getName()), "rule '" + rule.getKey() + "' on " + d.getName() + ":\n" + report);
            }
            i++;
        }
    }
}
