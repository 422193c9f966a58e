package kmodel.sim;

import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Seed 002 over device speed: the same experiment as {@link Reproduction#run002} (random 4 KiB
 * reads at queue depth 32, {@code preadv}, io-wq and the series) on a row of devices from a slow
 * SATA SSD to the data-sheet NVMe SSD of the main table, each device's figures from its own data
 * sheet (the no-fitting rule of {@link CostModel}: no device parameter was fitted to the seed's
 * results). Which devices: a spread from 39.5k to 540k IOPS, with the two client NVMe devices
 * (270k, 330k) picked, after an exploratory sweep over made-up IOPS values, to fall where the wall
 * time turns; their parameters are their data sheets'.
 *
 * <h2>Why</h2>
 * The seed's own CPU figures (the series at about 52% of a CPU, io-wq's application at 32%) say
 * that neither of its runs was bound by the submitting CPU: its device bounded them. The main
 * table's NVMe device is faster than one CPU can submit to, so there the simulated series is
 * CPU-bound (99%) and the wall-time comparison is made in a regime the seed never measured.
 *
 * <h2>The seed's regime, a rule fixed before the sweep of these devices was run</h2>
 * A point is in the seed's regime when the simulated series' CPU (application, interrupts left
 * out, over real time: {@link SimResult#taskCpuShare()}) is below {@link #SERIES_CPU_LIMIT} of
 * one CPU: the series is not CPU-bound there, as the seed's was not. The rule names no device
 * and no figure of the comparison; {@code ./kmodel reproduce --check} judges seed 002's
 * directions at those points only.
 *
 * <h2>The devices</h2>
 * Each is a {@link DeviceProfile} built by one rule from three data-sheet figures: the random
 * 4 KiB read IOPS ({@code iops}, at the queue depth the data sheet states), the sequential read
 * bandwidth, and the read latency (the data sheet's typical read latency where it gives one,
 * else the period of its queue-depth-1 random-read IOPS). The transfer is 4096 B at the
 * sequential bandwidth; the per-command overhead is the rest of the IOPS period
 * ({@code 1e9 / iops - transfer}); the latency overlaps across the queue as in every profile. SATA
 * devices queue 32 commands (NCQ), NVMe ones 1024 (as {@link DeviceProfile#nvmeSsd()}). At the
 * benchmark's queue depth of 32 a device then serves at most
 * {@code min(1e9 / (command + transfer), 32e9 / (latency + command + transfer))} reads a second
 * ({@link Point#ceilingIops()}): for the PM983, whose data-sheet IOPS are measured deeper than
 * 32, that is 368k, not 540k.
 */
public final class DeviceSweep {
    /** The regime rule: a point is in the seed's regime when the series' CPU is below this share of one CPU. */
    public static final double SERIES_CPU_LIMIT = 0.90;

    /** The benchmark's queue depth (the seed's test app). */
    public static final int QUEUE_DEPTH = 32;

    /** One device of the sweep. */
    public static final class Point {
        public final DeviceProfile device;
        /** The data sheet's random 4 KiB read IOPS. */
        public final double iops;

        Point(DeviceProfile device, double iops) {
            this.device = device;
            this.iops = iops;
        }

        /** Reads per second the simulated device serves at most at queue depth {@link #QUEUE_DEPTH}. */
        public double ceilingIops() {
            double service = device.commandNs + 4096 * device.nsPerByte;
            return Math.min(1e9 / service, QUEUE_DEPTH * 1e9 / (device.latencyNs + service));
        }
    }

    /**
     * A device profile from a data sheet, by the rule in the class comment: {@code iops} random
     * 4 KiB reads a second, {@code seqMBps} MB/s sequential read, {@code latencyUs} read latency.
     */
    public static Point dataSheet(String name, double iops, double seqMBps, double latencyUs, boolean nvme,
            String source) {
        double nsPerByte = 1e3 / seqMBps;
        long commandNs = Math.max(0, Math.round(1e9 / iops - 4096 * nsPerByte));
        return new Point(new DeviceProfile(name, Math.round(latencyUs * 1e3), commandNs, nsPerByte, nvme ? 1024 : 32,
                false, source), iops);
    }

    /**
     * The sweep's devices, slowest first: the main table's SATA profile, three SATA and client
     * NVMe devices between, and the main table's NVMe profile last (both unchanged).
     */
    public static ImmutableList<Point> points() {
        return ImmutableList.of(
                new Point(DeviceProfile.sataSsd(), 39_500),
                dataSheet("intel-dc-s3700", 75_000, 500, 50, false,
                        "Intel SSD DC S3700 product specification (2012): random 4KB read up to 75,000 IOPS "
                                + "(IOMeter, QD32), 500 MB/s sustained sequential read, 50 us read latency (average "
                                + "sequential, typ)"),
                dataSheet("samsung-850-pro", 100_000, 550, 100, false,
                        "Samsung SSD 850 PRO data sheet (2014): 4KB random read 100K IOPS at QD32, 10K IOPS at "
                                + "QD1 (latency 100 us), 550 MB/s sequential read"),
                dataSheet("samsung-950-pro-256g", 270_000, 2200, 1e6 / 11_000, true,
                        "Samsung SSD 950 PRO 256GB data sheet (2015): 4KB random read 270K IOPS at QD32, 11K IOPS "
                                + "at QD1 (latency 91 us), 2,200 MB/s sequential read"),
                dataSheet("samsung-960-evo-250g", 330_000, 3200, 1e6 / 14_000, true,
                        "Samsung SSD 960 EVO 250GB data sheet (2016): 4KB random read 330K IOPS at QD32, 14K "
                                + "IOPS at QD1 (latency 71 us), 3,200 MB/s sequential read"),
                new Point(DeviceProfile.nvmeSsd(), 540_000));
    }

    /** One device's three runs. */
    public static final class Row {
        public final Point point;
        public final SimResult preadv;
        public final SimResult iowq;
        public final SimResult series;

        Row(Point point, SimResult preadv, SimResult iowq, SimResult series) {
            this.point = point;
            this.preadv = preadv;
            this.iowq = iowq;
            this.series = series;
        }

        /** Whether the point is in the seed's regime: the series' CPU below {@link #SERIES_CPU_LIMIT}. */
        public boolean inSeedRegime() {
            return series.taskCpuShare() < SERIES_CPU_LIMIT;
        }

        /** series / io-wq - 1 of the wall time (the seed: -23.0%). */
        public double realChange() {
            return (double) series.wallNs / iowq.wallNs - 1;
        }

        /** series / io-wq - 1 of the CPU (the seed: -36.6%). */
        public double cpuChange() {
            return series.taskCpuShare() / iowq.taskCpuShare() - 1;
        }

        /** series / preadv - 1 of the wall time (the seed: -87.4%). */
        public double preadvChange() {
            return (double) series.wallNs / preadv.wallNs - 1;
        }

        /**
         * The seed 002 figures that move against the seed's at this point: {@code real (io-wq ->
         * series)}, {@code CPU (io-wq -> series)}, {@code real (preadv -> series)} (every seed figure
         * falls, so a change that is not below 0 is against it).
         */
        public List<String> against() {
            List<String> l = new ArrayList<>();
            if (!(realChange() < 0)) {
                l.add("real (io-wq -> series)");
            }
            if (!(cpuChange() < 0)) {
                l.add("CPU (io-wq -> series)");
            }
            if (!(preadvChange() < 0)) {
                l.add("real (preadv -> series)");
            }
            return l;
        }
    }

    public final Reproduction.Scale scale;
    public final int cpus;
    public final ImmutableList<Row> rows;

    private DeviceSweep(Reproduction.Scale scale, int cpus, List<Row> rows) {
        this.scale = scale;
        this.cpus = cpus;
        this.rows = ImmutableList.copyOf(rows);
    }

    /** Seed 002's run in {@code mode} on {@code device}, as {@link Reproduction#run002} runs it on the NVMe profile. */
    public static SimResult run002(Reproduction.Scale s, String mode, CostModel cost, int cpus, DeviceProfile device) {
        return Simulator.run(SimPrograms.uringRandomReads(s.randomReads, QUEUE_DEPTH, 32, 128, 1),
                Reproduction.seed002(mode, cpus), cost, cpus, device, s.toString());
    }

    /**
     * Runs the sweep over {@code points} at {@code scale} on {@code cpus} CPUs; {@code progress}
     * gets the name of each run before it starts.
     */
    public static DeviceSweep run(Reproduction.Scale scale, int cpus, CostModel cost, List<Point> points,
            Consumer<String> progress) {
        return run(scale, cpus, cost, points, null, progress);
    }

    /**
     * {@link #run(Reproduction.Scale, int, CostModel, List, Consumer)}, taking the runs of a point
     * on the {@link DeviceProfile#nvmeSsd()} profile from {@code done} (may be null) when it ran
     * seed 002 at the same scale, CPUs and costs: the simulation is deterministic, so they are the
     * runs this sweep would make.
     */
    public static DeviceSweep run(Reproduction.Scale scale, int cpus, CostModel cost, List<Point> points,
            Reproduction done, Consumer<String> progress) {
        List<Row> rows = new ArrayList<>();
        String[] modes = {"preadv", "io-wq", "series"};
        boolean reuse = done != null && done.scale.toString().equals(scale.toString()) && done.cpus == cpus
                && done.cost.values().equals(cost.values());
        for (Point p : points) {
            SimResult[] r = new SimResult[3];
            for (int i = 0; i < modes.length; i++) {
                SimResult known = reuse && p.device.sameAs(DeviceProfile.nvmeSsd()) ? done.runs.get("002/" + modes[i]) : null;
                if (known != null) {
                    r[i] = known;
                    continue;
                }
                progress.accept("002/" + p.device.name + "/" + modes[i]);
                r[i] = run002(scale, modes[i], cost, cpus, p.device);
            }
            rows.add(new Row(p, r[0], r[1], r[2]));
        }
        return new DeviceSweep(scale, cpus, rows);
    }

    /** The rows in the seed's regime. */
    public List<Row> seedRegime() {
        List<Row> l = new ArrayList<>();
        for (Row r : rows) {
            if (r.inSeedRegime()) {
                l.add(r);
            }
        }
        return l;
    }

    /**
     * Whether seed 002's directions agree with the seed's at every point of the seed's regime,
     * and the regime has a point (an empty regime shows nothing, so it does not agree).
     */
    public boolean agreesInSeedRegime() {
        List<Row> regime = seedRegime();
        if (regime.isEmpty()) {
            return false;
        }
        for (Row r : regime) {
            if (!r.against().isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Where the wall-time comparison turns: for each pair of neighbouring points where the series
     * stops (or starts) finishing before io-wq, one sentence; none when it never turns.
     */
    public List<String> crossovers() {
        List<String> l = new ArrayList<>();
        for (int i = 1; i < rows.size(); i++) {
            Row a = rows.get(i - 1);
            Row b = rows.get(i);
            boolean fa = a.realChange() < 0;
            boolean fb = b.realChange() < 0;
            if (fa != fb) {
                l.add(String.format(Locale.ROOT, "between %s (%s) and %s (%s): the series finishes %s io-wq on the "
                        + "first (%+.1f%%) and %s it on the second (%+.1f%%)", a.point.device.name, kiops(a.point.ceilingIops()),
                        b.point.device.name, kiops(b.point.ceilingIops()), fa ? "before" : "after", a.realChange() * 100,
                        fb ? "before" : "after", b.realChange() * 100));
            }
        }
        return l;
    }

    /** {@code 39.5k IOPS}-style. */
    public static String kiops(double iops) {
        return iops >= 99_950 ? String.format(Locale.ROOT, "%.0fk IOPS", iops / 1e3)
                : String.format(Locale.ROOT, "%.1fk IOPS", iops / 1e3);
    }
}
