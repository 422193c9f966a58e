package kmodel.verification.scenarios;

import kmodel.block.BlockOptions;
import kmodel.mm.Kiocb;
import kmodel.mm.Page;
import kmodel.sim.world.ReadWorld;
import kmodel.verification.world.Scenario;
import kmodel.verification.world.ScenarioSet;

/**
 * Scenarios of the buffered read path end to end: {@code generic_file_buffered_read()} (v5.10)
 * over a block device whose bios complete in interrupt context in every order the explorer
 * picks. Sizes are chosen so that exhaustive search at preemption bound 2 takes seconds.
 */
public final class ReadScenarios {
    private static final int PAGE = Page.PAGE_SIZE;

    private ReadScenarios() {
    }

    /** Registers the read-path scenarios. */
    public static void registerAll(ScenarioSet r) {
        r.register(readSamePage());
        r.register(readSamePageWaitq());
        r.register(waitqSpanning("waitq-spanning-read", 4));
        r.register(waitqSpanning("waitq-spanning-read-nora", 0));
        r.register(nowaitReadahead());
        r.register(readError());
    }

    /**
     * The read-path scenarios too large for the default run (exhaustive at preemption bound 3 they
     * take hundreds of thousands of executions): {@code kmodel check} runs them only when named.
     */
    public static void registerLarge(ScenarioSet r) {
        r.register(readTruncateReuse());
        r.register(nowaitAgainReread("nowait-again-reread", Reread.SYNC));
        r.register(nowaitAgainReread("nowait-again-reread-nowait", Reread.NOWAIT));
        r.register(readErrorReread("read-error-reread-nowait", Reread.NOWAIT));
    }

    /**
     * Scenarios that demonstrate findings: they fail on the default configuration on purpose
     * ({@link kmodel.verification.ScenarioRegistry#findings()}).
     */
    public static void registerFindings(ScenarioSet r) {
        r.register(nowaitAgainReread("finding-waitq-readpage-sleeps-on-tag", Reread.WAITQ));
        r.register(waitqReadpageAfterReadError());
    }

    /**
     * {@code finding-waitq-readpage-after-read-error}: the finding's {@code ->readpage} path as
     * v5.10 itself reaches it (no seed patch 01): page 0 is cached not uptodate, as a transient
     * read error leaves it ({@link ReadWorld#cachedNotUptodate}), so the IOCB_WAITQ read finds the
     * page (no read-ahead), waits for nothing, takes the lock with {@code lock_page_async()} and
     * calls {@code ->readpage}; its plain {@code READ} bio sleeps in {@code blk_mq_get_tag()} when
     * {@code io}'s read of page 1 holds the one tag (v5.10 mm/filemap.c
     * {@code generic_file_buffered_read()}; ended by 33a0f5c6b34f, v5.12).
     */
    static Scenario<ReadWorld> waitqReadpageAfterReadError() {
        return Scenario.<ReadWorld>named("finding-waitq-readpage-after-read-error",
                "an IOCB_WAITQ read of a page a failed read left not uptodate calls ->readpage while a read(2) "
                + "of another page holds the one request tag")
                .setup(() -> new ReadWorld(2, 1, 1).cachedNotUptodate(0))
                .task("io", w -> w.read(PAGE, PAGE, 0))
                .task("r", w -> w.readAsync("r", 0, PAGE))
                .atEnd(ReadWorld::check)
                .outcome(ReadWorld::outcome)
                .build();
    }

    /** How the second read of a page left not uptodate is issued. */
    enum Reread {
        /** {@code read(2)}: the page_not_up_to_date path, {@code ->readpage} under the page lock. */
        SYNC,
        /** {@code IOCB_NOWAIT} ({@code -EAGAIN} on a page not uptodate), then {@code read(2)}. */
        NOWAIT,
        /** {@code IOCB_WAITQ} with a task_work retry ({@code ReadWorld.readAsync}). */
        WAITQ
    }

    private static void reread(ReadWorld w, String name, long pos, Reread how) {
        switch (how) {
            case SYNC:
                w.read(pos, PAGE, 0);
                break;
            case NOWAIT:
                w.read(pos, PAGE, Kiocb.IOCB_NOWAIT);
                w.read(pos, PAGE, 0);
                break;
            default:
                w.readAsync(name, pos, PAGE);
                break;
        }
    }

    /**
     * {@code nowait-again-reread}: pages a failed {@code REQ_NOWAIT} read-ahead left not uptodate
     * are read again (the {@code page_not_up_to_date} path). Two pages, one request tag, read-ahead
     * one page: {@code r} reads page 1 (its read-ahead bio takes the tag), then page 0;
     * {@code nowait} reads page 0 with {@code IOCB_NOWAIT}, whose read-ahead of page 0 is
     * {@code REQ_RAHEAD|REQ_NOWAIT} (seed patch 01) and, when it finds the tag taken, fails with
     * {@code BLK_STS_AGAIN}: the page is unlocked not uptodate. {@code r}'s read of page 0 then
     * finds page 0 unlocked and not uptodate, locks it and reads it itself ({@code ->readpage});
     * with {@code Reread.NOWAIT} it first tries {@code IOCB_NOWAIT} ({@code -EAGAIN}, no I/O),
     * with {@code Reread.WAITQ} it reads with {@code IOCB_WAITQ} (the finding
     * {@code finding-waitq-readpage-sleeps-on-tag}: v5.10 calls {@code ->readpage} under
     * {@code IOCB_WAITQ}, and that bio may sleep for the tag, which 33a0f5c6b34f ended in v5.12;
     * the minimised counterexample needs only {@code r}, whose own IOCB_WAITQ read-ahead fails
     * with {@code BLK_STS_AGAIN} while its first read's request still holds the tag).
     */
    static Scenario<ReadWorld> nowaitAgainReread(String name, Reread how) {
        return Scenario.<ReadWorld>named(name, "a REQ_NOWAIT read-ahead fails with BLK_STS_AGAIN (1 tag) and a "
                + (how == Reread.SYNC ? "read(2)" : how == Reread.NOWAIT ? "IOCB_NOWAIT read then a read(2)" : "IOCB_WAITQ read")
                + " rereads the page it left not uptodate")
                .setup(() -> new ReadWorld(2, 1, 1))
                .task("r", w -> {
                    w.read(PAGE, PAGE, 0);
                    reread(w, "r", 0, how);
                })
                .task("nowait", w -> w.read(0, PAGE, Kiocb.IOCB_NOWAIT))
                .atEnd(ReadWorld::check)
                .outcome(w -> w.outcome() + " BLK_STS_AGAIN=" + w.bdev.stats().again)
                .build();
    }

    /**
     * {@code read-error-reread-nowait}: a page a failed read left not uptodate (a one-page disk
     * that fails it, read-ahead off, two tags) is read again: {@code sync} reads it ({@code -EIO}:
     * the read-ahead of the page fails, the reader finds it unlocked and not uptodate, takes the
     * {@code page_not_up_to_date} path and its own {@code ->readpage} fails too; PG_error, the
     * page stays cached not uptodate) while {@code again} tries it with {@code IOCB_NOWAIT}
     * ({@code -EAGAIN} on a page not uptodate, without I/O) and then with {@code read(2)}
     * ({@code -EIO} by the same path). With read-ahead off the two read-path forms differ: v5.10
     * reads the page first as a one-page read-ahead, v5.9 ({@code READ_PATH_V59=y}) with the
     * read path's own {@code ->readpage} at {@code no_cached_page}.
     *
     * <p>No {@code IOCB_WAITQ} variant: with a disk that fails the page every time, the
     * IOCB_WAITQ read never ends in the model. After its own {@code ->readpage} it arms the
     * callback with {@code lock_page_async()} ({@code -EIOCBQUEUED}) unless the failed read has
     * already completed; the callback's retry finds the page not uptodate again and reads it
     * again. Every run stops at the step bound ({@code BOUND}). Whether v5.10's io_uring loops
     * the same way on a persistent media error was not checked (io_read()'s first,
     * IOCB_NOWAIT, attempt returns -EAGAIN on such a page and re-arms the same retry).
     */
    static Scenario<ReadWorld> readErrorReread(String name, Reread how) {
        return Scenario.<ReadWorld>named(name, "the disk fails its one page (read-ahead off): a read(2) gets -EIO while "
                + "an IOCB_NOWAIT read then a read(2) reread the page it left not uptodate")
                .setup(() -> new ReadWorld(1, 2, 0).failing(0))
                .task("sync", w -> w.read(0, PAGE, 0))
                .task("again", w -> reread(w, "again", 0, how))
                .atEnd(ReadWorld::check)
                .outcome(w -> w.outcome() + " EIO=" + w.bdev.stats().ioErrors)
                .build();
    }

    /** {@code read-same-page}: two synchronous readers race on one uncached page. */
    static Scenario<ReadWorld> readSamePage() {
        return Scenario.<ReadWorld>named("read-same-page",
                "two read(2)s race on the same uncached page of a block device (read-ahead off)")
                .setup(() -> new ReadWorld(2, 2, 0))
                .task("r1", w -> w.read(0, PAGE, 0))
                .task("r2", w -> w.read(0, PAGE, 0))
                .atEnd(ReadWorld::check)
                .outcome(ReadWorld::outcome)
                .build();
    }

    /**
     * {@code read-same-page-waitq}: a synchronous reader and an IOCB_WAITQ reader (page-unlock
     * callback, retry from task_work) race on one uncached page.
     */
    static Scenario<ReadWorld> readSamePageWaitq() {
        return Scenario.<ReadWorld>named("read-same-page-waitq",
                "a read(2) and an IOCB_WAITQ read with a task_work retry race on one uncached page")
                .setup(() -> new ReadWorld(2, 2, 0))
                .task("sync", w -> w.read(0, PAGE, 0))
                .task("uring", w -> w.readAsync("uring", 0, PAGE))
                .atEnd(ReadWorld::check)
                .outcome(ReadWorld::outcome)
                .build();
    }

    /**
     * {@code waitq-spanning-read}: an IOCB_WAITQ read of pages 0-2 where page 1 is cached and
     * pages 0 and 2 are not, racing its own bio completions (and the page-unlock callbacks they
     * fire); read-ahead on ({@code ra = 4}) or off.
     */
    static Scenario<ReadWorld> waitqSpanning(String name, int ra) {
        return Scenario.<ReadWorld>named(name, "an IOCB_WAITQ read spanning pages 0-2 (page 1 cached) with a task_work retry, "
                + (ra > 0 ? "read-ahead on" : "read-ahead off"))
                .setup(() -> new ReadWorld(4, 2, ra).cached(1))
                .task("uring", w -> w.readAsync("uring", 0, 3 * PAGE))
                .atEnd(ReadWorld::check)
                .outcome(ReadWorld::outcome)
                .build();
    }

    /** The recipe of {@link #readTruncateReuse()}. */
    static final String READ_TRUNCATE_REUSE = "pages=2 table=1 walk=64 ra=0 cached=- wb=- fail=- t0=read(0),read(1) t1=trunc(0),read(1)";

    /**
     * {@code read-truncate-reuse}: truncation races a read's completion, and the freed page is
     * reused. {@code t0} reads page 0, then page 1; {@code t1} truncates page 0, then reads page
     * 1. The read bio's {@code unlock_page()} holds no page reference, so between its
     * {@code clear_bit_unlock_is_negative_byte()} and the end of {@code wake_up_page_bit()} the
     * reader may take its bytes and drop its reference, {@code t1}'s truncation may lock, delete,
     * unlock and free the page, and a read (of page 1, or of page 0 again) may take the same
     * {@code struct page} from the allocator while the completion's wake-up is still to walk its
     * queue. In the kernel that walk is harmless ({@code wake_page_match()}
     * compares the page, so the new owner's waiters see at most a spurious wake-up, and
     * {@code ClearPageWaiters()} is skipped while one is queued); the scenario checks that the
     * model says so (the swarm's recipe, kept by name; it was the swarm finding that reported a
     * use-after-free while pages were freed objects). Bug {@code page-endio-unlock-first} breaks
     * it. Large: about 2,000 executions at preemption bound 1 (the swarm's {@code nowait(0)} form of it
     * stops at the merged v5.10 read-ahead's sleep for a request tag first when broken).
     */
    static Scenario<SwarmScenarios.SwarmWorld> readTruncateReuse() {
        return SwarmScenarios.scenario("read-truncate-reuse",
                "truncation frees a page between its read completion's unlock and wake-up; reads reuse the struct page",
                SwarmRecipe.parse(READ_TRUNCATE_REUSE));
    }

    /**
     * {@code nowait-readahead}: an {@code IOCB_NOWAIT} read of an uncached page starts read-ahead
     * and returns {@code -EAGAIN} (seed 002 patch 02); a synchronous reader of the same pages races
     * with the read-ahead, whose bios are {@code REQ_RAHEAD} (and, with patch 01,
     * {@code REQ_NOWAIT}: with one request tag they may fail with {@code BLK_STS_AGAIN}).
     *
     * <p>The world is seed 002's form and says so: it sets {@code REQ_RAHEAD_NOWAIT=y} (patch 01)
     * over any kernel profile. In the merged form (v5.9, v5.10: {@code --set REQ_RAHEAD_NOWAIT=n})
     * the IOCB_NOWAIT read's read-ahead bio sleeps for the tag the racing reader holds
     * ({@code blocked-in-nowait}; {@code NonBlockingReadModelCheck}, and the v5.10 path of
     * docs/findings/waitq-readpage-sleeps-on-tag.md).
     */
    static Scenario<ReadWorld> nowaitReadahead() {
        return Scenario.<ReadWorld>named("nowait-readahead",
                "an IOCB_NOWAIT read triggers read-ahead and returns -EAGAIN while a read(2) races it (1 tag)")
                .set(BlockOptions.REQ_RAHEAD_NOWAIT, 1)
                .setup(() -> new ReadWorld(2, 1, 2))
                .task("nowait", w -> w.read(0, PAGE, Kiocb.IOCB_NOWAIT))
                .task("sync", w -> w.read(0, 2 * PAGE, 0))
                .atEnd(ReadWorld::check)
                .outcome(ReadWorld::outcome)
                .build();
    }

    /**
     * {@code read-error}: page 1 of the device fails to read. A read of pages 0-1 (page 0 cached)
     * returns page 0's bytes ({@code written ?: error}) and a second read of page 1 by the same
     * task gets {@code -EIO}, while a reader of page 0 shares the cache.
     */
    static Scenario<ReadWorld> readError() {
        return Scenario.<ReadWorld>named("read-error",
                "the disk fails page 1: a read of pages 0-1 (0 cached) returns page 0's bytes, a re-read of page 1 gets -EIO")
                .setup(() -> new ReadWorld(2, 2, 0).cached(0).failing(1))
                .task("r01", w -> {
                    w.read(0, 2 * PAGE, 0);
                    w.read(PAGE, PAGE, 0);
                })
                .task("r0", w -> w.read(0, PAGE, 0))
                .atEnd(ReadWorld::check)
                .outcome(ReadWorld::outcome)
                .build();
    }
}
