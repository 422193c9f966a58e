package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import kmodel.tools.xref.KernelIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code kmodel xref}: kernel names to model definitions and back, {@code --kernel DIR} against a
 * tiny fake kernel tree made here, and the one-line errors.
 */
class XrefCliTest {
    /** The real index, read once; every run below uses it through {@link #FACTORY}. */
    static final KernelIndex INDEX = KernelIndex.scan(KernelIndex.repositoryRoot(XrefCliTest.class));

    /** Makes {@code xref} with {@link #INDEX} and every other command as usual. */
    static final CommandLine.IFactory FACTORY = new CommandLine.IFactory() {
        @Override
        public <K> K create(Class<K> cls) throws Exception {
            if (cls == XrefCommand.class) {
                return cls.cast(new XrefCommand(() -> INDEX));
            }
            return CommandLine.defaultFactory().create(cls);
        }
    };

    static CliRun xref(String... args) {
        String[] argv = new String[args.length + 1];
        argv[0] = "xref";
        System.arraycopy(args, 0, argv, 1, args.length);
        return CliRun.kmodel(FACTORY, false, argv);
    }

    private static void refused(CliRun r, String message) {
        CliOracle.assertSound(r);
        assertEquals(Kmodel.EXIT_USAGE, r.code, r::toString);
        assertEquals(1, r.errLines().size(), r::toString);
        assertTrue(r.err.startsWith("kmodel: ") && r.err.contains(message), r::toString);
    }

    /** Values are taken as written (Values): a name with white space around it is refused, not trimmed. */
    @Test
    void aNameWithWhiteSpaceAroundItIsRefused() {
        refused(xref(" wake_page_function "), "white space around ' wake_page_function '");
    }

    @Test
    void aKernelFunctionGivesEachModelDefinitionWithItsFileAndLine() {
        for (String name : List.of("wake_page_function", "wake_page_function()")) {
            CliRun r = xref(name);
            CliOracle.assertSound(r);
            assertEquals(0, r.code, r::toString);
            assertTrue(r.out.matches("(?s)kmodel\\.mm\\.Filemap#wakePageFunction  "
                    + "mm-filemap/src/main/java/kmodel/mm/Filemap\\.java:\\d+\n"
                    + "    mirrors mm/filemap\\.c: wake_page_function\\(\\) \\(v5\\.10\\)\n"
                    + "    barriers smp_mb\\(\\) \\(bug only\\)\n"
                    + "    elixir  https://elixir\\.bootlin\\.com/linux/v5\\.10/C/ident/wake_page_function\n"
                    + "kmodel\\.mm\\.Filemap#wakePageFunctionV57  .*\\(v4\\.14 to v5\\.7\\)\n"
                    + "    elixir  https://elixir\\.bootlin\\.com/linux/v5\\.7/C/ident/wake_page_function\n"), r.out);
        }
    }

    @Test
    void theLineIsTheLineOfTheMembersName() throws IOException {
        CliRun r = xref("unlock_page");
        String first = r.out.lines().findFirst().orElse("");
        String where = first.substring(first.indexOf("  ") + 2);
        int colon = where.lastIndexOf(':');
        Path root = KernelIndex.repositoryRoot(XrefCliTest.class);
        List<String> lines = Files.readAllLines(root.resolve(where.substring(0, colon)));
        String line = lines.get(Integer.parseInt(where.substring(colon + 1)) - 1);
        assertTrue(line.contains(" unlockPage("), line);
    }

    @Test
    void flagsAndConstantsKeepTheirKernelNames() {
        CliRun locked = xref("PG_locked");
        assertEquals(0, locked.code, locked::toString);
        assertTrue(locked.out.startsWith("kmodel.mm.PageFlags#PG_locked  mm-filemap/src/main/java/kmodel/mm/PageFlags.java:"),
                locked.out);
        assertTrue(locked.out.contains("    mirrors include/linux/page-flags.h: PG_locked (v5.10)\n"), locked.out);
        CliRun waitq = xref("IOCB_WAITQ");
        assertTrue(waitq.out.startsWith("kmodel.mm.Kiocb#IOCB_WAITQ  "), waitq.out);
        assertTrue(waitq.out.contains("mirrors include/linux/fs.h: IOCB_WAITQ (v5.10)"), waitq.out);
        assertTrue(xref("struct bio").out.startsWith("kmodel.block.Bio  block/src/main/java/kmodel/block/Bio.java:"));
    }

    @Test
    void aModelMemberGivesTheKernelSymbolsItMirrors() {
        for (String name : List.of("kmodel.mm.Filemap#wakePageFunction", "Filemap#wakePageFunction")) {
            CliRun r = xref(name);
            assertEquals(0, r.code, r::toString);
            assertTrue(r.out.matches("kmodel\\.mm\\.Filemap#wakePageFunction  .*Filemap\\.java:\\d+\n"
                    + "    mirrors mm/filemap\\.c: wake_page_function\\(\\) \\(v5\\.10\\)\n"
                    + "    barriers smp_mb\\(\\) \\(bug only\\)\n"
                    + "    elixir  https://elixir\\.bootlin\\.com/linux/v5\\.10/C/ident/wake_page_function\n"), r.out);
        }
        CliRun cls = xref("Filemap");
        assertTrue(cls.out.startsWith("kmodel.mm.Filemap  mm-filemap/src/main/java/kmodel/mm/Filemap.java:"), cls.out);
        assertTrue(cls.out.contains("    mirrors mm/filemap.c: unlock_page() (v5.10)\n"), cls.out);
    }

    @Test
    void anUnknownNameIsOneLineAndExit2() {
        refused(xref("wake_page_functoin"), "xref: 'wake_page_functoin' is neither a kernel name nor a model class");
        refused(xref("Filemap#noSuchMember"), "xref: 'Filemap#noSuchMember' is neither");
        refused(xref(), "xref: missing NAME");
        refused(xref("x".repeat(XrefCommand.MAX_NAME + 1)), "NAME must be 1 to 200 characters");
        refused(xref("--index", "unlock_page"), "give NAME or --index, not both");
    }

    @Test
    void theIndexOptionPrintsTheMarkdownIndex() {
        CliRun r = xref("--index");
        assertEquals(0, r.code, r::toString);
        assertEquals(INDEX.markdown(), r.out);
    }

    /** A fake kernel tree: mm/filemap.c and include/linux/page-flags.h with a few lines each. */
    private static Path fakeKernel(Path dir) throws IOException {
        Files.createDirectories(dir.resolve("mm"));
        Files.createDirectories(dir.resolve("include/linux"));
        Files.writeString(dir.resolve("mm/filemap.c"), String.join("\n",
                "// SPDX-License-Identifier: GPL-2.0-only",
                "#include <linux/pagemap.h>",
                "static int wake_page_function(wait_queue_entry_t *wait, unsigned mode, int sync, void *arg);",
                "",
                "static int wake_page_function(wait_queue_entry_t *wait, unsigned mode, int sync, void *arg)",
                "{",
                "\treturn wake_page_function(wait, mode, sync, arg);",
                "}",
                "",
                "void unlock_page(struct page *page)",
                "{",
                "}",
                "EXPORT_SYMBOL(unlock_page);",
                ""));
        Files.writeString(dir.resolve("include/linux/page-flags.h"), String.join("\n",
                "enum pageflags {",
                "\tPG_locked,\t\t/* Page is locked. Don't touch. */",
                "\tPG_referenced,",
                "};",
                ""));
        return dir;
    }

    @Test
    void withAKernelTreeTheKernelDefinitionsFileAndLineToo(@TempDir Path dir) throws IOException {
        Path tree = fakeKernel(dir);
        CliRun r = xref("--kernel", tree.toString(), "wake_page_function");
        CliOracle.assertSound(r);
        assertEquals(0, r.code, r::toString);
        List<String> lines = r.out.lines().toList();
        assertEquals("    barriers smp_mb() (bug only)", lines.get(2), r.out);
        assertEquals("    kernel  " + tree.resolve("mm/filemap.c") + ":5", lines.get(3), r.out);
        assertEquals("    elixir  https://elixir.bootlin.com/linux/v5.10/source/mm/filemap.c#L5", lines.get(4), r.out);
        assertEquals("    kernel  " + tree.resolve("mm/filemap.c") + ":5", lines.get(6), r.out);
        assertEquals("    elixir  https://elixir.bootlin.com/linux/v5.7/source/mm/filemap.c#L5", lines.get(7), r.out);
        CliRun flag = xref("PG_locked", "--kernel", tree.toString());
        assertTrue(flag.out.endsWith("    kernel  " + tree.resolve("include/linux/page-flags.h") + ":2\n"
                + "    elixir  https://elixir.bootlin.com/linux/v5.10/source/include/linux/page-flags.h#L2\n"), flag.out);
        CliRun reverse = xref("--kernel", tree.toString(), "Filemap#unlockPage");
        assertTrue(reverse.out.endsWith("    kernel  " + tree.resolve("mm/filemap.c") + ":10\n"
                + "    elixir  https://elixir.bootlin.com/linux/v5.10/source/mm/filemap.c#L10\n"), reverse.out);
        // A tree that says its version: the reference is to that version, whose lines these are.
        Files.writeString(tree.resolve("Makefile"), "# SPDX-License-Identifier: GPL-2.0\nVERSION = 5\nPATCHLEVEL = 10\n"
                + "SUBLEVEL = 13\nEXTRAVERSION =\nNAME = Kleptomaniac Octopus\n");
        CliRun versioned = xref("--kernel", tree.toString(), "Filemap#unlockPage");
        assertTrue(versioned.out.endsWith("    elixir  https://elixir.bootlin.com/linux/v5.10.13/source/mm/filemap.c#L10\n"),
                versioned.out);
    }

    @Test
    void aDefinitionThePatternsDoNotFindIsSaidSo(@TempDir Path dir) throws IOException {
        Path tree = fakeKernel(dir);
        CliRun r = xref("--kernel", tree.toString(), "Filemap#wakeUpPage");
        assertEquals(0, r.code, r::toString);
        assertTrue(r.out.contains("    kernel  " + tree.resolve("mm/filemap.c") + " (no definition of wake_up_page() "
                + "found by pattern)\n"), r.out);
    }

    @Test
    void aMissingKernelTreeOrFileIsOneLine(@TempDir Path dir) throws IOException {
        refused(xref("--kernel", dir.resolve("nowhere").toString(), "unlock_page"), "--kernel "
                + dir.resolve("nowhere") + ": no such directory");
        Path tree = fakeKernel(dir);
        refused(xref("--kernel", tree.toString(), "io_uring_enter"),
                tree.resolve("fs/io_uring.c") + ": no such file in the kernel tree (the model mirrors fs/io_uring.c of v5.10)");
    }

    @Test
    void aProvenanceLineThatDoesNotParseStopsXrefWithOneLineNamingIt(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("pom.xml"), "<project/>\n");
        for (String m : KernelIndex.MODULES) {
            Files.createDirectories(dir.resolve(m).resolve("src/main/java/kmodel/x"));
        }
        Files.writeString(dir.resolve("block/src/main/java/kmodel/x/Bad.java"), String.join("\n",
                "package kmodel.x;",
                "",
                "/** block/bio.c: {@code bio->bi_iter} moved. */",
                "final class Bad {",
                "}",
                ""));
        CommandLine.IFactory factory = new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> cls) throws Exception {
                if (cls == XrefCommand.class) {
                    return cls.cast(new XrefCommand(() -> KernelIndex.scan(dir)));
                }
                return CommandLine.defaultFactory().create(cls);
            }
        };
        CliRun r = CliRun.kmodel(factory, false, "xref", "bio_endio");
        assertEquals(Kmodel.EXIT_INTERNAL, r.code, r::toString);
        assertEquals(List.of("kmodel: block/src/main/java/kmodel/x/Bad.java:3: provenance line: cannot read a kernel "
                + "symbol from {@code bio->bi_iter} (expected name(), struct name, NAME, ...)"), r.errLines(), r::toString);
        assertEquals("", r.out);
    }
}
