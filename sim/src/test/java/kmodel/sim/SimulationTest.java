package kmodel.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.fs.btrfs.BtrfsBugs;
import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import org.junit.jupiter.api.Test;

/**
 * The virtual-time simulation: deterministic (the same inputs give the same figures, latency
 * histogram included), it runs the model's own mechanisms (seed 000's page pool builds bigger
 * bios; seed 002's series punts nothing), its cost model moves its clock (a dearer device is
 * slower), and a model that fails during a simulation is an error, never a figure (a catalog bug
 * switched in). Tiny worlds: the whole class runs in a few seconds.
 */
class SimulationTest {
    private static final CostModel COST = CostModel.standard();

    private static SimResult seed000(Kconfig config) {
        return Simulator.run(SimPrograms.btrfsSequentialReads(2, 1L << 20, 32 << 10, 32), config, COST, 4,
                DeviceProfile.sataSsd(), "test");
    }

    @Test
    void sameInputsGiveSameFigures() {
        SimResult a = seed000(Reproduction.seed000(false));
        SimResult b = seed000(Reproduction.seed000(false));
        assertEquals(a.wallNs, b.wallNs);
        assertEquals(a.sysNs, b.sysNs);
        assertEquals(a.switches, b.switches);
        assertEquals(a.wakeUps, b.wakeUps);
        assertEquals(a.counters, b.counters);
        assertEquals(a.pagesPerBio, b.pagesPerBio);
        for (int i = 0; i < a.jobs.size(); i++) {
            assertEquals(a.jobs.get(i).latency, b.jobs.get(i).latency);
            assertEquals(a.jobs.get(i).runtimeNs, b.jobs.get(i).runtimeNs);
        }
        assertTrue(a.wallNs > 0 && a.bytes() == 2L << 20, "two readers read the 1 MiB file each");
    }

    @Test
    void pagepoolBuildsBiggerBiosThanVanilla() {
        SimResult vanilla = seed000(Reproduction.seed000(false));
        SimResult patched = seed000(Reproduction.seed000(true));
        assertTrue(patched.meanPagesPerBio() > vanilla.meanPagesPerBio(),
                "pages per bio: vanilla " + vanilla.pagesPerBio + ", patched " + patched.pagesPerBio);
        assertTrue(patched.counters.get("bios") < vanilla.counters.get("bios"));
    }

    @Test
    void seriesPuntsNothingAndIoWqPunts() {
        Reproduction.Scale tiny = new Reproduction.Scale("tiny", 1 << 20, 1 << 20, 96);
        SimResult series = Reproduction.run002(tiny, "series", COST, 4);
        SimResult iowq = Reproduction.run002(tiny, "io-wq", COST, 4);
        assertEquals(0L, series.counters.get("io-wq punts"));
        assertTrue(iowq.counters.get("io-wq punts") > 0);
        assertTrue(iowq.threads > series.threads, "io-wq creates workers");
        assertTrue(iowq.sysNs > series.sysNs, "io-wq costs more CPU");
    }

    @Test
    void aSlowerDeviceTakesLonger() {
        DeviceProfile slow = new DeviceProfile("slow", 1_000_000, 10_000, 10, 32, false, "test");
        SimResult fast = seed000(Reproduction.seed000(true));
        SimResult slowRun = Simulator.run(SimPrograms.btrfsSequentialReads(2, 1L << 20, 32 << 10, 32),
                Reproduction.seed000(true), COST, 4, slow, "test");
        assertTrue(slowRun.wallNs > fast.wallNs);
        assertEquals(fast.counters.get("bios"), slowRun.counters.get("bios"));
    }

    @Test
    void aDoubledConstantCostsMoreCpu() {
        SimResult base = seed000(Reproduction.seed000(true));
        SimResult dear = Simulator.run(SimPrograms.btrfsSequentialReads(2, 1L << 20, 32 << 10, 32),
                Reproduction.seed000(true), COST.scaled(CostModel.POINT, 2), 4, DeviceProfile.sataSsd(), "test");
        assertTrue(dear.sysNs > base.sysNs);
    }

    /**
     * The error is the bug's own violation, {@code ref-leak}, not merely some failure (an
     * {@code oops} of the model would start with the same words). That it is the kind and message
     * the catalog names is checked in verification ({@code SimulationCatalogTest}): the catalog is
     * above this module.
     */
    @Test
    void aModelThatFailsIsAnErrorNotAFigure() {
        Simulator.SimulationException e = assertThrows(Simulator.SimulationException.class,
                () -> seed000(Reproduction.seed000(true).withBug(BtrfsBugs.PAGEPOOL_LEAK)));
        assertEquals(ViolationKind.REF_LEAK, e.kind(), e.getMessage());
        assertTrue(e.getMessage().startsWith("the model failed during the simulation: " + ViolationKind.REF_LEAK + ": "),
                e.getMessage());
    }
}
