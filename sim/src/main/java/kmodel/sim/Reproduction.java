package kmodel.sim;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import kmodel.block.BlockOptions;
import kmodel.fs.btrfs.BtrfsOptions;
import kmodel.iouring.IoUringOptions;
import kmodel.kernel.Kconfig;
import kmodel.mm.MmOptions;

/**
 * The seeds' three experiments on the simulation, vanilla and patched ({@code ./kmodel
 * reproduce}): the published figures, the model's, and the ratio patched/vanilla of both.
 *
 * <ul>
 *   <li>Seed 000: fio, {@code numjobs} readers of one btrfs file, 32 KiB sequential buffered
 *       reads: {@code BTRFS_READPAGES=0} (vanilla {@code ->readpages} loop) against {@code 2}
 *       (the seed's page pool). Figure: READ bandwidth of the group.</li>
 *   <li>Seed 001: {@code xfs_io -d -c "pwrite -b 128K 0 SIZE"} on a two-device RAID0 btrfs on
 *       {@code pmem}: {@code BTRFS_DIO_CLONE=0} (v4.12 {@code bio_clone_bioset} and
 *       {@code bio_add_page} per page) against {@code 1} (seed 001). Figures: real and sys time.</li>
 *   <li>Seed 002: random 4 KiB reads of every block of a file at queue depth 32: {@code preadv}
 *       ({@code URING_READS=n}), io_uring with io-wq ("Mainline": {@code ASYNC_BUFFERED_READS=n},
 *       {@code READAHEAD_NOWAIT=n}, {@code REQ_RAHEAD_NOWAIT=n}), and the series (the default);
 *       the series and {@code preadv} set {@code REQ_RAHEAD_NOWAIT=y} (patch 01) themselves.
 *       Figures: real time and CPU (CPU time of the application and of io-wq's workers, interrupts left out, over real time: what the seed's "CPU ~82%" counts).</li>
 * </ul>
 * Every run is one deterministic simulation; the figures are simulated, not measured.
 */
public final class Reproduction {
    /** A scale: how big each experiment is (the seeds' sizes are far too big to simulate). */
    public static final class Scale {
        public final String name;
        /** Seed 000: the file each reader reads (the seed: 2000 MiB). */
        public final long readFileBytes;
        /** Seed 001: bytes written (the seed: 2 GiB). */
        public final long writeBytes;
        /** Seed 002: 4 KiB blocks read (the seed: 4 GiB, 1,048,576 blocks). */
        public final int randomReads;

        public Scale(String name, long readFileBytes, long writeBytes, int randomReads) {
            this.name = name;
            this.readFileBytes = readFileBytes;
            this.writeBytes = writeBytes;
            this.randomReads = randomReads;
        }

        /** The default of {@code ./kmodel reproduce}. */
        public static Scale standard() {
            return new Scale("standard", 8L << 20, 8L << 20, 2048);
        }

        /** A quarter of it, for the sensitivity table and the second scale. */
        public static Scale small() {
            return new Scale("small", 2L << 20, 2L << 20, 512);
        }

        @Override
        public String toString() {
            return name + ": seed 000 file " + (readFileBytes >> 20) + " MiB (seed: 2000 MB), seed 001 "
                    + (writeBytes >> 20) + " MiB written (seed: 2 GiB), seed 002 " + randomReads
                    + " random 4 KiB reads (seed: 1,048,576)";
        }
    }

    /** One compared figure: published and simulated, vanilla and patched. */
    public static final class Row {
        public final String seed;
        public final String figure;
        public final String unit;
        public final double publishedVanilla;
        public final double publishedPatched;
        public final double modelVanilla;
        public final double modelPatched;
        /**
         * Why the model's change differs from the seed's (against its direction, or more than a
         * factor of 2 off in size); null when it does not.
         */
        public final String gap;

        Row(String seed, String figure, String unit, double pv, double pp, double mv, double mp, String gapWhenFar) {
            this.seed = seed;
            this.figure = figure;
            this.unit = unit;
            this.publishedVanilla = pv;
            this.publishedPatched = pp;
            this.modelVanilla = mv;
            this.modelPatched = mp;
            this.gap = far() || !sameDirection() ? gapWhenFar : null;
        }

        /** patched / vanilla - 1 of the seed. */
        public double publishedChange() {
            return publishedPatched / publishedVanilla - 1;
        }

        /** patched / vanilla - 1 of the model. */
        public double modelChange() {
            return modelPatched / modelVanilla - 1;
        }

        /** Whether the model's figure moves the way the seed's does (a change of 0 does not). */
        public boolean sameDirection() {
            return Math.signum(modelChange()) == Math.signum(publishedChange()) && modelChange() != 0;
        }

        /** Whether the size of the model's change is off the seed's by more than a factor of 2. */
        public boolean far() {
            double p = Math.abs(publishedChange());
            double m = Math.abs(modelChange());
            return m < p / 2 || m > p * 2;
        }
    }

    public final Scale scale;
    public final int cpus;
    public final CostModel cost;
    /** Every run, by key: {@code 000/vanilla}, {@code 000/patched}, {@code 000/jobs-N/vanilla}..., {@code 001/...}, {@code 002/preadv}, {@code 002/io-wq}, {@code 002/series}. */
    public final ImmutableMap<String, SimResult> runs;
    public final ImmutableList<Row> rows;

    private Reproduction(Scale scale, int cpus, CostModel cost, Map<String, SimResult> runs, List<Row> rows) {
        this.scale = scale;
        this.cpus = cpus;
        this.cost = cost;
        this.runs = ImmutableMap.copyOf(runs);
        this.rows = ImmutableList.copyOf(rows);
    }

    /** Whether every model figure moves the way the seed's does. */
    public boolean allSameDirection() {
        for (Row r : rows) {
            if (!r.sameDirection()) {
                return false;
            }
        }
        return true;
    }

    /** Seed 000's configurations. */
    public static Kconfig seed000(boolean patched) {
        return Kconfig.defaults().with(BtrfsOptions.BTRFS_READPAGES, patched ? 2 : 0);
    }

    /** Seed 001's configurations. */
    public static Kconfig seed001(boolean patched) {
        return Kconfig.defaults().with(BtrfsOptions.BTRFS_DIO_CLONE, patched ? 1 : 0);
    }

    /**
     * Seed 002's three modes: {@code preadv}, {@code io-wq}, {@code series}; io_uring sees
     * {@code cpus} CPUs and the benchmark runs privileged (no {@code RLIMIT_NPROC} limit on io-wq's
     * workers).
     */
    public static Kconfig seed002(String mode, int cpus) {
        // The series and the preadv baseline run on seed 002's kernel: patch 01's REQ_RAHEAD
        // implies REQ_NOWAIT, set here (the declared default is v5.10's single bit).
        Kconfig base = Kconfig.defaults().with(IoUringOptions.IO_URING_ONLINE_CPUS, cpus)
                .with(IoUringOptions.IO_WQ_RLIMIT_NPROC, 4096).with(BlockOptions.REQ_RAHEAD_NOWAIT, 1);
        switch (mode) {
            case "preadv":
                return base.with(IoUringOptions.URING_READS, 0);
            case "io-wq":
                return base.with(MmOptions.ASYNC_BUFFERED_READS, 0).with(MmOptions.READAHEAD_NOWAIT, 0)
                        .with(BlockOptions.REQ_RAHEAD_NOWAIT, 0);
            case "series":
                return base;
            default:
                throw new IllegalArgumentException("seed 002 mode: preadv, io-wq or series, not " + mode);
        }
    }

    /** Seed 000's run: {@code jobs} readers. */
    public static SimResult run000(Scale s, int jobs, boolean patched, CostModel cost, int cpus) {
        return Simulator.run(SimPrograms.btrfsSequentialReads(jobs, s.readFileBytes, 32 << 10, SimPrograms.BTRFS_RA_PAGES),
                seed000(patched),
                cost, cpus, DeviceProfile.sataSsd(), s.toString());
    }

    /** Seed 001's run. */
    public static SimResult run001(Scale s, boolean patched, CostModel cost, int cpus) {
        return Simulator.run(SimPrograms.btrfsDirectWrites(s.writeBytes, 128 << 10), seed001(patched), cost, cpus,
                DeviceProfile.pmem(), s.toString());
    }

    /** Seed 002's run in {@code mode}. */
    public static SimResult run002(Scale s, String mode, CostModel cost, int cpus) {
        return DeviceSweep.run002(s, mode, cost, cpus, DeviceProfile.nvmeSsd());
    }

    /**
     * Runs the three experiments at {@code scale} on {@code cpus} CPUs; with {@code jobSweep},
     * also seed 000 with 1, 2 and 8 readers (the report's throughput chart). {@code progress}
     * gets the name of each run before it starts.
     */
    public static Reproduction run(Scale scale, int cpus, CostModel cost, boolean jobSweep, Consumer<String> progress) {
        Map<String, SimResult> runs = new LinkedHashMap<>();
        for (boolean patched : new boolean[] {false, true}) {
            String form = patched ? "patched" : "vanilla";
            progress.accept("000/" + form);
            runs.put("000/" + form, run000(scale, 4, patched, cost, cpus));
        }
        if (jobSweep) {
            for (int jobs : new int[] {1, 2, 8}) {
                for (boolean patched : new boolean[] {false, true}) {
                    String key = "000/jobs-" + jobs + "/" + (patched ? "patched" : "vanilla");
                    progress.accept(key);
                    runs.put(key, run000(scale, jobs, patched, cost, cpus));
                }
            }
        }
        for (boolean patched : new boolean[] {false, true}) {
            String form = patched ? "patched" : "vanilla";
            progress.accept("001/" + form);
            runs.put("001/" + form, run001(scale, patched, cost, cpus));
        }
        for (String mode : new String[] {"preadv", "io-wq", "series"}) {
            progress.accept("002/" + mode);
            runs.put("002/" + mode, run002(scale, mode, cost, cpus));
        }
        return new Reproduction(scale, cpus, cost, runs, rows(runs));
    }

    private static List<Row> rows(Map<String, SimResult> runs) {
        List<Row> rows = new ArrayList<>();
        SimResult v0 = runs.get("000/vanilla");
        SimResult p0 = runs.get("000/patched");
        double ceiling = 4 * 1e9 / DeviceProfile.sataSsd().nsPerByte / 1e6;
        rows.add(new Row("000", "READ bw (4 jobs)", "MB/s", 745, 934, v0.bandwidth() / 1e6, p0.bandwidth() / 1e6,
                String.format(java.util.Locale.ROOT, "the model has the mechanism: vanilla's racing readers build "
                        + "one-page bios (%d of its %d bios here), the page pool none (%d bios); but with btrfs's "
                        + "4 MiB of read-ahead (open_ctree()) both forms keep the simulated SATA device streaming, "
                        + "%.0f and %.0f MB/s against the %.0f MB/s that four readers of one 270 MB/s device reach "
                        + "at most, so fewer bios cannot raise the throughput: the CPU the patch saves per bio is "
                        + "not what bounds the run. The seed's vanilla run (745 MB/s, where the patched one reached "
                        + "934) was not bound by its device; the model's is",
                        v0.pagesPerBio.getOrDefault(1, 0L), v0.counters.get("bios"), p0.counters.get("bios"),
                        v0.bandwidth() / 1e6, p0.bandwidth() / 1e6, ceiling)));
        SimResult v1 = runs.get("001/vanilla");
        SimResult p1 = runs.get("001/patched");
        rows.add(new Row("001", "real", "s", 10.265, 8.973, v1.wallNs / 1e9, p1.wallNs / 1e9,
                "in the model the pmem copy (memcpy_flushcache) is most of the time and the per-page bio_add_page() "
                        + "and bvec-table copy the patch removes are tens of nanoseconds per page; the seed's "
                        + "kernel spent ~4 ns per byte in sys, far more than a copy"));
        rows.add(new Row("001", "sys", "s", 9.164, 7.804, v1.sysNs / 1e9, p1.sysNs / 1e9,
                "as real: the removed per-page work is small beside the data copy in the cost model"));
        SimResult io = runs.get("002/io-wq");
        SimResult se = runs.get("002/series");
        rows.add(new Row("002", "real (io-wq -> series)", "s", 12.054, 9.283, io.wallNs / 1e9, se.wallNs / 1e9,
                "the simulated NVMe device (540k IOPS) is faster than one CPU can submit to: the series' single "
                        + "task is CPU-bound (about 3.8 us of CPU per read), while io-wq spreads the same work over "
                        + "its workers on 8 CPUs and finishes first, at about twice the CPU, once their creation is paid off "
                        + "(the small scale, 512 reads, still pays it: there the series wins). The seed's run was not "
                        + "CPU-bound (52% and 32% of a CPU for the applications): its device, ~113k IOPS at queue "
                        + "depth 32 by the seed's own figures, bounded both modes. The device sweep below runs the "
                        + "seed where the simulated series is not CPU-bound either"));
        rows.add(new Row("002", "CPU (io-wq -> series)", "%", 82, 52, io.taskCpuShare() * 100, se.taskCpuShare() * 100,
                "the cost model charges a context switch 1.5 us and a worker creation 50 us; the seed's io-wq ran 32 "
                        + "workers for the whole 12 s"));
        SimResult pr = runs.get("002/preadv");
        rows.add(new Row("002", "real (preadv -> series)", "s", 73.821, 9.283, pr.wallNs / 1e9, se.wallNs / 1e9,
                "the ratio is the queue depth the device serves in parallel against one read at a time"));
        return rows;
    }
}
