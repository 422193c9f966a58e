package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import kmodel.mm.FilemapBugs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The non-blocking contract of the read path on the mm side ({@code IOCB_NOWAIT} and
 * {@code IOCB_WAITQ} reads must not sleep, {@code IOCB_NOIO} reads must not start I/O), the
 * {@code page_not_up_to_date} scenarios in both read-path forms, and where the check fires: each
 * counterexample's diagram shows the row where the reader slept.
 */
@Tag("modelcheck")
class NonBlockingReadModelCheck {
    private static final ScenarioRegistry REG = ScenarioRegistry.everything();

    private static CheckResult check(String scenario, List<String> sets, List<String> bugs) {
        Kconfig cfg = KconfigTable.build(sets, bugs);
        return ModelCheck.exhaustive(REG.get(scenario)).config(cfg).run();
    }

    /** The diagram row (one line) holding {@code text}, or "" if none does. */
    private static String row(String diagram, String text) {
        for (String line : diagram.split("\n")) {
            if (line.contains(text)) {
                return line;
            }
        }
        return "";
    }

    /**
     * The mutation {@code nowait-waits-for-page} puts a deliberately blocking call (a wait for the
     * page lock) inside an {@code IOCB_NOWAIT} read: the reader's own read-ahead holds the page
     * locked, and the diagram's last row is the sleep, in {@code wait_on_page_bit_common}.
     */
    @Test
    void aPageLockWaitInsideAnIocbNowaitReadIsBlockedInNowait() {
        CheckResult r = check("nowait-readahead", List.of(), List.of(FilemapBugs.NOWAIT_WAITS_FOR_PAGE));
        assertEquals(ViolationKind.BLOCKED_IN_NOWAIT, r.kind(), r.summaryLine());
        String d = r.diagram();
        assertTrue(row(d, "submit_bio(bio0) READ|RAHEAD|NOWAIT").contains("submit_bio"), d);
        String sleep = row(d, "blocked-in-nowait: nowait sleeps in");
        assertTrue(sleep.contains("wait_on_page_bit_common"), d);
        assertTrue(d.contains("TASK_KILLABLE waiting on"), d);
        assertTrue(r.violation().getMessage().endsWith(
                "inside a non-blocking attempt (generic_file_buffered_read with IOCB_NOWAIT)"), r.violation().getMessage());
    }

    /**
     * Seed 002 patch 02 ("mm: allow read-ahead with IOCB_NOWAIT set") without patch 01
     * ("block: read-ahead submission should imply no-wait as well"), and no nowait plug, is the
     * merged v5.9/v5.10 form ({@code REQ_RAHEAD_NOWAIT=n}; io_uring stopped setting
     * {@code plug->nowait} in 62c774ed4831, v5.9-rc7): the IOCB_NOWAIT read's read-ahead bio is
     * plain {@code REQ_RAHEAD} and sleeps for the request tag the racing reader holds.
     */
    @Test
    void withoutSeedPatch01TheNowaitReadaheadSleepsForATag() {
        CheckResult r = check("nowait-readahead", List.of("REQ_RAHEAD_NOWAIT=n"), List.of());
        assertEquals(ViolationKind.BLOCKED_IN_NOWAIT, r.kind(), r.summaryLine());
        String d = r.diagram();
        assertTrue(row(d, "blk_mq_get_tag: no tag on sda, sleeps").contains("blk_mq_get_tag"), d);
        assertTrue(row(d, "blocked-in-nowait: nowait sleeps in").contains("blk_mq_get_tag"), d);
        assertTrue(r.violation().getMessage().contains("waiting on a request tag of sda inside a non-blocking attempt "
                + "(generic_file_buffered_read with IOCB_NOWAIT)"), r.violation().getMessage());
        assertTrue(row(d, "submit_bio(bio1) READ|RAHEAD sector").length() > 0, "a plain REQ_RAHEAD bio: " + d);
    }

    /** With patch 02 reverted too (no read-ahead under IOCB_NOWAIT) nothing sleeps. */
    @Test
    void withBothReadaheadPatchesRevertedTheNowaitReadDoesNotSleep() {
        CheckResult r = check("nowait-readahead", List.of("REQ_RAHEAD_NOWAIT=n", "READAHEAD_NOWAIT=n"), List.of());
        assertTrue(r.passed(), r.summaryLine() + "\n" + r.diagram());
    }

    /**
     * The finding: v5.10 calls {@code ->readpage} under {@code IOCB_WAITQ} for a page a failed
     * {@code REQ_NOWAIT} read-ahead left not uptodate, and that plain read's bio sleeps for the
     * one request tag, inside the IOCB_WAITQ read (ended by 33a0f5c6b34f in v5.12).
     */
    @Test
    void theWaitqReadpageFindingSleepsForATagInBothForms() {
        for (List<String> sets : List.of(List.<String>of(), List.of("READ_PATH_V59=y"))) {
            CheckResult r = check("finding-waitq-readpage-sleeps-on-tag", sets, List.of());
            assertEquals(ViolationKind.BLOCKED_IN_NOWAIT, r.kind(), r.summaryLine());
            String d = r.diagram();
            String sleep = row(d, "blocked-in-nowait: r sleeps in");
            assertTrue(sleep.contains("blk_mq_get_tag"), d);
            assertTrue(r.violation().getMessage().contains("(generic_file_buffered_read with IOCB_WAITQ)"),
                    r.violation().getMessage());
            assertTrue(d.contains("BLK_STS_AGAIN") || d.contains("again"), "the read-ahead failed first: " + d);
        }
    }

    /**
     * The finding's {@code ->readpage} path on v5.10 as it was (profile v5.10, no seed patch 01):
     * an IOCB_WAITQ read of a page a failed read left not uptodate calls {@code ->readpage}, and
     * its plain {@code READ} bio sleeps for the tag another read holds. The same on v5.9; on v5.7
     * (no async buffered reads) and on v5.10 with {@code ASYNC_BUFFERED_READS=n} the scenario
     * passes (here within preemption bound 1), so the failure is the IOCB_WAITQ read's.
     */
    @Test
    void theReadpagePathIsReachedInV510AfterAReadError() {
        for (String profile : List.of(Profiles.V5_10, Profiles.V5_9)) {
            CheckResult r = ModelCheck.exhaustive(REG.get("finding-waitq-readpage-after-read-error"))
                    .config(KconfigTable.build(profile, List.of(), List.of())).run();
            assertEquals(ViolationKind.BLOCKED_IN_NOWAIT, r.kind(), profile + " " + r.summaryLine());
            String d = r.diagram();
            assertTrue(r.violation().getMessage().contains("(generic_file_buffered_read with IOCB_WAITQ)"),
                    r.violation().getMessage());
            assertTrue(row(d, "blocked-in-nowait: r sleeps in").contains("blk_mq_get_tag"), d);
            assertTrue(row(d, "submit_bio(bio1) READ sector 0").contains("submit_bio"), "a plain READ from ->readpage: " + d);
        }
        for (KconfigCase c : List.of(new KconfigCase(Profiles.V5_7, List.of()),
                new KconfigCase(Profiles.V5_10, List.of("ASYNC_BUFFERED_READS=n")))) {
            CheckResult r = ModelCheck.exhaustive(REG.get("finding-waitq-readpage-after-read-error")).preemptions(1)
                    .config(KconfigTable.build(c.profile(), c.sets(), List.of())).run();
            assertTrue(r.passed(), c + " " + r.summaryLine() + "\n" + r.diagram());
        }
    }

    private record KconfigCase(String profile, List<String> sets) {
    }

    /** Without the async series the re-read is a punt to a blocking read, which may sleep. */
    @Test
    void theWaitqReadpageFindingIsGoneWithoutTheAsyncSeries() {
        CheckResult r = ModelCheck.exhaustive(REG.get("finding-waitq-readpage-sleeps-on-tag")).preemptions(1)
                .config(KconfigTable.build(List.of("ASYNC_BUFFERED_READS=n"), List.of())).run();
        assertTrue(r.passed(), r.summaryLine() + "\n" + r.diagram());
    }

    /**
     * The page_not_up_to_date scenarios (large: not in the default check) pass in both read-path
     * forms (v5.10, and v5.9 with {@code READ_PATH_V59=y}), here within preemption bound 0 (every
     * order of blocking points, no preemption), and some execution of each reads a page the failed
     * read-ahead or read left not uptodate again.
     */
    @Test
    void thePageNotUpToDateScenariosPassInBothForms() {
        for (String s : List.of("nowait-again-reread", "nowait-again-reread-nowait", "read-error-reread-nowait")) {
            for (List<String> sets : List.of(List.<String>of(), List.of("READ_PATH_V59=y"))) {
                CheckResult r = ModelCheck.exhaustive(REG.get(s)).preemptions(0)
                        .config(KconfigTable.build(sets, List.of())).run();
                assertTrue(r.passed(), sets + " " + r.summaryLine() + "\n" + r.diagram());
                boolean failedFirst = false;
                for (String o : r.outcomes()) {
                    failedFirst |= o.contains("BLK_STS_AGAIN=1") || o.contains("EIO=");
                }
                assertTrue(failedFirst, s + " " + sets + ": no execution read a page left not uptodate again: " + r.outcomes());
                System.out.println(s + " " + sets + ": " + r.summaryLine() + " " + r.outcomes());
            }
        }
    }

    /** The mutation nowait-waits-for-page fails the read-error re-read too (its IOCB_NOWAIT read). */
    @Test
    void theReadErrorRereadFailsWithTheNowaitMutation() {
        CheckResult r = ModelCheck.exhaustive(REG.get("read-error-reread-nowait")).preemptions(0)
                .config(KconfigTable.build(List.of(), List.of(FilemapBugs.NOWAIT_WAITS_FOR_PAGE))).run();
        assertEquals(ViolationKind.BLOCKED_IN_NOWAIT, r.kind(), r.summaryLine());
    }
}
