package kmodel.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Seed 002 over device speed ({@link DeviceSweep}): the devices are built from their data sheets
 * by one rule (and the table's two profiles are the sweep's ends, unchanged); the sweep is
 * deterministic; at the small scale the seed's regime is the three SATA points and every seed 002
 * figure moves the seed's way there; a deliberately broken cost model (a task_work callback 50
 * times dearer) turns the CPU figure against the seed's in the regime, and a sweep of CPU-bound
 * points only has no regime, so neither agrees. The standard scale's regime and crossover are
 * the full tier's ({@link #standardScaleRegimeAndCrossover()}).
 */
class DeviceSweepTest {
    private static final CostModel COST = CostModel.standard();

    @Test
    void devicesComeFromTheirDataSheetsSlowestFirst() {
        List<DeviceSweep.Point> p = DeviceSweep.points();
        assertEquals("sata-ssd", p.get(0).device.name, "the table's SATA profile first");
        assertEquals(DeviceProfile.sataSsd().commandNs, p.get(0).device.commandNs);
        assertEquals("nvme-ssd", p.get(p.size() - 1).device.name, "the table's NVMe profile last");
        assertEquals(DeviceProfile.nvmeSsd().latencyNs, p.get(p.size() - 1).device.latencyNs);
        for (int i = 0; i < p.size(); i++) {
            DeviceSweep.Point q = p.get(i);
            assertFalse(q.device.source.isEmpty(), q.device.name + " names its source");
            double service = q.device.commandNs + 4096 * q.device.nsPerByte;
            assertEquals(q.iops, 1e9 / service, q.iops * 0.02, q.device.name + ": the IOPS period is command + transfer");
            if (i > 0) {
                assertTrue(q.ceilingIops() > p.get(i - 1).ceilingIops(), "slowest first at queue depth 32");
            }
        }
        // The PM983's 540k IOPS are measured deeper than 32: at 32 its 85 us latency bounds it.
        assertEquals(368_000, p.get(p.size() - 1).ceilingIops(), 1_000);
    }

    private static List<DeviceSweep.Point> slowAndFast() {
        List<DeviceSweep.Point> all = DeviceSweep.points();
        List<DeviceSweep.Point> l = new ArrayList<>(all.subList(0, 3));
        l.add(all.get(all.size() - 1));
        return l;
    }

    @Test
    void smallScaleAgreesInTheSeedsRegimeDeterministically() {
        DeviceSweep a = DeviceSweep.run(Reproduction.Scale.small(), 8, COST, slowAndFast(), n -> { });
        DeviceSweep b = DeviceSweep.run(Reproduction.Scale.small(), 8, COST, slowAndFast().subList(0, 1), n -> { });
        assertEquals(a.rows.get(0).iowq.wallNs, b.rows.get(0).iowq.wallNs, "deterministic");
        assertEquals(a.rows.get(0).series.wallNs, b.rows.get(0).series.wallNs, "deterministic");
        assertEquals(a.rows.get(0).series.sysNs, b.rows.get(0).series.sysNs, "deterministic");
        assertEquals(a.rows.get(0).preadv.wallNs, b.rows.get(0).preadv.wallNs, "deterministic");
        List<String> regime = new ArrayList<>();
        for (DeviceSweep.Row r : a.seedRegime()) {
            regime.add(r.point.device.name);
            assertEquals(List.of(), r.against(), r.point.device.name);
        }
        assertEquals(List.of("sata-ssd", "intel-dc-s3700", "samsung-850-pro"), regime);
        assertFalse(a.rows.get(3).inSeedRegime(), "the series is CPU-bound on the PM983");
        assertTrue(a.agreesInSeedRegime());
    }

    @Test
    void aDearTaskWorkTurnsTheCpuFigureInTheRegime() {
        CostModel broken = COST.scaled(kmodel.kernel.sched.Work.TASK_WORK.name(), 50);
        DeviceSweep s = DeviceSweep.run(Reproduction.Scale.small(), 8, broken, DeviceSweep.points().subList(0, 1), n -> { });
        DeviceSweep.Row sata = s.rows.get(0);
        assertTrue(sata.inSeedRegime(), "still not CPU-bound: " + sata.series.taskCpuShare());
        assertEquals(List.of("CPU (io-wq -> series)"), sata.against());
        assertFalse(s.agreesInSeedRegime());
    }

    @Test
    void noPointInTheRegimeIsNoAgreement() {
        List<DeviceSweep.Point> all = DeviceSweep.points();
        DeviceSweep s = DeviceSweep.run(Reproduction.Scale.small(), 8, COST, all.subList(all.size() - 1, all.size()),
                n -> { });
        assertTrue(s.seedRegime().isEmpty());
        assertFalse(s.agreesInSeedRegime(), "an empty regime shows nothing");
    }

    /** The standard scale (18 simulations, several seconds): the regime, and where the wall time turns. */
    @Test
    @Tag("full")
    void standardScaleRegimeAndCrossover() {
        DeviceSweep s = DeviceSweep.run(Reproduction.Scale.standard(), 8, COST, DeviceSweep.points(), n -> { });
        assertEquals(3, s.seedRegime().size());
        assertTrue(s.agreesInSeedRegime());
        assertEquals(1, s.crossovers().size(), s.crossovers().toString());
        assertTrue(s.crossovers().get(0).startsWith("between samsung-950-pro-256g (270k IOPS) and samsung-960-evo-250g"),
                s.crossovers().toString());
        DeviceSweep.Row nvme = s.rows.get(s.rows.size() - 1);
        assertTrue(nvme.realChange() > 0, "on the PM983 io-wq finishes first, as the table says");
    }
}
