package kmodel.tools.xref;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/KERNEL-INDEX.md is what the sources say now, and every provenance line parses. Fails, with
 * the command that regenerates it, when the committed file is out of date; the tests below show
 * the check failing on a stale copy and on a synthetic source with a provenance line that does
 * not parse.
 */
class KernelIndexTest {
    /** The real index, read once (parsing the model's sources takes a few seconds). */
    static final Path ROOT = KernelIndex.repositoryRoot(KernelIndexTest.class);
    static final KernelIndex INDEX = KernelIndex.scan(ROOT);

    private static String committed() throws IOException {
        return Files.readString(ROOT.resolve("docs/KERNEL-INDEX.md"), StandardCharsets.UTF_8);
    }

    @Test
    void theCommittedIndexIsUpToDate() throws IOException {
        String stale = KernelIndex.staleness(committed(), INDEX.markdown());
        assertNull(stale, stale);
    }

    @Test
    void aStaleIndexIsCaughtWithTheCommandThatRegeneratesIt() throws IOException {
        String fresh = INDEX.markdown();
        String renamed = fresh.replace("`wake_page_function()`", "`wake_page_functoin()`");
        String dropped = fresh.replaceFirst("(?m)^\\| mm/filemap.c \\|.*\\n", "");
        for (String copy : List.of(renamed, dropped, fresh + "| extra | row |\n")) {
            String stale = KernelIndex.staleness(copy, fresh);
            assertNotNull(stale, "a modified copy must be stale");
            assertTrue(stale.contains("docs/KERNEL-INDEX.md is out of date"), stale);
            assertTrue(stale.contains("regenerate it with ./kmodel xref --index > docs/KERNEL-INDEX.md"), stale);
        }
        assertNull(KernelIndex.staleness(fresh.replace("\n", "\r\n"), fresh), "line ends do not matter");
    }

    @Test
    void theIndexHasNoLineNumbersAndIsSortedByKernelFileThenSymbol() {
        String md = INDEX.markdown();
        assertTrue(md.contains("| mm/filemap.c | `wake_page_function()` | v5.10 | `kmodel.mm.Filemap#wakePageFunction` | "
                + "[Filemap.java](../mm-filemap/src/main/java/kmodel/mm/Filemap.java) |"), md);
        assertTrue(!md.matches("(?s).*\\.java:\\d+.*"), "no line numbers");
        String previous = "";
        for (String row : md.lines().filter(l -> l.startsWith("| ") && !l.startsWith("| Kernel file")).toList()) {
            String file = row.substring(2, row.indexOf(" |", 2));
            assertTrue(file.compareTo(previous) >= 0, file + " after " + previous);
            previous = file;
        }
    }

    @Test
    void everyModelModuleContributesAndTheKernelNamedConstantsAreIn() {
        for (String m : KernelIndex.MODULES) {
            assertTrue(INDEX.entries().stream().anyMatch(e -> e.sourceFile().startsWith(m + "/")), m);
        }
        assertEquals("kmodel.mm.PageFlags#PG_locked", INDEX.byKernelName("PG_locked").get(0).javaName());
        assertEquals("include/linux/page-flags.h", INDEX.byKernelName("PG_locked").get(0).kernelFiles().get(0));
        assertEquals("kmodel.mm.Kiocb#IOCB_WAITQ", INDEX.byKernelName("IOCB_WAITQ").get(0).javaName());
        assertEquals(2, INDEX.byKernelName("wake_page_function()").size(), "the v5.10 and the v5.7 forms");
        assertTrue(INDEX.byKernelName("RUNNABLE").isEmpty(), "Task.RunState is the model's, not the kernel's");
        assertTrue(INDEX.byKernelName("BIO_SPLIT_ADVANCES_SECTOR_ONLY").isEmpty(), "bug ids are not kernel constants");
    }

    @Test
    void theReverseLookupTakesAFullOrAShortClassName() {
        List<XrefEntry> full = INDEX.byJavaName("kmodel.mm.Filemap#wakePageFunction");
        assertEquals(1, full.size());
        assertEquals(List.of("wake_page_function()"), full.get(0).symbols());
        assertEquals(full, INDEX.byJavaName("Filemap#wakePageFunction"));
        assertEquals(full, INDEX.byJavaName("mm.Filemap#wakePageFunction()"));
        assertTrue(INDEX.byJavaName("Filemap").size() > 10);
        assertTrue(INDEX.byJavaName("ilemap#wakePageFunction").isEmpty(), "a tail must end at a dot");
    }

    /** A repository with the model modules and one source, {@code source}, in the kernel module. */
    private static Path repository(Path dir, String source) throws IOException {
        Files.writeString(dir.resolve("pom.xml"), "<project/>\n");
        for (String m : KernelIndex.MODULES) {
            Files.createDirectories(dir.resolve(m).resolve("src/main/java/kmodel/x"));
        }
        Files.writeString(dir.resolve("kernel/src/main/java/kmodel/x/Fake.java"), source);
        return dir;
    }

    @Test
    void aProvenanceLineThatDoesNotParseIsAnErrorNamingTheJavaFileAndLine(@TempDir Path dir) throws IOException {
        repository(dir, String.join("\n",
                "package kmodel.x;",
                "",
                "/** mm/filemap.c (v5.10): a fake. */",
                "public final class Fake {",
                "    /** mm/filemap.c: {@code unlock_page()} (v5.10). */",
                "    public static void unlockPage() {",
                "    }",
                "",
                "    /**",
                "     * mm/filemap.c: what the kernel does, with no symbol.",
                "     */",
                "    public static void wakeUp() {",
                "    }",
                "",
                "    /** pagemap.h: {@code lock_page()}. */",
                "    public static void lockPage() {",
                "    }",
                "}",
                ""));
        ProvenanceException e = assertThrows(ProvenanceException.class, () -> KernelIndex.scan(dir));
        assertEquals("kernel/src/main/java/kmodel/x/Fake.java", e.file());
        assertEquals(10, e.line());
        assertEquals(2, e.count());
        assertTrue(e.getMessage().startsWith("kernel/src/main/java/kmodel/x/Fake.java:10: provenance line names no "
                + "kernel symbol"), e.getMessage());
        assertTrue(e.getMessage().endsWith("(and 1 more provenance lines that do not parse)"), e.getMessage());
    }

    @Test
    void aSyntheticRepositoryGivesItsEntries(@TempDir Path dir) throws IOException {
        repository(dir, String.join("\n",
                "package kmodel.x;",
                "",
                "/** mm/filemap.c (v5.10): a fake. */",
                "public final class Fake {",
                "    /** Page is locked. */",
                "    public static final int PG_locked = 0;",
                "    /** Not a kernel name. */",
                "    public static final String BUG_ID = \"x\";",
                "",
                "    /** mm/filemap.c: {@code unlock_page()}. */",
                "    public static void unlockPage() {",
                "    }",
                "}",
                ""));
        KernelIndex k = KernelIndex.scan(dir);
        assertEquals(List.of("kmodel.x.Fake mm/filemap.c (v5.10)",
                "kmodel.x.Fake#PG_locked mm/filemap.c: PG_locked (v5.10)",
                "kmodel.x.Fake#unlockPage mm/filemap.c: unlock_page() (v5.10)"),
                k.entries().stream().map(e -> e.javaName() + " " + e.mirrors()).toList());
        assertEquals(6, k.byKernelName("PG_locked").get(0).line());
        assertEquals(11, k.byKernelName("unlock_page").get(0).line());
    }

    @Test
    void theBarriersOfEachMethodAreListedByTheirKernelNames() {
        XrefEntry end = INDEX.byJavaName("kmodel.mm.Filemap#endPageWriteback").get(0);
        assertEquals(List.of("smp_mb__after_atomic()"), end.barriers());
        assertEquals(List.of("smp_mb__before_atomic()", "smp_mb__after_atomic()"),
                INDEX.byJavaName("SbitmapQueue#sbitmapQueueClear").get(0).barriers());
        assertEquals(List.of(), INDEX.byJavaName("Filemap#unlockPage").get(0).barriers(),
                "unlock_page()'s ordering is its clear_bit_unlock_is_negative_byte(), not a barrier call");
        assertEquals(List.of("smp_mb() (bug only)"), INDEX.byJavaName("Filemap#wakePageFunction").get(0).barriers(),
                "v5.10's wake_page_function() has no smp_mb(): the call is 2a9127fcf229's form, behind its catalog bug");
        assertTrue(INDEX.markdown().contains("| [v5.10](https://elixir.bootlin.com/linux/v5.10/C/ident/end_page_writeback) "
                + "| smp_mb__after_atomic() |"), "the Barriers column");
    }

    @Test
    void aBarrierCallIsFoundOnlyWhereItIsAndOnlyOnTheBarriersClass(@TempDir Path dir) throws IOException {
        repository(dir, String.join("\n",
                "package kmodel.x;",
                "",
                "import kmodel.kernel.atomic.Barriers;",
                "",
                "/** mm/filemap.c (v5.10): a fake. */",
                "public final class Fake {",
                "    /** mm/filemap.c: {@code end_page_writeback()} (v5.10). */",
                "    public static void endPageWriteback() {",
                "        Barriers.smpMbAfterAtomic(\"end_page_writeback\");",
                "        Barriers.smpMbAfterAtomic(\"end_page_writeback\");",
                "        Other.smpWmb(\"not a barrier\");",
                "    }",
                "",
                "    /** include/linux/page-flags.h: {@code SetPageUptodate()} (v5.10). */",
                "    public static void setPageUptodate() {",
                "        if (true) {",
                "            kmodel.kernel.atomic.Barriers.smpWmb(\"SetPageUptodate\");",
                "        }",
                "        Barriers.barrier(\"SetPageUptodate\");",
                "    }",
                "",
                "    /** mm/filemap.c: {@code unlock_page()} (v5.10). */",
                "    public static void unlockPage() {",
                "        Barriers.toString();",
                "    }",
                "}",
                ""));
        KernelIndex k = KernelIndex.scan(dir);
        assertEquals(List.of("smp_mb__after_atomic()"), k.byKernelName("end_page_writeback").get(0).barriers(),
                "once, and not another class's smpWmb");
        assertEquals(List.of("smp_wmb()", "barrier()"), k.byKernelName("SetPageUptodate").get(0).barriers(),
                "in source order, qualified or not");
        assertEquals(List.of(), k.byKernelName("unlock_page").get(0).barriers(), "a Barriers method that is no barrier");
        assertEquals(List.of(), k.byJavaName("kmodel.x.Fake").stream().filter(e -> e.member().isEmpty())
                .findFirst().orElseThrow().barriers(), "a class lists none of its own");
    }
}
