package kmodel.verification.scenarios;

import kmodel.mm.Kiocb;
import kmodel.mm.Page;
import kmodel.verification.Scenario;
import kmodel.verification.ScenarioRegistry;

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
    public static void registerAll(ScenarioRegistry r) {
        r.register(readSamePage());
        r.register(readSamePageWaitq());
        r.register(waitqSpanning("waitq-spanning-read", 4));
        r.register(waitqSpanning("waitq-spanning-read-nora", 0));
        r.register(nowaitReadahead());
        r.register(readError());
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

    /**
     * {@code nowait-readahead}: an {@code IOCB_NOWAIT} read of an uncached page starts read-ahead
     * and returns {@code -EAGAIN} (seed 002 patch 02); a synchronous reader of the same pages races
     * with the read-ahead, whose bios are {@code REQ_RAHEAD} (and, with patch 01,
     * {@code REQ_NOWAIT}: with one request tag they may fail with {@code BLK_STS_AGAIN}).
     */
    static Scenario<ReadWorld> nowaitReadahead() {
        return Scenario.<ReadWorld>named("nowait-readahead",
                "an IOCB_NOWAIT read triggers read-ahead and returns -EAGAIN while a read(2) races it (1 tag)")
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
