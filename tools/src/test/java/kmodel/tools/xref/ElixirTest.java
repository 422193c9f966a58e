package kmodel.tools.xref;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Elixir references: the entry's version, the tree's version, the address forms. */
class ElixirTest {
    @Test
    void theVersionIsTheNewestTheNoteNamesElseTheDefaultProfilesRelease() {
        assertEquals("v5.10", Elixir.version("v5.10"));
        assertEquals("v5.7", Elixir.version("v4.14 to v5.7"));
        assertEquals("v5.10.13", Elixir.version("v5.10.13"));
        assertEquals("v4.13", Elixir.version("v4.13, seed 001"));
        assertEquals("v5.10.13", Elixir.version(""), "no version: the default profile (v5.10.y), 5.10.13");
        assertEquals("v5.11-rc5", Elixir.version("v5.11-rc5"));
    }

    @Test
    void addresses() {
        assertEquals("https://elixir.bootlin.com/linux/v5.10/source/mm/filemap.c#L1106",
                Elixir.source("v5.10", "mm/filemap.c", 1106));
        assertEquals("https://elixir.bootlin.com/linux/v5.10/source/mm/filemap.c", Elixir.source("v5.10", "mm/filemap.c", 0));
        assertEquals("https://elixir.bootlin.com/linux/v5.10/C/ident/bio", Elixir.ident("v5.10", "struct bio"));
        assertEquals("https://elixir.bootlin.com/linux/v5.10/C/ident/unlock_page", Elixir.ident("v5.10", "unlock_page()"));
    }

    @Test
    void aTreesVersionComesFromItsMakefile(@TempDir Path dir) throws IOException {
        assertNull(Elixir.treeVersion(dir), "no Makefile");
        Files.writeString(dir.resolve("Makefile"), "VERSION = 5\nPATCHLEVEL = 10\nSUBLEVEL = 0\nEXTRAVERSION =\n");
        assertEquals("v5.10", Elixir.treeVersion(dir));
        Files.writeString(dir.resolve("Makefile"), "VERSION = 5\nPATCHLEVEL = 11\nSUBLEVEL = 0\nEXTRAVERSION = -rc5\n");
        assertEquals("v5.11-rc5", Elixir.treeVersion(dir));
        Files.writeString(dir.resolve("Makefile"), "VERSION = 5\nPATCHLEVEL = 10\nSUBLEVEL = 13\nEXTRAVERSION =\n");
        assertEquals("v5.10.13", Elixir.treeVersion(dir));
        Files.writeString(dir.resolve("Makefile"), "all:\n\techo no version here\n");
        assertNull(Elixir.treeVersion(dir));
    }
}
