package kmodel.tools.xref;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The provenance-line grammar of {@link Provenance}, one form per test, as the model writes them. */
class ProvenanceTest {
    private static Provenance member(String... lines) {
        return Provenance.parse(List.of(lines), 0, false, null);
    }

    @Test
    void aFunctionWithItsVersion() {
        Provenance p = member("mm/filemap.c: {@code wake_page_function()} (v5.10). Called under {@code q->lock}.");
        assertEquals(List.of("mm/filemap.c"), p.files);
        assertEquals(List.of("wake_page_function()"), p.symbols);
        assertEquals("v5.10", p.version);
        assertFalse(p.mutation);
    }

    @Test
    void aConstantWithoutParentheses() {
        Provenance p = member("include/linux/bio.h: {@code BIO_MAX_PAGES} (v5.10).");
        assertEquals(List.of("BIO_MAX_PAGES"), p.symbols);
        assertEquals("v5.10", p.version);
    }

    @Test
    void argumentsAreDroppedAndOnlyTheFirstClauseOfTheVersionKept() {
        Provenance p = member("fs/io_uring.c: {@code io_uring_enter(fd, to_submit)} (v5.10, no SQPOLL/IOPOLL): run");
        assertEquals(List.of("io_uring_enter()"), p.symbols);
        assertEquals("v5.10", p.version);
        assertEquals("v4.14 to v5.7", member("mm/filemap.c: {@code wake_up_page_bit()} (v4.14 to v5.7). Walks")
                .version);
    }

    @Test
    void chainsOfSeveralNames() {
        assertEquals(List.of("io_free_req()", "__io_free_req()"),
                member("fs/io_uring.c: {@code io_free_req()} -&gt; {@code __io_free_req()} (v5.10, no links):").symbols);
        assertEquals(List.of("init_completion()", "DECLARE_COMPLETION_ONSTACK"),
                member("include/linux/completion.h: {@code init_completion()} / {@code DECLARE_COMPLETION_ONSTACK}.")
                        .symbols);
        assertEquals(List.of("io_prep_rw()", "io_read_prep()"),
                member("fs/io_uring.c: {@code io_prep_rw()} + {@code io_read_prep()} (v5.10): the kiocb").symbols);
    }

    @Test
    void aChainOrATagCutByALineBreakIsJoined() {
        Provenance p = member("include/linux/page-flags.h: {@code set_page_writeback()} ->",
                "{@code test_set_page_writeback()}: set PG_writeback.");
        assertEquals(List.of("set_page_writeback()", "test_set_page_writeback()"), p.symbols);
        Provenance q = member("fs/btrfs/extent_io.c: {@code btrfs_check_repairable(inode, needs_validation, failrec,",
                "failed_mirror)} (v5.10): whether");
        assertEquals(List.of("btrfs_check_repairable()"), q.symbols);
        assertEquals("v5.10", q.version);
    }

    @Test
    void structsTypedefsAndArrays() {
        assertEquals(List.of("struct page"), member("include/linux/mm_types.h: {@code struct page}: its flags").symbols);
        assertEquals(List.of("enum behavior"), member("mm/filemap.c: {@code enum behavior}, the three ways").symbols);
        assertEquals(List.of("bio_end_io_t"),
                member("include/linux/blk_types.h: {@code typedef void (bio_end_io_t) (struct bio *)}. Called").symbols);
        assertEquals(List.of("page_wait_table"),
                member("mm/filemap.c: {@code page_wait_table[PAGE_WAIT_TABLE_SIZE]}, the hashed").symbols);
    }

    @Test
    void aLeadInBeforeTheFirstNameThatIsASymbol() {
        assertEquals(List.of("__schedule()"),
                member("kernel/sched/core.c: the dequeue half of {@code __schedule()}: the current task").symbols);
        Provenance p = member("fs/mpage.c: the {@code confused:} exit of {@code do_mpage_readpage()} (v5.10): submit");
        assertEquals(List.of("do_mpage_readpage()"), p.symbols);
        assertEquals("v5.10", p.version);
    }

    @Test
    void theVersionOfTheFilesAndAMutation() {
        Provenance p = member("A mutation of mm/filemap.c: {@code end_page_writeback()} (v5.10): PG_writeback is");
        assertTrue(p.mutation);
        assertEquals(List.of("end_page_writeback()"), p.symbols);
        Provenance q = Provenance.parse(List.of("include/linux/fs.h (v5.10): {@code struct kiocb}: one read"), 0, true,
                null);
        assertEquals(List.of("struct kiocb"), q.symbols);
        assertEquals("v5.10", q.version);
        assertEquals("v5.10", q.fileVersion);
    }

    @Test
    void severalFilesAndAClassThatMirrorsThemAsAWhole() {
        Provenance p = Provenance.parse(List.of("include/asm-generic/bitops/atomic.h, lock.h, non-atomic.h: bit"), 0,
                true, null);
        assertEquals(List.of("include/asm-generic/bitops/atomic.h", "include/asm-generic/bitops/lock.h",
                "include/asm-generic/bitops/non-atomic.h"), p.files);
        assertTrue(p.symbols.isEmpty());
        Provenance q = Provenance.parse(List.of("kernel/sched/completion.c and include/linux/completion.h (v5.10): "
                + "{@code struct completion}, ..."), 0, true, null);
        assertEquals(List.of("kernel/sched/completion.c", "include/linux/completion.h"), q.files);
    }

    @Test
    void aClassLineThatIsNotAProvenanceLineStillGivesItsMembersAVersion() {
        List<String> line = List.of("block/bio.c (v5.10, with {@code bio_clone_bioset()} and {@code x()} as");
        assertNull(Provenance.parse(line, 0, true, null));
        Provenance context = Provenance.context(line, 0);
        assertEquals(List.of("block/bio.c"), context.files);
        assertEquals("v5.10", context.version);
        assertTrue(context.symbols.isEmpty());
        assertNull(Provenance.context(List.of("The block layer's global state (block/bio.c)."), 0));
    }

    @Test
    void aKernelNamedFieldIsItsOwnSymbol() {
        Provenance p = Provenance.parse(List.of("include/linux/sched.h: on a run queue or running."), 0, false,
                "TASK_RUNNING");
        assertEquals(List.of("TASK_RUNNING"), p.symbols);
    }

    @Test
    void linesThatDoNotStartWithAKernelFileAreNotProvenanceLines() {
        assertNull(member("The page cache of one file."));
        assertNull(member("{@code tsk->flags & PF_EXITING} read by another task (fs/io_uring.c v5.10:"));
        assertNull(member("mm/filemap.c, mm/readahead.c and fs.h (Linux v5.10, with"));
    }

    @Test
    void aLineThatStartsLikeOneButNamesNoSymbolIsAnError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> member("include/linux/sched.h: the state as the kernel would print it."));
        assertTrue(e.getMessage().contains("names no kernel symbol"), e.getMessage());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> member("mm/filemap.c: {@code p->state & state}: wakes"));
        assertTrue(bad.getMessage().contains("cannot read a kernel symbol from {@code p->state & state}"),
                bad.getMessage());
        IllegalArgumentException noDir = assertThrows(IllegalArgumentException.class,
                () -> member("ctree.h: {@code BTRFS_BLOCK_GROUP_DATA}."));
        assertTrue(noDir.getMessage().contains("'ctree.h' has no directory"), noDir.getMessage());
    }

    @Test
    void keysIgnoreParenthesesAndTheStructKeyword() {
        assertEquals("wake_page_function", XrefEntry.key("wake_page_function()"));
        assertEquals("bio", XrefEntry.key("struct bio"));
        assertEquals("PG_locked", XrefEntry.key(" PG_locked "));
    }
}
