package kmodel.verification.scenarios;

import kmodel.kernel.Errno;
import kmodel.mm.MmOptions;
import kmodel.mm.Page;
import kmodel.sim.world.UringWorld;
import kmodel.verification.world.Scenario;
import kmodel.verification.world.ScenarioSet;

/**
 * Scenarios of io_uring (fs/io_uring.c, v5.10) over a real ring: reads submitted with
 * {@code io_uring_enter()}, issued non-blocking, armed on page-unlock callbacks
 * ({@code io_async_buf_func()}), retried from task_work on the submitting task, punted to io-wq
 * when they cannot be; the ring closed and the task exiting while callbacks are armed. Each run
 * checks every SQE's one CQE and its bytes ({@link UringWorld#check}).
 */
public final class UringScenarios {
    private static final int PAGE = Page.PAGE_SIZE;

    private UringScenarios() {
    }

    /** Registers the io_uring scenarios. */
    public static void registerAll(ScenarioSet r) {
        r.register(exitArmed());
        r.register(closeTaskWork());
        r.register(randomReads());
        r.register(device("uring-read-again-dev", kmodel.block.DiskKind.AGAIN_AT_COMPLETION, 1));
        r.register(device("uring-read-nonowait-dev", kmodel.block.DiskKind.NO_NOWAIT, 2));
    }

    /**
     * The io_uring scenarios, all too large for the default run (bound 3) since a ring brings
     * its io-wq (manager and fixed worker) and the exit work: {@code uring-exit-armed} and
     * {@code uring-close-taskwork} are complete at preemption bound 2 (96,303 and 87,725
     * executions; UringModelCheck checks them there) and not within a minute at bound 3;
     * {@code uring-read-same-page} did not finish bound 3 in 150 s (1,240,148 executions, before
     * io-wq was merged); {@code uring-wq-exit} is complete at bound 0 (106,104 executions) and
     * not within the 4,000,000-execution budget at bound 1 (21 minutes).
     */
    public static void registerLarge(ScenarioSet r) {
        r.register(readSamePage("uring-read-same-page", 2));
        r.register(seedClaim());
        r.register(readInflight());
        r.register(wqExit());
        r.register(cqOverflow());
        r.register(cqOverflowBusy());
    }

    /**
     * Scenarios that fail on the default configuration on purpose (findings): v5.10's
     * non-blocking issue sleeping for a request tag.
     */
    public static void registerFindings(ScenarioSet r) {
        r.register(nowaitIssueSleepsOnTag());
    }

    /**
     * {@code finding-uring-nowait-issue-sleeps-on-tag}: a {@code read(2)} of page 1 holds the
     * device's only request tag while an io_uring read of page 0 is issued: the non-blocking
     * attempt starts read-ahead for page 0 (allowed under {@code IOCB_NOWAIT} since "mm: allow
     * read-ahead with IOCB_NOWAIT set"), and its bio, not {@code REQ_NOWAIT} in v5.10 (no nowait
     * plug), sleeps in {@code blk_mq_get_tag()} inside {@code io_issue_sqe(force_nonblock)}:
     * {@code blocked-in-nowait}.
     */
    static Scenario<UringWorld> nowaitIssueSleepsOnTag() {
        return Scenario.<UringWorld>named("finding-uring-nowait-issue-sleeps-on-tag",
                "an io_uring read's non-blocking issue needs the request tag a read(2) of another page holds (1 tag)")
                .setup(() -> new UringWorld(2, 1, 0))
                .task("sync", w -> w.read(Page.PAGE_SIZE, PAGE))
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

    /**
     * {@code uring-read-same-page}: a {@code read(2)} and an io_uring read race on one uncached
     * page (read-ahead off): {@code read-same-page-waitq} on a real ring.
     */
    static Scenario<UringWorld> readSamePage(String name, int tags) {
        return Scenario.<UringWorld>named(name,
                "a read(2) and an io_uring read race on one uncached page (" + tags + " request tag" + (tags > 1 ? "s" : "") + ")")
                .setup(() -> new UringWorld(1, tags, 0))
                .task("sync", w -> w.read(0, PAGE))
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

    /**
     * {@code uring-read-inflight}: an io_uring reader with two reads in flight on an uncached
     * file (pages 0 and 1, read-ahead off) while a {@code read(2)} of page 0 races them.
     */
    static Scenario<UringWorld> readInflight() {
        return Scenario.<UringWorld>named("uring-read-inflight",
                "an io_uring reader with 2 reads in flight on an uncached file races a read(2) of page 0")
                .setup(() -> new UringWorld(2, 2, 0))
                .task("uring", UringScenarios::readPages0And1ThenExit)
                .task("sync", w -> w.read(0, PAGE))
                .atEnd(UringWorld::check)
                .outcome(UringWorld::outcome)
                .build();
    }

    /**
     * {@code uring-exit-armed}: the submitting task exits right after submitting a read of an
     * uncached page: the page-unlock callback fires before or after {@code PF_EXITING}; after,
     * the io-wq manager cancels the request ({@code -ECANCELED}); the ring is freed once its
     * last reference goes.
     */
    static Scenario<UringWorld> exitArmed() {
        return Scenario.<UringWorld>named("uring-exit-armed",
                "the submitting task exits while its read's page-unlock callback is armed")
                .autoBound(2)
                .setup(() -> new UringWorld(1, 1, 0).mayBeCancelled(1))
                .task("uring", w -> {
                    w.setupRing(1);
                    w.queueRead(1, 0, PAGE, 0);
                    w.submitAndWait(0);
                    w.exit();
                })
                .atEnd(UringWorld::check)
                .outcome(UringWorld::outcome)
                .build();
    }

    /**
     * {@code uring-close-taskwork}: the task submits a read of an uncached page, closes the ring
     * and exits: the retry's task_work may be queued after the close (it then runs in the
     * exit's final task_work, with the ring dying) or the callback may come after
     * {@code PF_EXITING} (cancelled by the io-wq manager).
     */
    static Scenario<UringWorld> closeTaskWork() {
        return Scenario.<UringWorld>named("uring-close-taskwork",
                "the ring is closed while a read's task_work retry may be pending, then the task exits")
                .autoBound(2)
                .setup(() -> new UringWorld(1, 1, 0).mayBeCancelled(1))
                .task("uring", w -> {
                    w.setupRing(1);
                    w.queueRead(1, 0, PAGE, 0);
                    w.submitAndWait(0);
                    w.close();
                    w.exit();
                })
                .atEnd(UringWorld::check)
                .outcome(UringWorld::outcome)
                .build();
    }

    /**
     * {@code uring-random-reads}: 4 KiB reads at queue depth 2 over a file partly in the page
     * cache (pages 0-2, page 1 cached; read-ahead off), not page-aligned, so each spans two pages:
     * the read at 2 KiB finds page 0 missing (the callback is armed on it), the read at 6 KiB
     * copies the cached half of page 1 and stops short at page 2 (the rest is retried with
     * {@code bytes_done}). With {@code URING_READS=n} the same reads are {@code preadv(2)}s one
     * after another; with {@code ASYNC_BUFFERED_READS=n} the ring punts them to io-wq.
     */
    static Scenario<UringWorld> randomReads() {
        return Scenario.<UringWorld>named("uring-random-reads",
                "4 KiB reads at queue depth 2 spanning cached and uncached pages (short reads, retries)")
                .autoBound(1)
                .setup(() -> new UringWorld(3, 2, 0).cached(1))
                .task("uring", w -> w.readAll(new long[] {PAGE / 2, PAGE + PAGE / 2}, PAGE, 2))
                .atEnd(UringWorld::check)
                .outcome(UringWorld::outcome)
                .build();
    }

    /** Pages read by {@code uring-seed-claim}, in its order; pages 1 and 4 are cached at set-up. */
    public static final long[] SEED_CLAIM_PAGES = {3, 0, 5, 1, 2, 4};

    /**
     * {@code uring-seed-claim}: seed 002's experiment in small: six page-aligned 4 KiB reads in
     * random order over a six-page file with two pages cached, at queue depth 4 (read-ahead off,
     * 4 request tags), in the configured reading mode ({@code URING_READS},
     * {@code ASYNC_BUFFERED_READS}); its outcome carries the comparison's counters
     * ({@link UringWorld#counters}). Large: for the seed claim test and the CLI, sampled.
     */
    static Scenario<UringWorld> seedClaim() {
        long[] offsets = new long[SEED_CLAIM_PAGES.length];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = SEED_CLAIM_PAGES[i] * PAGE;
        }
        return Scenario.<UringWorld>named("uring-seed-claim",
                "seed 002 in small: 6 random 4 KiB reads at queue depth 4, 2 of 6 pages cached (counts punts, workers, switches)")
                .setup(() -> new UringWorld(6, 4, 0).cached(1).cached(4))
                .task("app", w -> w.readAll(offsets, PAGE, 4))
                .atEnd(UringWorld::check)
                .outcome(w -> w.outcome() + " | " + w.counters())
                .build();
    }

    /**
     * {@code uring-read-again-dev}: one io_uring read of an uncached page on a device that fails a
     * {@code REQ_NOWAIT} bio with {@code BLK_STS_AGAIN} at completion (the read-ahead of the
     * non-blocking attempt leaves the page not uptodate, the callback fires, and the retry reads
     * the page itself on the {@code page_not_up_to_date} path); then the ring is closed and the
     * task exits. {@code uring-read-nonowait-dev}: the same on a device without nowait support
     * ({@code DiskKind.NO_NOWAIT}: the non-blocking read-ahead's {@code REQ_NOWAIT} bio ends with
     * {@code BLK_STS_NOTSUPP}, the read is punted to io-wq). The first runs at bound 1 by default
     * (bound 2: 126,733 executions, 27 s), the second at bound 2 (27,035 executions). Before
     * liburing's wait loop had the explorer's fairness point ({@code Liburing.waitCqes},
     * {@code Runtime.spinYield}), 28 of the second's 32,458 executions at bound 2 stopped at the
     * step bound on unfair schedules, not a kernel loop: the io-wq worker stopped between
     * {@code io_cqring_fill_event()} and {@code io_commit_cqring()} under {@code completion_lock}
     * and never run again, while the application polled ({@code io_uring_enter(GETEVENTS)}
     * returns at once because {@code io_cqring_events()} counts the filled CQE,
     * {@code cached_cq_tail}, and liburing finds none at the published tail). In a kernel the
     * worker runs on its own CPU with preemption off, so the poll ends within nanoseconds.
     */
    static Scenario<UringWorld> device(String name, kmodel.block.DiskKind kind, int autoBound) {
        return Scenario.<UringWorld>named(name, "one io_uring read of an uncached page on a " + kind + " device")
                .autoBound(autoBound)
                .setup(() -> new UringWorld(1, 2, 0, kind))
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

    /**
     * {@code uring-wq-exit}: io_uring without the series ({@code ASYNC_BUFFERED_READS=n},
     * {@code READAHEAD_NOWAIT=n}), so both reads of uncached pages 0 and 1 are punted to io-wq.
     * When the fixed worker sleeps on page 0's lock, {@code io_wq_worker_sleeping()} has the
     * manager create a second worker for the read still queued; the task reaps both CQEs, closes
     * the ring and exits, so {@code io_wq_destroy()} can run while a worker leaves and the manager
     * is still in {@code create_io_worker()}: the window of c4068bf898dd (catalog bug
     * {@code iowq-refs-per-node}).
     */
    static Scenario<UringWorld> wqExit() {
        return Scenario.<UringWorld>named("uring-wq-exit",
                "without the series: 2 reads punted to io-wq, the ring closed and the task exited while the manager may be creating a worker")
                .set(MmOptions.ASYNC_BUFFERED_READS, 0)
                .set(MmOptions.READAHEAD_NOWAIT, 0)
                .autoBound(1)
                .setup(() -> new UringWorld(2, 2, 0))
                .task("uring", UringScenarios::readPages0And1ThenExit)
                .atEnd(UringWorld::check)
                .outcome(UringWorld::outcome)
                .build();
    }

    /** The io_uring task of two scenarios: reads of pages 0 and 1 in flight together, reaped; the ring closed; exit. */
    private static void readPages0And1ThenExit(UringWorld w) {
        w.setupRing(2);
        w.queueRead(1, 0, PAGE, 0);
        w.queueRead(2, PAGE, PAGE, 0);
        w.submitAndWait(2);
        w.reap(2);
        w.close();
        w.exit();
    }

    /**
     * {@code uring-cq-overflow}: a ring of one SQ entry (two CQ entries) gets three reads of cached
     * pages, each submitted alone and completed inline, before it reaps: the third CQE finds the
     * CQ ring full and goes to {@code cq_overflow_list} ({@code __io_cqring_fill_event()}, v5.10).
     * The task reaps one CQE (room again), then submits a read of an uncached page: the submit
     * first flushes the backlog ({@code io_submit_sqes()}' overflow check,
     * {@code io_cqring_overflow_flush()}), the read completes from its page-unlock callback, and
     * the task reaps the other three; then it closes the ring and exits. Checked: every SQE gets
     * exactly one CQE, with the file's bytes (UringWorld's checks), no reference leaked. Within
     * preemption bound 1 by default (bound 3: 1,143,950 executions).
     */
    static Scenario<UringWorld> cqOverflow() {
        return Scenario.<UringWorld>named("uring-cq-overflow",
                "3 reads complete inline into a 2-entry CQ ring (one overflows), then a read of an uncached page flushes the backlog")
                .autoBound(1)
                .setup(() -> new UringWorld(4, 2, 0).cached(0).cached(1).cached(2))
                .task("uring", w -> {
                    w.setupRing(1);
                    for (int i = 0; i < 3; i++) {
                        w.queueRead(i + 1, (long) i * PAGE, PAGE, 0);
                        w.submitAndWait(0);
                    }
                    w.reap(1);
                    w.queueRead(4, 3L * PAGE, PAGE, 0);
                    w.submitAndWait(0);
                    w.reap(3);
                    w.close();
                    w.exit();
                })
                .atEnd(UringWorld::check)
                .outcome(UringWorld::outcome)
                .build();
    }

    /**
     * {@code uring-cq-overflow-busy} (large): a ring of two SQ entries (four CQ entries) gets six
     * reads of cached pages, two per submission, each completing inline: four CQEs in the ring,
     * two in the backlog ({@code cq_overflow_list}). The seventh read's submission is refused with
     * {@code -EBUSY} ({@code io_submit_sqes()}: the backlog cannot be flushed into the full ring);
     * after one CQE is reaped, {@code io_uring_enter(1)} flushes one backlogged CQE into the free
     * slot, finds the ring full again part way and leaves the other ({@code -EBUSY} again); the
     * application then reaps five (its wait flushes the rest), submits the read (of the one
     * uncached page: it waits for the page with a callback and completes from task_work), reaps it, and
     * enters once more with {@code to_submit} 1 on an empty SQ ring (0 submitted). Every read gets
     * exactly one CQE with its bytes. Within preemption bound 1.
     */
    static Scenario<UringWorld> cqOverflowBusy() {
        return Scenario.<UringWorld>named("uring-cq-overflow-busy",
                "6 reads complete inline into a 4-entry CQ ring; submits refused with -EBUSY while the backlog cannot be flushed")
                .autoBound(1)
                .setup(() -> {
                    UringWorld w = new UringWorld(7, 2, 0);
                    for (int i = 0; i < 6; i++) {
                        w.cached(i);
                    }
                    return w;
                })
                .task("uring", w -> {
                    w.setupRing(2);
                    for (int i = 0; i < 6; i += 2) {
                        w.queueRead(i + 1, (long) i * PAGE, PAGE, 0);
                        w.queueRead(i + 2, (long) (i + 1) * PAGE, PAGE, 0);
                        w.submitAndWait(0);
                    }
                    w.queueRead(7, 6L * PAGE, PAGE, 0);
                    expect("a submit with a backlog and a full CQ ring", w.submitAndWait(0), -Errno.EBUSY);
                    w.reap(1);
                    expect("a submit whose flush finds the ring full part way", w.enter(1), -Errno.EBUSY);
                    w.reap(5);
                    expect("the submit after the backlog was flushed", w.enter(1), 1);
                    w.reap(1);
                    expect("a submit of an empty SQ ring", w.enter(1), 0);
                    w.close();
                    w.exit();
                })
                .atEnd(UringWorld::check)
                .outcome(UringWorld::outcome)
                .build();
    }

    private static void expect(String what, long ret, long want) {
        if (ret != want) {
            kmodel.kernel.Kernel.fail(kmodel.kernel.ViolationKind.WRONG_RESULT, what + " returned "
                    + Errno.name(ret) + ", not " + Errno.name(want));
        }
    }
}
