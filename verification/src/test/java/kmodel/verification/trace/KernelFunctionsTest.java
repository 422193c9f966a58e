package kmodel.verification.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import kmodel.kernel.Kconfig;
import kmodel.kernel.sched.KernelFunctions;
import kmodel.kernel.sched.TraceEvent;
import kmodel.mm.FilemapBugs;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.verification.ScenarioRegistry;
import kmodel.verification.catalog.BugCatalog;
import kmodel.verification.catalog.CatalogBug;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The diagram's function column ({@link KernelFunctions}): model method names map to kernel
 * function names by the project's camelCase convention, and every name the counterexamples of
 * a few catalog bugs show is a kernel function that some model method's Javadoc says it
 * mirrors ({@code file.c: {@code name()}}).
 */
@Tag("modelcheck")
class KernelFunctionsTest {

    @Test
    void methodNamesMapToKernelNames() {
        assertEquals("wake_page_function", KernelFunctions.name("wakePageFunction"));
        assertEquals("__wake_up_common", KernelFunctions.name("__wakeUpCommon"));
        assertEquals("wait_on_page_bit_common", KernelFunctions.name("waitOnPageBitCommonV510"));
        assertEquals("lock_page_killable", KernelFunctions.name("lockPageKillable"));
        assertEquals("spin_lock_irqsave", KernelFunctions.name("spinLockIrqsave"));
        assertEquals("PageLocked", KernelFunctions.name("PageLocked"));
        assertEquals("__SetPageLocked", KernelFunctions.name("__SetPageLocked"));
    }

    /**
     * Every function named as {@code {@code name()}} on the first line of a model Javadoc that
     * opens with a kernel file ({@code mm/filemap.c: {@code __wake_up_common_lock()} / {@code
     * __wake_up()}}).
     */
    static TreeSet<String> javadocFunctions() throws IOException {
        Pattern p = Pattern.compile("/\\*\\*\\s*(?:\\*\\s*)?[\\w/.\\-]+\\.[ch]:([^\\n]*)");
        Pattern code = Pattern.compile("\\{@code\\s+(\\w+)\\(");
        TreeSet<String> names = new TreeSet<>();
        for (String module : new String[] {"kernel", "mm-filemap", "block"}) {
            Path root = Paths.get("..", module, "src", "main", "java");
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : (Iterable<Path>) files.filter(x -> x.toString().endsWith(".java"))::iterator) {
                    Matcher m = p.matcher(new String(Files.readAllBytes(f), StandardCharsets.UTF_8));
                    while (m.find()) {
                        Matcher c = code.matcher(m.group(1));
                        while (c.find()) {
                            names.add(c.group(1));
                        }
                    }
                }
            }
        }
        return names;
    }

    @Test
    void everyFunctionACounterexampleNamesIsOneTheModelMirrors() throws IOException {
        TreeSet<String> mirrored = javadocFunctions();
        assertTrue(mirrored.size() > 200, "model Javadocs read: " + mirrored.size());
        // The oracle fails on a name the convention does not give: the method once called
        // asyncBufFunc mirrors io_async_buf_func, and its name alone said async_buf_func.
        assertFalse(mirrored.contains(KernelFunctions.name("asyncBufFunc")));
        ScenarioRegistry registry = ScenarioRegistry.everything();
        TreeSet<String> shown = new TreeSet<>();
        for (String id : new String[] {FilemapBugs.HANDOFF_FORGETS_DONE, FilemapBugs.ASYNC_PAGE_MATCH_NOT_SET,
                FilemapBugs.END_WRITEBACK_NO_PAGE_REF, BugCatalog.TEXTBOOK_CHECK_THEN_SLEEP}) {
            CatalogBug bug = BugCatalog.find(id);
            CheckResult r = ModelCheck.exhaustive(registry.get(bug.scenario()))
                    .config(bug.impliedSettings(Kconfig.defaults()).withBug(id)).verbose(true).run();
            List<TraceEvent> trace = r.trace();
            for (TraceEvent e : trace) {
                if (e.function() != null) {
                    shown.add(e.function());
                    assertTrue(mirrored.contains(e.function()), () -> id + ": row '" + e + "' names " + e.function()
                            + ", which no model Javadoc mirrors");
                }
            }
            assertTrue(r.diagram().contains("function"), r.diagram());
        }
        assertTrue(shown.containsAll(List.of("wake_page_function", "wait_on_page_bit_common", "unlock_page",
                "end_page_writeback", "__wait_on_page_locked_async")), shown::toString);
    }

    @Test
    void theWakeRowNamesTheWakeFunction() {
        CatalogBug bug = BugCatalog.find(FilemapBugs.HANDOFF_FORGETS_DONE);
        CheckResult r = ModelCheck.exhaustive(ScenarioRegistry.everything().get(bug.scenario()))
                .config(bug.impliedSettings(Kconfig.defaults()).withBug(bug.id())).run();
        boolean found = false;
        for (TraceEvent e : r.trace()) {
            if (e.text().startsWith("wakes ") && e.task().equals("holder")) {
                assertEquals("wake_page_function", e.function(), e::toString);
                found = true;
            }
        }
        assertTrue(found, r.diagram());
    }
}
