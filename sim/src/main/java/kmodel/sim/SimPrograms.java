package kmodel.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import kmodel.block.DiskStats;
import kmodel.fs.btrfs.BtrfsInode;
import kmodel.fs.btrfs.BtrfsStats;
import kmodel.fs.btrfs.BtrfsVolume;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.Program;
import kmodel.kernel.sched.Runtime;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;
import kmodel.kernel.sched.Work;
import kmodel.mm.File;
import kmodel.mm.Page;
import kmodel.sim.world.BtrfsDioWorld;
import kmodel.sim.world.BtrfsReads;
import kmodel.sim.world.UringWorld;

/**
 * The seeds' workloads as programs for the virtual-time simulation ({@code kmodel.sim}):
 * the same worlds the scenarios check (a btrfs volume, a block device with an io_uring), run once
 * with many more operations. Each program checks at the end what its scenario checks (every byte
 * read is the file's, references, locks and tags), so a simulation that reports figures also ran
 * correctly; and records, per job, the bytes, the operations, the virtual start and end times and
 * each operation's completion latency.
 *
 * <p>Scale: a btrfs volume's data chunk is 16 MiB per device ({@link BtrfsVolume#CHUNK_LEN}), so
 * files are at most 16 MiB (single) or 32 MiB (RAID0): the simulation runs the seeds' experiments
 * on smaller files, which is how it scales down (see the README's "Simulation" section).
 */
public final class SimPrograms {
    private static final int PAGE = Page.PAGE_SIZE;

    private SimPrograms() {
    }

    /** One job's figures (virtual nanoseconds). */
    public static final class Job {
        public final String name;
        public long bytes;
        public long ios;
        public long startNs;
        public long endNs;
        public final List<Long> latenciesNs = new ArrayList<>();
        /** The job's task, once spawned. */
        public Task task;

        Job(String name) {
            this.name = name;
        }
    }

    /** A workload ready to run: its program, its jobs, and what the model counted afterwards. */
    public abstract static class Run {
        public final List<Job> jobs = new ArrayList<>();
        /** Model counters after the run, in report order (bios, pages per bio, clones, punts...). */
        public final Map<String, Long> counters = new LinkedHashMap<>();
        /** Pages per bio submitted to the devices: size -&gt; bios. */
        public final Map<Integer, Long> pagesPerBio = new TreeMap<>();
        /**
         * Told the bytes done by all jobs so far, after each operation (from the model's tasks, so
         * it must not block); null: nobody listens.
         */
        public volatile java.util.function.LongConsumer progress;
        private long done;

        void advanced(long bytes) {
            done += bytes;
            java.util.function.LongConsumer p = progress;
            if (p != null) {
                p.accept(done);
            }
        }

        /** The program; its {@code finish()} fills {@link #counters} and {@link #pagesPerBio}. */
        public abstract Program program();

        Job job(String name) {
            Job j = new Job(name);
            jobs.add(j);
            return j;
        }

        void addDiskStats(DiskStats s) {
            counters.merge("bios", s.biosSubmitted, Long::sum);
            counters.merge("requests", s.requestsIssued, Long::sum);
            counters.merge("pages", s.pagesSubmitted, Long::sum);
            for (Map.Entry<Integer, Long> e : s.pagesPerBio().entrySet()) {
                pagesPerBio.merge(e.getKey(), e.getValue(), Long::sum);
            }
        }

        void addBtrfsStats(BtrfsStats s) {
            counters.put("btrfs bios", s.bios);
            counters.put("fast clones", s.fastClones);
            counters.put("bioset clones", s.biosetClones);
            counters.put("bvec bytes copied", s.bvecBytesCopied);
        }
    }

    /** Runs {@code body} as a job: its start and end time and its task. */
    private static void timed(Job job, Runnable body) {
        job.task = Sched.current();
        job.startNs = Kernel.rt().now();
        body.run();
        job.endNs = Kernel.rt().now();
    }

    /** {@link #btrfsSequentialReads}'s {@code raPages} for the read-ahead btrfs's mount sets ({@link BtrfsVolume#bdiRaPages()}). */
    public static final int BTRFS_RA_PAGES = -1;

    /**
     * Seed 000: {@code nJobs} threads each read the whole file of {@code fileBytes} sequentially in
     * {@code bs}-byte {@code read(2)} calls, each through an open file of its own with
     * {@code raPages} of read-ahead ({@link #BTRFS_RA_PAGES}: as the mount sets it,
     * {@link BtrfsVolume#bdiRaPages()}), on a single-device btrfs whose cache starts empty
     * ({@code invalidate=1}).
     */
    public static Run btrfsSequentialReads(int nJobs, long fileBytes, int bs, int raPages) {
        return btrfsSequentialReads(nJobs, fileBytes, bs, raPages, BtrfsVolume.Profile.SINGLE);
    }

    /** {@link #btrfsSequentialReads(int, long, int, int)} on a volume of data profile {@code profile}. */
    public static Run btrfsSequentialReads(int nJobs, long fileBytes, int bs, int raPages, BtrfsVolume.Profile profile) {
        return new Run() {
            BtrfsVolume vol;
            BtrfsInode inode;
            final Map<String, List<String>> results = new TreeMap<>();

            @Override
            public Program program() {
                return new Program() {
                    @Override
                    public void boot(Runtime rt) {
                        vol = BtrfsVolume.mkfs(profile, false);
                        BtrfsVolume.FileBuilder b = vol.file("foobar");
                        b.regular(0, fileBytes);
                        inode = b.create();
                        int ra = raPages == BTRFS_RA_PAGES ? vol.bdiRaPages() : raPages;
                        for (int i = 1; i <= nJobs; i++) {
                            Job job = job("READ." + i);
                            File f = vol.open(inode, "foobar.t" + i, ra);
                            rt.spawn("t" + i, "t" + i, false, false, () -> timed(job, () -> {
                                for (long pos = 0; pos < fileBytes; pos += bs) {
                                    int len = (int) Math.min(bs, fileBytes - pos);
                                    long t0 = Kernel.rt().now();
                                    Kernel.rt().work(Work.SYSCALL, 1);
                                    long ret = BtrfsReads.readAndCheck(f, inode, pos, len, results);
                                    if (ret != len) {
                                        Kernel.fail(ViolationKind.WRONG_RESULT, "read(" + pos + ", " + len + ") = " + ret);
                                    }
                                    job.latenciesNs.add(Kernel.rt().now() - t0);
                                    job.bytes += ret;
                                    job.ios++;
                                    advanced(ret);
                                }
                                results.clear();
                            }));
                        }
                    }

                    @Override
                    public String finish() {
                        vol.checkAtEnd();
                        addDiskStats(vol.disk(1).stats());
                        if (profile != BtrfsVolume.Profile.SINGLE) {
                            addDiskStats(vol.disk(2).stats());
                        }
                        addBtrfsStats(vol.fsInfo.stats);
                        return "read " + nJobs + " x " + fileBytes;
                    }
                };
            }
        };
    }

    /**
     * Seed 001: one {@code xfs_io -d -c "pwrite -b bs 0 fileBytes"}: direct writes of {@code bs}
     * bytes, one after another, over a {@code nodatacow} file on a two-device RAID0 btrfs (64 KiB
     * stripes), as the seed's preallocated {@code nodatasum} file (no checksums either way).
     */
    public static Run btrfsDirectWrites(long fileBytes, int bs) {
        return btrfsDirectWrites(fileBytes, bs, BtrfsVolume.Profile.RAID0);
    }

    /** {@link #btrfsDirectWrites(long, int)} on a volume of data profile {@code profile}. */
    public static Run btrfsDirectWrites(long fileBytes, int bs, BtrfsVolume.Profile profile) {
        return new Run() {
            BtrfsDioWorld w;

            @Override
            public Program program() {
                return new Program() {
                    @Override
                    public void boot(Runtime rt) {
                        w = new BtrfsDioWorld(profile, (int) (fileBytes / PAGE), true);
                        Job job = job("pwrite");
                        rt.spawn("t1", "t1", false, false, () -> timed(job, () -> {
                            for (long pos = 0; pos < fileBytes; pos += bs) {
                                int len = (int) Math.min(bs, fileBytes - pos);
                                long t0 = Kernel.rt().now();
                                Kernel.rt().work(Work.SYSCALL, 1);
                                w.directWrite(pos, len);
                                job.latenciesNs.add(Kernel.rt().now() - t0);
                                job.bytes += len;
                                job.ios++;
                                advanced(len);
                            }
                            w.results.clear();
                        }));
                    }

                    @Override
                    public String finish() {
                        w.vol.expectDisksMatchFile(w.inode);
                        w.vol.checkAtEnd();
                        addDiskStats(w.vol.disk(1).stats());
                        if (profile != BtrfsVolume.Profile.SINGLE) {
                            addDiskStats(w.vol.disk(2).stats());
                        }
                        addBtrfsStats(w.vol.fsInfo.stats);
                        return "pwrite " + fileBytes;
                    }
                };
            }
        };
    }

    /**
     * Seed 002: one application reads every 4 KiB block of a {@code reads}-block file once, in a
     * seeded random order, with queue depth {@code qd} through an io_uring (or, with
     * {@code URING_READS=n}, one {@code preadv(2)} after another), on a block device file (the
     * seed's file is on ext4, whose buffered read path is the same
     * {@code generic_file_buffered_read()}; the model has no ext4) with {@code raPages} of
     * read-ahead and {@code nrTags} request tags.
     */
    public static Run uringRandomReads(int reads, int qd, int raPages, int nrTags, long seed) {
        return new Run() {
            UringWorld w;

            @Override
            public Program program() {
                return new Program() {
                    @Override
                    public void boot(Runtime rt) {
                        w = new UringWorld(reads, nrTags, raPages).recordLatencies();
                        long[] offsets = new long[reads];
                        for (int i = 0; i < reads; i++) {
                            offsets[i] = (long) i * PAGE;
                        }
                        Random r = new Random(seed);
                        for (int i = reads - 1; i > 0; i--) {
                            int j = r.nextInt(i + 1);
                            long t = offsets[i];
                            offsets[i] = offsets[j];
                            offsets[j] = t;
                        }
                        Job job = job("app");
                        rt.spawn("app", "app", false, false, () -> timed(job, () -> {
                            w.readAll(offsets, PAGE, qd);
                            job.bytes = (long) reads * PAGE;
                            job.ios = reads;
                            advanced(job.bytes);
                        }));
                    }

                    @Override
                    public String finish() {
                        w.check();
                        jobs.get(0).latenciesNs.addAll(w.latencies);
                        addDiskStats(w.bdev.disk.stats());
                        long[] c = w.counterValues();
                        counters.put("io-wq punts", c[0]);
                        counters.put("io-wq workers", c[1]);
                        counters.put("callbacks armed", c[2]);
                        counters.put("task_work retries", c[3]);
                        counters.put("voluntary switches", c[4]);
                        return "uring " + reads;
                    }
                };
            }
        };
    }
}
