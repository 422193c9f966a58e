package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.iouring.ContractBreaks;
import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import kmodel.mm.File;
import kmodel.mm.FilemapBugs;
import kmodel.mm.FilemapRead;
import kmodel.mm.IovIter;
import kmodel.mm.Kiocb;
import kmodel.mm.Page;
import kmodel.sim.world.Contracts;
import kmodel.sim.world.ReadWorld;
import kmodel.sim.world.UringWorld;
import kmodel.verification.world.Scenario;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Each contract of docs/contracts.md shown failing on a deliberate break, with the kind the table
 * names. The breaks are small worlds of their own in which every execution breaks the contract,
 * so each check stops at the first execution (deterministic, a few seconds); that the unbroken
 * scenarios pass is the default check's part. Where a catalog bug already breaks a contract
 * ({@code fsync-redirty}, {@code nowait-waits-for-page}), the bug is used; elsewhere the break is
 * test-only and says what it stands for.
 */
@Tag("modelcheck")
class ContractsModelCheck {
    private static final int PAGE = Page.PAGE_SIZE;
    private static final ScenarioRegistry REG = ScenarioRegistry.everything();

    private static CheckResult run(Scenario<?> s, List<String> sets, List<String> bugs) {
        Kconfig cfg = KconfigTable.build(sets, bugs);
        return ModelCheck.exhaustive(s).config(cfg).executions(2_000).run();
    }

    private static void assertFails(CheckResult r, ViolationKind kind, String text) {
        assertEquals(kind, r.kind(), r.summaryLine());
        String msg = r.violation().getMessage();
        assertTrue(msg.contains(text), msg);
    }

    /** A read of a 2-page uncached device through a broken {@code ->read_iter}: {@code body} is the break. */
    private static Scenario<ReadWorld> brokenRead(String name, java.util.function.Consumer<ReadWorld> body) {
        return Scenario.<ReadWorld>named(name, "test-only break of the read-count contract")
                .setup(() -> new ReadWorld(2, 2, 0))
                .task("r", body)
                .atEnd(ReadWorld::check)
                .build();
    }

    /**
     * read-count, -EAGAIN: a kernel that leaks {@code IOCB_NOWAIT} into a plain {@code read(2)} (the
     * class of io_uring's and aio's flag-leak bugs): the read of an uncached page returns
     * {@code -EAGAIN}, which read(2) without {@code RWF_NOWAIT} never does.
     */
    @Test
    void aPlainReadThatReturnsEagainBreaksReadCount() {
        CheckResult r = run(brokenRead("break-nowait-leak", w -> {
            IovIter iter = new IovIter(PAGE);
            long size = w.file.fInode.iSize.plain();
            long ret = FilemapRead.genericFileReadIter(new Kiocb(w.file, 0, Kiocb.IOCB_NOWAIT), iter);
            Contracts.readCount("read", w.file, 0, PAGE, 0, ret, size, p -> false);
        }), List.of(), List.of());
        assertFails(r, ViolationKind.WRONG_RESULT, "contract read-count: read(0, 4096) = -EAGAIN: -EAGAIN without RWF_NOWAIT");
    }

    /**
     * read-count, short: a {@code ->read_iter} that stops after the first page of a two-page read
     * (no end of file, no signal, no failing block): the short read read(2) does not allow here.
     */
    @Test
    void aShortReadAwayFromEndOfFileBreaksReadCount() {
        CheckResult r = run(brokenRead("break-short-read", w -> {
            IovIter iter = new IovIter(PAGE);
            long size = w.file.fInode.iSize.plain();
            long ret = FilemapRead.genericFileReadIter(new Kiocb(w.file, 0, 0), iter);
            Contracts.readCount("read", w.file, 0, 2 * PAGE, 0, ret, size, p -> false);
        }), List.of(), List.of());
        assertFails(r, ViolationKind.WRONG_RESULT, "a short read of 4096 of 8192 bytes");
    }

    /** The same short count is allowed under {@code RWF_NOWAIT} and at a failing block (the control). */
    @Test
    void aShortReadIsAllowedUnderNowaitOrAtAFailingBlock() {
        CheckResult r = run(brokenRead("short-allowed", w -> {
            IovIter iter = new IovIter(PAGE);
            long size = w.file.fInode.iSize.plain();
            long ret = FilemapRead.genericFileReadIter(new Kiocb(w.file, 0, 0), iter);
            Contracts.readCount("preadv2", w.file, 0, 2 * PAGE, Kiocb.IOCB_NOWAIT, ret, size, p -> false);
            Contracts.readCount("read", w.file, 0, 2 * PAGE, 0, ret, size, p -> p >= PAGE);
        }), List.of(), List.of());
        assertTrue(r.passed(), r.summaryLine());
    }

    /** A {@code preadv2(RWF_NOWAIT)} of uncached page 0 of a 2-page device with 2 pages of read-ahead; {@code flags} reach the read. */
    private static Scenario<ReadWorld> rwfNowait(String name, int flags) {
        return Scenario.<ReadWorld>named(name, "preadv2(RWF_NOWAIT) of an uncached page, read-ahead on")
                .setup(() -> new ReadWorld(2, 2, 2))
                .task("r", w -> {
                    if (flags < 0) {
                        w.preadv2Nowait(0, PAGE);
                    } else {
                        w.preadv2Nowait(0, PAGE, flags);
                    }
                })
                .atEnd(ReadWorld::check)
                .build();
    }

    /** rwf-nowait-no-io, the control: v5.10's {@code IOCB_NOWAIT | IOCB_NOIO} starts nothing and returns {@code -EAGAIN}. */
    @Test
    void preadv2NowaitStartsNoIoInV510() {
        CheckResult r = ModelCheck.exhaustive(rwfNowait("rwf-nowait", -1)).config(KconfigTable.build(List.of(), List.of())).run();
        assertTrue(r.passed() && r.complete(), r.summaryLine());
    }

    /**
     * rwf-nowait-no-io: 2e85abf053b9 ("mm: allow read-ahead with IOCB_NOWAIT set") without its fix
     * efa8480a8316 ("fs: RWF_NOWAIT should imply IOCB_NOIO"): {@code RWF_NOWAIT} maps to
     * {@code IOCB_NOWAIT} alone, so the read starts read-ahead, breaking "only doing cached reads".
     */
    @Test
    void preadv2NowaitWithoutIocbNoioStartsReadaheadIsBlockedInNowait() {
        CheckResult r = run(rwfNowait("break-rwf-nowait-no-noio", Kiocb.IOCB_NOWAIT), List.of(), List.of());
        assertFails(r, ViolationKind.BLOCKED_IN_NOWAIT, "inside a section told not to (preadv2(RWF_NOWAIT): v5.9+, efa8480a8316)");
    }

    /**
     * read-count finds a known v5.9/v5.10 bug on its own (finding-rwf-nowait-returns-zero, in
     * ReadScenarios): {@code preadv2(RWF_NOWAIT)} of a cached page marked {@code PG_readahead}
     * returns 0 before end of file ({@code IOCB_NOIO}'s {@code goto out} with no error set); with
     * {@code READAHEAD_NOWAIT=n} (before v5.9: {@code RWF_NOWAIT} without {@code IOCB_NOIO}) the
     * same read returns the page (within preemption bound 2).
     */
    @Test
    void preadv2NowaitOfAReadaheadMarkedPageReturnsZeroInV510() {
        Scenario<?> s = REG.get("finding-rwf-nowait-returns-zero");
        assertFails(run(s, List.of(), List.of()), ViolationKind.WRONG_RESULT,
                "contract read-count: preadv2(4096, 4096, RWF_NOWAIT) = 0: 0 (end of file) with 4096 bytes before i_size 12288");
        CheckResult before = ModelCheck.exhaustive(s).config(KconfigTable.build(List.of("READAHEAD_NOWAIT=n"), List.of()))
                .preemptions(2).run();
        assertTrue(before.passed() && before.complete(), before.summaryLine());
    }

    /** A one-page io_uring read of an uncached page of a block device, the file changed by {@code breakFile}. */
    private static Scenario<UringWorld> uringRead(String name, boolean dropRasync, java.util.function.Consumer<UringWorld> after) {
        return Scenario.<UringWorld>named(name, "test-only break of an io_uring contract")
                .setup(() -> {
                    UringWorld w = new UringWorld(1, 2, 0);
                    if (dropRasync) {
                        w.fd.file.fMode &= ~File.FMODE_BUF_RASYNC;
                    }
                    return w;
                })
                .task("uring", w -> {
                    w.setupRing(2);
                    w.queueRead(1, 0, PAGE, 0);
                    w.submitAndWait(1);
                    w.reap(1);
                    after.accept(w);
                    w.close();
                    w.exit();
                })
                .atEnd(UringWorld::check)
                .build();
    }

    /**
     * uring-no-punt: a block device opened without {@code FMODE_BUF_RASYNC} while the series is on
     * (as if {@code blkdev_open()} had lost the series' patch 03, "block: flag block devices as
     * supporting IOCB_WAITQ"): {@code io_rw_should_retry()} refuses and the read of the uncached
     * page is punted to io-wq, at the punt.
     */
    @Test
    void aPuntedBufferedReadWithTheSeriesOnIsNeedlessPunt() {
        CheckResult r = run(uringRead("break-no-rasync", true, w -> { }), List.of(), List.of());
        assertFails(r, ViolationKind.NEEDLESS_PUNT, "contract uring-no-punt: uring.ring.r0 (a buffered read of sda.f0, which lacks FMODE_BUF_RASYNC)");
        assertTrue(r.diagram().contains("needless-punt"), r.diagram());
    }

    /** Without the series ({@code ASYNC_BUFFERED_READS=n}, the seed's "Mainline") the same punt is what v5.8 does: no needless-punt. */
    @Test
    void thePuntIsNoViolationWithoutTheSeries() {
        CheckResult r = ModelCheck.exhaustive(uringRead("mainline-punt", true, w -> { }))
                .config(KconfigTable.build(List.of("ASYNC_BUFFERED_READS=n", "READAHEAD_NOWAIT=n"), List.of()))
                .executions(200).run();
        assertTrue(r.kind() != ViolationKind.NEEDLESS_PUNT, r.summaryLine());
    }

    /** sqe-cqe, double: a second CQE for the same SQE, posted through the model's {@code io_cqring_add_event()}. */
    @Test
    void aSecondCqeForOneSqeIsDoubleCompletion() {
        CheckResult r = run(uringRead("break-double-cqe", false,
                w -> ContractBreaks.postCqeAgain(w.rings.values().iterator().next().ctx, 1, PAGE)), List.of(), List.of());
        assertFails(r, ViolationKind.DOUBLE_COMPLETION, "SQE 1 on uring.ring got 2 CQEs");
    }

    /** sqe-cqe, lost: the CQE of the one SQE forgotten (a request that ended without one). */
    @Test
    void anSqeWithoutACqeIsLostCompletion() {
        CheckResult r = run(uringRead("break-lost-cqe", false,
                w -> ContractBreaks.loseCqe(w.rings.values().iterator().next().ctx, 1)), List.of(), List.of());
        assertFails(r, ViolationKind.LOST_COMPLETION, "SQE 1 on uring.ring never got a CQE");
    }

    /**
     * fsync-durable: the catalog's {@code wait-on-page-writeback-once} (c2407cf7d22d undone) in
     * {@code fsync-redirty}: fsync returns 0 before the data it had to write is on the device.
     */
    @Test
    void fsyncReturningBeforeTheDataIsOnTheDeviceIsDataCorruption() {
        CheckResult r = run(REG.get("fsync-redirty"), List.of(), List.of(FilemapBugs.WAIT_ON_PAGE_WRITEBACK_ONCE));
        assertFails(r, ViolationKind.DATA_CORRUPTION, "older than the v2 it had to write");
    }

    /** nowait-no-sleep: the catalog's {@code nowait-waits-for-page} mutation (a page-lock wait inside an IOCB_NOWAIT read). */
    @Test
    void aSleepInsideANowaitReadIsBlockedInNowait() {
        CheckResult r = run(REG.get("nowait-readahead"), List.of(), List.of(FilemapBugs.NOWAIT_WAITS_FOR_PAGE));
        assertFails(r, ViolationKind.BLOCKED_IN_NOWAIT, "inside a non-blocking attempt (generic_file_buffered_read with IOCB_NOWAIT)");
    }
}
