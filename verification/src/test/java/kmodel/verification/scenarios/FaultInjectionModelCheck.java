package kmodel.verification.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SortedSet;
import kmodel.block.BlockOptions;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.FaultInject;
import kmodel.kernel.FaultInject.FaultAttr;
import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import kmodel.mm.MmOptions;
import kmodel.mm.Page;
import kmodel.sim.world.ReadWorld;
import kmodel.verification.KconfigTable;
import kmodel.verification.world.Scenario;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The kernel's fault injection in the model ({@link FaultInject}: {@code FAIL_PAGE_ALLOC},
 * {@code FAIL_MAKE_REQUEST}). Each fault scenario passes exhaustively within preemption bound 1
 * (its default bound) and takes its error path in some execution (the outcome shows the error
 * the reader, writer or fsync got: the injected site reached, its error branch taken); a
 * deliberate break of an error path that only fault injection reaches is found (the catalog
 * mutations); and with the options off a scenario explores exactly what it did without fault
 * injection (same executions, same outcomes).
 */
@Tag("modelcheck")
class FaultInjectionModelCheck {
    private static final int PAGE = Page.PAGE_SIZE;

    private static CheckResult bound1(Scenario<?> s, Kconfig cfg) {
        return ModelCheck.exhaustive(s).config(cfg).preemptions(1).run();
    }

    private static boolean any(SortedSet<String> outcomes, String part) {
        for (String o : outcomes) {
            if (o.contains(part)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void pageCacheAllocationFailuresReachTheReadersEnomemAndPassWithinBound1() {
        CheckResult r = bound1(FaultScenarios.faultReadNomem(), Kconfig.defaults());
        assertTrue(r.passed(), () -> r.summaryLine() + "\n" + r.diagram());
        /* generic_file_buffered_read(): no_cached_page's page_cache_alloc() failed, -ENOMEM; and a read cut short */
        assertTrue(any(r.outcomes(), "r1=-ENOMEM"), r.outcomes()::toString);
        assertTrue(any(r.outcomes(), "r01=4096"), r.outcomes()::toString);
        assertTrue(any(r.outcomes(), "r01=8192"), "and executions without a failure: " + r.outcomes());
    }

    @Test
    void aFailedBioReachesTheReadersEioAndPassesWithinBound1() {
        CheckResult r = bound1(FaultScenarios.faultReadEio(), Kconfig.defaults());
        assertTrue(r.passed(), () -> r.summaryLine() + "\n" + r.diagram());
        assertTrue(any(r.outcomes(), "-EIO"), r.outcomes()::toString);
    }

    @Test
    void aFailedWriteBeginMakesTheWriteShortOrEnomemAndPassesWithinBound1() {
        CheckResult r = bound1(FaultScenarios.faultWriteNomem(), Kconfig.defaults());
        assertTrue(r.passed(), () -> r.summaryLine() + "\n" + r.diagram());
        /* grab_cache_page_write_begin() -> pagecache_get_page(FGP_CREAT) failed on page 0, or on page 1 (short write) */
        assertTrue(any(r.outcomes(), "w1=-ENOMEM"), r.outcomes()::toString);
        assertTrue(any(r.outcomes(), "w1=4096"), r.outcomes()::toString);
    }

    @Test
    void aFailedWriteBioIsReportedByFsyncOrFdatawaitAndPassesWithinBound1() {
        CheckResult r = bound1(FaultScenarios.faultWriteEio(), Kconfig.defaults());
        assertTrue(r.passed(), () -> r.summaryLine() + "\n" + r.diagram());
        /* end_buffer_async_write() -> mapping_set_error(-EIO) -> filemap_check_errors() */
        assertTrue(any(r.outcomes(), "fsync=-EIO"), r.outcomes()::toString);
        assertTrue(any(r.outcomes(), "fdatawait=-EIO"), r.outcomes()::toString);
    }

    @Test
    void twoFailedBiosGiveTheIoUringReadEioInItsOneCqeAndPassWithinBound1() {
        CheckResult r = bound1(FaultScenarios.faultUringReadEio(), Kconfig.defaults());
        assertTrue(r.passed(), () -> r.summaryLine() + "\n" + r.diagram());
        /* io_read() -> generic_file_read_iter() -EIO -> io_complete_rw() with res < 0 */
        assertEquals(java.util.Set.of("1=-EIO", "1=4096"), r.outcomes());
    }

    @Test
    void theErrorPathMutationsAreFoundOnlyWithFaultInjection() {
        CheckResult ra = bound1(FaultScenarios.faultReadNomem(),
                KconfigTable.build(List.of(), List.of("readahead-nomem-drops-batch")));
        assertEquals(ViolationKind.MISSED_WAKEUP, ra.kind(), ra::summaryLine);
        CheckResult raOff = bound1(FaultScenarios.faultReadNomem(),
                KconfigTable.build(List.of("FAIL_PAGE_ALLOC=0"), List.of("readahead-nomem-drops-batch")));
        assertTrue(raOff.passed(), "without fault injection the error path is not reached: " + raOff.summaryLine());

        CheckResult wr = bound1(FaultScenarios.faultWriteEio(),
                KconfigTable.build(List.of(), List.of("async-write-error-not-recorded")));
        assertEquals(ViolationKind.DATA_CORRUPTION, wr.kind(), wr::summaryLine);
        CheckResult wrOff = bound1(FaultScenarios.faultWriteEio(),
                KconfigTable.build(List.of("FAIL_MAKE_REQUEST=0"), List.of("async-write-error-not-recorded")));
        assertTrue(wrOff.passed(), "without fault injection the error path is not reached: " + wrOff.summaryLine());
    }

    /** {@code fault-read-nomem}'s world without fault injection. */
    private static Scenario<ReadWorld> twinWithoutFaults() {
        return Scenario.<ReadWorld>named("fault-read-nomem-twin", "fault-read-nomem without FAIL_PAGE_ALLOC")
                .setup(() -> new ReadWorld(2, 1, 2))
                .task("r01", w -> w.read(0, 2 * PAGE, 0))
                .task("r1", w -> w.read(PAGE, PAGE, 0))
                .atEnd(ReadWorld::check)
                .outcome(ReadWorld::outcome)
                .build();
    }

    @Test
    void withTheOptionsOffAScenarioExploresExactlyWhatItDidWithoutFaultInjection() {
        Kconfig off = KconfigTable.build(List.of("FAIL_PAGE_ALLOC=0", "FAIL_MAKE_REQUEST=0"), List.of());
        CheckResult a = bound1(FaultScenarios.faultReadNomem(), off);
        CheckResult b = bound1(twinWithoutFaults(), Kconfig.defaults());
        assertTrue(a.passed() && b.passed(), a.summaryLine() + "\n" + b.summaryLine());
        assertEquals(b.executions(), a.executions());
        assertEquals(b.outcomes(), a.outcomes());
        assertFalse(any(a.outcomes(), "-ENOMEM"), a.outcomes()::toString);
        CheckResult on = bound1(FaultScenarios.faultReadNomem(), Kconfig.defaults());
        assertTrue(on.executions() > a.executions(), "each failure is a choice: " + on.executions() + " vs " + a.executions());
    }

    @Test
    void anAttributeIsOffWithoutARuntimeOrWithItsOptionAtZero() {
        FaultAttr attr = new FaultAttr("fail_make_request", BlockOptions.FAIL_MAKE_REQUEST);
        assertEquals(0, attr.probability);
        assertNull(attr.times, "no object is created when off");
        /* probability 0 returns before touching the runtime (there is none here) */
        assertFalse(FaultInject.shouldFail(attr, PAGE, "submit_bio_noacct", null));
        assertEquals(0, attr.injected());
        assertEquals(0, new FaultAttr("fail_page_alloc", MmOptions.FAIL_PAGE_ALLOC).peekTimes());
    }
}
