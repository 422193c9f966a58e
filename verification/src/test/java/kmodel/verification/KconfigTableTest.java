package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import kmodel.kernel.Kconfig;
import kmodel.kernel.KernelOptions;
import org.junit.jupiter.api.Test;

class KconfigTableTest {

    @Test
    void setAcceptsNamesWithOrWithoutConfigPrefix() {
        Kconfig a = KconfigTable.build(List.of("WAITQUEUE_WALK_BREAK_CNT=2"), List.of());
        Kconfig b = KconfigTable.build(List.of("CONFIG_WAITQUEUE_WALK_BREAK_CNT=2"), List.of());
        assertEquals(a, b);
        assertEquals(2, a.value(KernelOptions.WAITQUEUE_WALK_BREAK_CNT));
    }

    @Test
    void canonicalTextRoundTrips() {
        Kconfig a = KconfigTable.build(List.of("WAITQUEUE_WALK_BREAK_CNT=3"), List.of("textbook-double-put"));
        assertEquals(a, KconfigTable.parseCanonical(a.canonical()));
        assertTrue(a.bug("textbook-double-put"));
    }

    private static String error(List<String> sets, List<String> bugs) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KconfigTable.build(sets, bugs));
        assertFalse(e.getMessage().contains("\n"));
        return e.getMessage();
    }

    @Test
    void badInputGetsOneLineNamingWhatIsWrong() {
        assertTrue(error(List.of("NOPE=1"), List.of()).contains("NOPE"));
        assertTrue(error(List.of("WAITQUEUE_WALK_BREAK_CNT=x"), List.of()).contains("WAITQUEUE_WALK_BREAK_CNT"));
        assertTrue(error(List.of("WAITQUEUE_WALK_BREAK_CNT=0"), List.of()).contains("[1, 1024]"));
        assertTrue(error(List.of("novalue"), List.of()).contains("NAME=VALUE"));
        assertTrue(error(List.of(), List.of("no-such-bug")).contains("no-such-bug"));
    }

    @Test
    void theMemoryModelRoundTripsAndOnlyInItsCanonicalPlace() {
        Kconfig lkmm = KconfigTable.build("v5.10.y", List.of("PAGE_WAIT_TABLE_SIZE=2"), List.of())
                .withMemoryModel(kmodel.kernel.MemoryModel.LKMM);
        assertEquals("kernel=v5.10.y,memory-model=lkmm,PAGE_WAIT_TABLE_SIZE=2", lkmm.canonical());
        assertEquals(lkmm, KconfigTable.parseCanonical(lkmm.canonical()));
        assertEquals(kmodel.kernel.MemoryModel.LKMM, KconfigTable.parseCanonical("memory-model=lkmm").memoryModel());
        // sc is never written, so an SC text is what it was before the memory model existed
        assertEquals("kernel=v5.10.y", KconfigTable.build("v5.10.y", List.of(), List.of()).canonical());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> KconfigTable.parseCanonical("memory-model=tso"));
        assertTrue(unknown.getMessage().contains("'tso'"), unknown.getMessage());
        // not canonical: sc spelled out, or the model after an option
        assertThrows(IllegalArgumentException.class, () -> KconfigTable.parseCanonical("memory-model=sc"));
        assertThrows(IllegalArgumentException.class,
                () -> KconfigTable.parseCanonical("PAGE_WAIT_TABLE_SIZE=2,memory-model=lkmm"));
    }
}
