package kmodel.tools.xref;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The patterns {@link KernelSource} finds a kernel definition by, on a small fake header and source. */
class KernelSourceTest {
    private static Path file(Path dir, String... lines) throws IOException {
        Path f = dir.resolve("x.c");
        Files.writeString(f, String.join("\n", lines) + "\n");
        return f;
    }

    @Test
    void functionsSkipPrototypesAndCalls(@TempDir Path dir) throws IOException {
        Path f = file(dir,
                "extern void unlock_page(struct page *page);",
                "void unlock_page(struct page *page);",
                "static void foo(void)",
                "{",
                "\tunlock_page(page);",
                "}",
                "void unlock_page(struct page *page)",
                "{",
                "}",
                "EXPORT_SYMBOL(unlock_page);");
        assertEquals(7, KernelSource.definitionLine(f, "unlock_page()"));
        assertEquals(3, KernelSource.definitionLine(f, "foo()"));
        assertEquals(0, KernelSource.definitionLine(f, "bar()"));
    }

    @Test
    void definesEnumMembersStructsAndVariables(@TempDir Path dir) throws IOException {
        Path f = file(dir,
                "#define\tEIO\t\t 5\t/* I/O error */",
                "#define wake_up(x)\t\t\t__wake_up(x, TASK_NORMAL, 1, NULL)",
                "enum pageflags {",
                "\tPG_locked,\t\t/* Page is locked. Don't touch. */",
                "\tPG_waiters = 7,",
                "};",
                "struct bio {",
                "};",
                "typedef void (bio_end_io_t) (struct bio *);",
                "struct bio_set fs_bio_set;",
                "static wait_queue_head_t page_wait_table[PAGE_WAIT_TABLE_SIZE] __cacheline_aligned;");
        assertEquals(1, KernelSource.definitionLine(f, "EIO"));
        assertEquals(2, KernelSource.definitionLine(f, "wake_up()"));
        assertEquals(4, KernelSource.definitionLine(f, "PG_locked"));
        assertEquals(5, KernelSource.definitionLine(f, "PG_waiters"));
        assertEquals(7, KernelSource.definitionLine(f, "struct bio"));
        assertEquals(9, KernelSource.definitionLine(f, "bio_end_io_t"));
        assertEquals(10, KernelSource.definitionLine(f, "fs_bio_set"));
        assertEquals(11, KernelSource.definitionLine(f, "page_wait_table"));
    }
}
