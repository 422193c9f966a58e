package kmodel.verification.scenarios;

import kmodel.block.BlockOptions;
import kmodel.kernel.KconfigOption;
import kmodel.mm.MmOptions;
import kmodel.mm.Page;
import kmodel.block.DiskKind;
import kmodel.sim.world.ReadWorld;
import kmodel.sim.world.UringWorld;
import kmodel.verification.world.Scenario;
import kmodel.verification.world.ScenarioSet;

/**
 * Scenarios with the kernel's fault injection on ({@link kmodel.kernel.FaultInject}):
 * {@code fail_page_alloc} ({@code FAIL_PAGE_ALLOC}) and {@code fail_make_request}
 * ({@code FAIL_MAKE_REQUEST}), each scenario setting its budget itself. Every call of an
 * injected site is a data choice of the checker (fail or not, within the budget), so a search
 * explores each allocation and each bio failing, in every interleaving it explores; the error
 * paths must then be correct: the page unlocked and its waiters woken, the reader given
 * {@code -ENOMEM}, {@code -EIO} or a short count (never wrong bytes), no reference or request
 * tag leaked, a write error reported to a later {@code fsync}. Large (run when named, and by
 * tools/coverage/run's {@code REACH}): written to reach the model's error branches (issue 26).
 */
public final class FaultScenarios {
    private static final int PAGE = Page.PAGE_SIZE;

    private FaultScenarios() {
    }

    /** Registers the fault-injection scenarios (large: run when named). */
    public static void registerLarge(ScenarioSet r) {
        r.register(faultReadNomem());
        r.register(faultReadEio());
        r.register(faultWriteNomem());
        r.register(faultWriteEio());
        r.register(faultUringReadEio());
    }

    /**
     * {@code fault-read-nomem}: two readers of an uncached two-page file (read-ahead 2) with at
     * most two page allocations failing ({@code FAIL_PAGE_ALLOC=2}): read-ahead stops at a failed
     * {@code __page_cache_alloc()} ({@code page_cache_ra_unbounded()}), and a failed allocation at
     * {@code no_cached_page} returns {@code -ENOMEM} ({@code written ?: error}: a short count
     * after page 0). Checked: the read-count contract ({@code -ENOMEM} only after an injected
     * failure), the bytes, and the end state (references, no locked page, tags free).
     */
    static Scenario<ReadWorld> faultReadNomem() {
        return twoReaders("fault-read-nomem",
                "two readers of an uncached file while up to 2 page cache allocations fail (fail_page_alloc)",
                MmOptions.FAIL_PAGE_ALLOC, 2);
    }

    /**
     * {@code fault-read-eio}: two readers of an uncached two-page file (read-ahead 2) while one
     * submitted bio fails ({@code FAIL_MAKE_REQUEST=1}, {@code BLK_STS_IOERR} from
     * {@code submit_bio_checks()}): the read-ahead's or a {@code ->readpage}'s bio. The page is
     * left unlocked, not uptodate, with {@code PG_error} ({@code mpage_end_io()}); a reader
     * waiting on it retries {@code ->readpage} once ({@code page_not_up_to_date_locked}), and a
     * reader whose own {@code ->readpage} failed gets {@code -EIO} or a short count. Checked: the
     * read-count contract, the bytes, the end state.
     */
    static Scenario<ReadWorld> faultReadEio() {
        return twoReaders("fault-read-eio",
                "two readers of an uncached file while one submitted bio fails with BLK_STS_IOERR (fail_make_request)",
                BlockOptions.FAIL_MAKE_REQUEST, 1);
    }

    /**
     * The read world of both read fault scenarios: an uncached two-page file (read-ahead 2), one
     * reader of both pages and one of page 1, with {@code fault} set to {@code times}.
     */
    private static Scenario<ReadWorld> twoReaders(String name, String what, KconfigOption fault, long times) {
        return Scenario.<ReadWorld>named(name, what)
                .set(fault, times)
                .autoBound(1)
                .setup(() -> new ReadWorld(2, 1, 2))
                .task("r01", w -> w.read(0, 2 * PAGE, 0))
                .task("r1", w -> w.read(PAGE, PAGE, 0))
                .atEnd(ReadWorld::check)
                .outcome(ReadWorld::outcome)
                .build();
    }

    /**
     * {@code fault-write-nomem}: a {@code write(2)} of two uncached pages while a reader reads
     * page 1, with one page allocation failing ({@code FAIL_PAGE_ALLOC=1}): a failed
     * {@code grab_cache_page_write_begin()} ({@code pagecache_get_page(FGP_CREAT)}) makes
     * {@code block_write_begin()} return {@code -ENOMEM}, and {@code generic_perform_write()}
     * returns the bytes written before it (a short write) or the error; the reader's allocation
     * may fail instead. Checked: the end state (clean pages match the device, references, no
     * locked page), the reader's contract and versions.
     */
    static Scenario<WriteWorld> faultWriteNomem() {
        return Scenario.<WriteWorld>named("fault-write-nomem",
                "a 2-page write(2) of an uncached file and a reader while one page cache allocation fails (fail_page_alloc)")
                .set(MmOptions.FAIL_PAGE_ALLOC, 1)
                .autoBound(1)
                .setup(() -> new WriteWorld(2, 2, 0))
                .task("writer", w -> w.writePages(0, 2, 1))
                .task("reader", w -> w.read(1, 1))
                .atEnd(WriteWorld::check)
                .outcome(WriteWorld::outcome)
                .build();
    }

    /**
     * {@code fault-write-eio}: page 0 is cached dirty (v1); a writer writes page 1 (v2) and
     * fsyncs while a flusher runs {@code filemap_flush()} and waits ({@code filemap_fdatawait_range()}),
     * with one write bio failing ({@code FAIL_MAKE_REQUEST=1}): {@code end_buffer_async_write()}
     * records the lost write ({@code mapping_set_error(-EIO)}, {@code PG_error}), the page stays
     * clean and uptodate. Checked: an fsync that returns 0 finds its pages on the device, an error
     * is not lost (some fsync or fdatawait returned {@code -EIO}, or {@code AS_EIO} is still set),
     * and the end state.
     */
    static Scenario<WriteWorld> faultWriteEio() {
        return Scenario.<WriteWorld>named("fault-write-eio",
                "a writer fsyncs two dirty pages while a flusher flushes and waits, and one write bio fails (fail_make_request)")
                .set(BlockOptions.FAIL_MAKE_REQUEST, 1)
                .autoBound(1)
                .setup(() -> new WriteWorld(2, 2, 0).cached(0, 1))
                .task("writer", w -> {
                    w.write(1, 2);
                    w.fsync(2, "v1", "v2");
                })
                .task("flusher", w -> {
                    w.flush();
                    w.fdatawait();
                })
                .atEnd(w -> {
                    w.check();
                    w.expectWriteErrorsNotLost();
                })
                .outcome(WriteWorld::outcome)
                .build();
    }

    /**
     * {@code fault-uring-read-eio}: one io_uring read of an uncached page (as
     * {@code uring-read-again-dev}, on a device with nowait support) while up to two bios fail
     * ({@code FAIL_MAKE_REQUEST=2}): the non-blocking attempt's read-ahead bio, the retry's
     * {@code ->readpage} bio, or both (one failure alone is repaired by the retry's
     * {@code ->readpage}). The request completes with one CQE, its bytes or {@code -EIO} (checked: exactly one CQE, no other error, the bytes), then the ring
     * is closed and the task exits (no reference left).
     */
    static Scenario<UringWorld> faultUringReadEio() {
        return Scenario.<UringWorld>named("fault-uring-read-eio",
                "one io_uring read of an uncached page while up to 2 submitted bios fail with BLK_STS_IOERR (fail_make_request)")
                .set(BlockOptions.FAIL_MAKE_REQUEST, 2)
                .autoBound(1)
                .setup(() -> new UringWorld(1, 2, 0, DiskKind.NOWAIT))
                .task("uring", w -> {
                    w.setupRing(1);
                    w.queueRead(1, 0, PAGE, 0);
                    w.submitAndWait(1);
                    w.reap(1);
                    w.close();
                    w.exit();
                })
                .atEnd(UringWorld::check)
                .outcome(UringWorld::outcome)
                .build();
    }
}
