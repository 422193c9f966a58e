package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import kmodel.block.BlockOptions;
import kmodel.fs.btrfs.BtrfsOptions;
import kmodel.kernel.Kconfig;
import kmodel.kernel.KconfigOption;
import kmodel.kernel.KernelOptions;
import kmodel.kernel.KernelProfile;
import kmodel.mm.FilemapBugs;
import kmodel.iouring.IoUringOptions;
import kmodel.mm.MmOptions;
import kmodel.verification.catalog.BugCatalog;
import org.junit.jupiter.api.Test;

/** The kernel profiles: complete, consistent, and carried through the configuration's text. */
class ProfilesTest {
    @Test
    void theProfilesTheIssueAsksForExistAndTheDefaultIsV510y() {
        Set<String> names = new HashSet<>();
        for (KernelProfile p : Profiles.all()) {
            assertTrue(names.add(p.name()), "one profile per name: " + p.name());
        }
        assertEquals(Set.of("v5.10", "v5.10.y", "v5.9", "v5.7", "seed-000", "seed-001", "seed-002"), names);
        assertEquals("v5.10.y", Profiles.DEFAULT);
        assertEquals(Profiles.DEFAULT, Profiles.all().get(0).name(), "the default first");
        assertTrue(Profiles.defaultProfile().bugs().isEmpty(), "the default has no known bug");
    }

    @Test
    void everyProfileSetsEveryOptionInRangeAndNothingElse() {
        Set<String> options = new HashSet<>();
        for (KconfigOption o : KconfigTable.options()) {
            options.add(o.name());
        }
        for (KernelProfile p : Profiles.all()) {
            assertEquals(options, p.values().keySet(), p.name());
            for (KconfigOption o : KconfigTable.options()) {
                long v = p.value(o);
                assertTrue(v >= o.min() && v <= o.max(), p.name() + " " + o.name() + "=" + v);
            }
            for (String bug : p.bugs()) {
                assertNotNull(BugCatalog.find(bug), p.name() + " names catalog bug " + bug);
            }
        }
    }

    @Test
    void onlyKernelCodeOptionsDifferBetweenProfiles() {
        KernelProfile def = Profiles.defaultProfile();
        for (KconfigOption o : KconfigTable.options()) {
            if (Profiles.form(o).equals("code")) {
                continue;
            }
            for (KernelProfile p : Profiles.all()) {
                assertEquals(def.value(o), p.value(o), p.name() + " " + o.name() + " (" + Profiles.form(o) + ")");
                assertEquals(o.defaultValue(), p.value(o), "a " + Profiles.form(o) + " keeps its declared default: " + o.name());
            }
        }
    }

    /**
     * Issue 22, "every default is a real kernel": a run without {@code --kernel} (swarm, fio,
     * xfs_io, bench, {@code Kconfig.defaults()}) models the same kernel as {@code ./kmodel check}'s
     * default profile. Failed before issue 22 on {@code REQ_RAHEAD_NOWAIT} (declared y, seed 002's
     * never-merged patch 01; v5.10.y: n).
     */
    @Test
    void everyDeclaredDefaultIsTheDefaultProfilesValue() {
        KernelProfile def = Profiles.defaultProfile();
        Kconfig defaults = Kconfig.defaults();
        for (KconfigOption o : KconfigTable.options()) {
            assertEquals(def.value(o), o.defaultValue(), o.name() + ": declared default vs " + def.name());
            assertEquals(def.value(o), defaults.value(o), o.name() + ": Kconfig.defaults() vs " + def.name());
        }
    }

    @Test
    void theVersionFormsEachProfileNames() {
        KernelProfile v510y = Profiles.get("v5.10.y");
        KernelProfile v510 = Profiles.get("v5.10");
        KernelProfile v59 = Profiles.get("v5.9");
        KernelProfile v57 = Profiles.get("v5.7");
        KernelProfile s0 = Profiles.get("seed-000");
        KernelProfile s1 = Profiles.get("seed-001");
        KernelProfile s2 = Profiles.get("seed-002");
        // v5.10: the merged REQ_RAHEAD (no REQ_NOWAIT), v5.10's read path and page wait.
        assertEquals(0, v510y.value(BlockOptions.REQ_RAHEAD_NOWAIT));
        assertEquals(1, v510y.value(MmOptions.ASYNC_BUFFERED_READS));
        assertEquals(0, v510y.value(MmOptions.READ_PATH_V59));
        assertEquals(0, v510y.value(MmOptions.PAGE_WAIT_V57));
        assertEquals(BtrfsOptions.READAHEAD_V510, v510y.value(BtrfsOptions.BTRFS_READPAGES));
        assertEquals(0, v510y.value(BlockOptions.SBITMAP_CLEARED_RACE_FIX), "72d04bdcf3f7 is v6.11-rc1");
        // v5.10.0 is v5.10.y but for c2407cf7d22d (5.10.7) and io_uring's exit and teardown forms
        // (00c18640c243 and cda286f0715c in 5.10.4, b1b6b5a30dce in 5.10.5).
        java.util.Map<String, Long> differ = new java.util.TreeMap<>();
        for (java.util.Map.Entry<String, Long> e : v510.values().entrySet()) {
            if (!e.getValue().equals(v510y.values().get(e.getKey()))) {
                differ.put(e.getKey(), e.getValue());
            }
        }
        assertEquals(java.util.Map.of(IoUringOptions.URING_CLOSE_CANCEL_ALL.name(), 1L,
                IoUringOptions.URING_FORCE_FLUSH_DROPS.name(), 1L, IoUringOptions.URING_CANCEL_AFTER_EXITING.name(), 1L),
                differ);
        assertEquals(v510y.values().keySet(), v510.values().keySet());
        for (KernelProfile p : Profiles.all()) {
            if (!p.name().equals("v5.10")) {
                assertEquals(0, p.value(IoUringOptions.URING_CLOSE_CANCEL_ALL), p.name() + ": 5.10.13's teardown form");
            }
        }
        assertEquals(Set.of(FilemapBugs.WAIT_ON_PAGE_WRITEBACK_ONCE), v510.bugs());
        assertEquals(1, v59.value(MmOptions.READ_PATH_V59));
        assertTrue(v59.bugs().contains(FilemapBugs.END_WRITEBACK_NO_PAGE_REF), "073861ed77b6 is v5.10-rc6");
        assertEquals(0, v57.value(MmOptions.ASYNC_BUFFERED_READS));
        assertEquals(1, v57.value(MmOptions.PAGE_WAIT_V57));
        assertEquals(1, s2.value(BlockOptions.REQ_RAHEAD_NOWAIT), "seed 002 patch 01");
        assertEquals(1, s2.value(MmOptions.ASYNC_BUFFERED_READS));
        assertEquals(BtrfsOptions.DIO_CLONE_FAST, s1.value(BtrfsOptions.BTRFS_DIO_CLONE));
        assertEquals(BtrfsOptions.DIO_CLONE_BIOSET, s0.value(BtrfsOptions.BTRFS_DIO_CLONE));
        assertEquals(BtrfsOptions.READPAGES_PAGEPOOL, s0.value(BtrfsOptions.BTRFS_READPAGES));
    }

    @Test
    void aProfileIsABaseUnderSetAndUnderAScenariosOwnSettings() {
        Kconfig c = KconfigTable.build("v5.10", List.of("REQ_RAHEAD_NOWAIT=y"), List.of());
        assertEquals(1, c.value(BlockOptions.REQ_RAHEAD_NOWAIT), "--set wins over the profile");
        assertTrue(c.bug(FilemapBugs.WAIT_ON_PAGE_WRITEBACK_ONCE), "the profile's bug");
        assertEquals(List.of(), c.bugs(), "bugs() lists only --bug's");
        assertEquals("kernel=v5.10,REQ_RAHEAD_NOWAIT=1", c.canonical());
        Kconfig scenario = Kconfig.defaults().with(MmOptions.PAGE_WAIT_TABLE_SIZE, 2).with(BlockOptions.REQ_RAHEAD_NOWAIT, 1);
        Kconfig cli = KconfigTable.build("v5.10.y", List.of(), List.of());
        Kconfig eff = scenario.overlay(cli);
        assertEquals("v5.10.y", eff.profile().name());
        assertEquals(2, eff.value(MmOptions.PAGE_WAIT_TABLE_SIZE));
        assertEquals(1, eff.value(BlockOptions.REQ_RAHEAD_NOWAIT), "a scenario's own setting stays over the profile");
        assertEquals(0, cli.value(BlockOptions.REQ_RAHEAD_NOWAIT));
        assertEquals(64, eff.value(KernelOptions.WAITQUEUE_WALK_BREAK_CNT));
    }

    @Test
    void theCanonicalTextCarriesTheProfileAndRoundTrips() {
        for (KernelProfile p : Profiles.all()) {
            Kconfig c = KconfigTable.build(p.name(), List.of("PAGE_WAIT_TABLE_SIZE=2"), List.of("textbook-double-put"));
            assertEquals("kernel=" + p.name() + ",PAGE_WAIT_TABLE_SIZE=2,bug=textbook-double-put", c.canonical());
            Kconfig back = KconfigTable.parseCanonical(c.canonical());
            assertEquals(c, back);
            for (KconfigOption o : KconfigTable.options()) {
                assertEquals(c.value(o), back.value(o), p.name() + " " + o.name());
            }
            for (String bug : p.bugs()) {
                assertTrue(back.bug(bug), p.name() + " " + bug);
            }
        }
    }

    /** Replay tokens from before profiles carry no {@code kernel=}: they read as they did, on the declared defaults. */
    @Test
    void textWithoutAProfileReadsAsBeforeProfiles() {
        assertEquals(Kconfig.defaults(), KconfigTable.parseCanonical(""));
        Kconfig old = KconfigTable.parseCanonical("PAGE_WAIT_TABLE_SIZE=1,WAITQUEUE_WALK_BREAK_CNT=1,bug=wake-page-match-not-set");
        assertNull(old.profile());
        for (KconfigOption o : KconfigTable.options()) {
            if (!o.name().equals("PAGE_WAIT_TABLE_SIZE") && !o.name().equals("WAITQUEUE_WALK_BREAK_CNT")) {
                assertEquals(o.defaultValue(), old.value(o), o.name());
            }
        }
        // The declared default: seed 002's y until issue 22, v5.10's n since (a token recorded on y
        // before profiles replays with --set REQ_RAHEAD_NOWAIT=y).
        assertEquals(0, old.value(BlockOptions.REQ_RAHEAD_NOWAIT), "the declared default, v5.10's");
        assertFalse(old.bug(FilemapBugs.WAIT_ON_PAGE_WRITEBACK_ONCE));
        assertEquals(KconfigTable.build(List.of("PAGE_WAIT_TABLE_SIZE=1", "WAITQUEUE_WALK_BREAK_CNT=1"),
                List.of("wake-page-match-not-set")), old);
    }

    @Test
    void badProfilesAreOneLineErrors() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KconfigTable.build("v9.9", List.of(), List.of()));
        assertFalse(e.getMessage().contains("\n"));
        assertTrue(e.getMessage().contains("'v9.9'") && e.getMessage().contains("v5.10.y"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> KconfigTable.parseCanonical("kernel=v9.9"));
        assertTrue(e.getMessage().contains("v9.9") && !e.getMessage().contains("\n"), e.getMessage());
        // Only Kconfig.canonical()'s spelling: the profile first, once.
        assertThrows(IllegalArgumentException.class, () -> KconfigTable.parseCanonical("PAGE_WAIT_TABLE_SIZE=2,kernel=v5.10"));
        assertThrows(IllegalArgumentException.class, () -> KconfigTable.parseCanonical("kernel=v5.10,kernel=v5.10"));
        assertThrows(IllegalArgumentException.class, () -> KconfigTable.parseCanonical("kernel=v5.10,kernel=v5.9"));
    }

    @Test
    void equalityTellsProfilesApart() {
        Kconfig a = KconfigTable.build("v5.10", List.of(), List.of());
        Kconfig b = KconfigTable.build("v5.10.y", List.of(), List.of());
        assertFalse(a.equals(b));
        assertFalse(a.equals(Kconfig.defaults()));
        Map<String, Long> none = new TreeMap<>();
        assertEquals(Kconfig.of(none, List.of()), Kconfig.defaults());
    }
}
