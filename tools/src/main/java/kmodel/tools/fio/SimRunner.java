package kmodel.tools.fio;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import kmodel.fs.btrfs.BtrfsVolume;
import kmodel.kernel.Kconfig;
import kmodel.sim.CostModel;
import kmodel.sim.DeviceProfile;
import kmodel.sim.Reproduction;
import kmodel.sim.SimPrograms;
import kmodel.sim.SimResult;
import kmodel.sim.Simulator;

/**
 * The {@link WorkloadRunner} of {@code kmodel fio} and {@code kmodel xfs_io}: each job runs on the
 * virtual-time simulation ({@code kmodel.sim}) as one of the seeds' workloads, which
 * are what the model has:
 * <ul>
 *   <li>{@code rw=read}, buffered, {@code ioengine=sync|psync|pvsync|pvsync2}: {@code numjobs}
 *       readers of one file ({@code filename=}) on a single-device btrfs on a SATA SSD, 128 KiB
 *       read-ahead, the cache empty at the start (seed 000);</li>
 *   <li>{@code rw=randread}, buffered, {@code bs=4k}, one job: every 4 KiB block of the file once
 *       in a seeded random order, through an io_uring of {@code iodepth} ({@code ioengine=io_uring})
 *       or one {@code pread} after another (the sync engines), on a block-device file on an NVMe
 *       SSD (seed 002; ext4 stands as the block device's own {@code generic_file_buffered_read()});</li>
 *   <li>{@code rw=write}, {@code direct=1}, one job from offset 0: direct writes of {@code bs}
 *       over a {@code nodatacow} file on a two-device RAID0 btrfs on {@code pmem} (seed 001).</li>
 * </ul>
 * Anything else is "not modelled" (exit 2). Each job section runs as a simulation of its own
 * (fio's jobs side by side are not simulated together), on the {@link Machine} of
 * {@code --cpus} (8), {@code --device} and {@code --btrfs-profile} (the workload's own by
 * default), with the standard {@link CostModel}, and on the configuration of {@code --set} over
 * the workload's own (seed 002's io_uring sees the CPUs and no {@code RLIMIT_NPROC} limit).
 *
 * <p>Scale: a btrfs data chunk is 16 MiB per device, and a simulation of a million operations
 * would take hours, so jobs run scaled: with {@code --scale auto} (the default) the size is
 * divided by the smallest power of two that brings it to 8 MiB (2,048 random reads) or less, a
 * run of seconds; with {@code --scale 1/N} by N, and with {@code --scale full} not at all, up to
 * the model's limit of 16 MiB (8,192 random reads), beyond which the job is refused. Each result
 * says how it was scaled. Ratios between configurations are what carries over, and only where
 * they do not depend on the scale (see {@code ./kmodel reproduce --report}: seed 002's real-time
 * ratio does).
 */
public final class SimRunner implements WorkloadRunner {
    /** The workloads the model has. */
    private enum Kind {
        /** Seed 000: buffered readers of one btrfs file. */
        SEQ_READ(8L << 20, 16L << 20, "single"),
        /** Seed 002: random 4 KiB reads of a block-device file (no btrfs). */
        RAND_READ(2048L * 4096, 8192L * 4096, null),
        /** Seed 001: direct writes to a btrfs file. */
        DIO_WRITE(8L << 20, 16L << 20, "raid0");

        /** The size {@code --scale auto} scales a job down to (a run of seconds). */
        final long max;
        /**
         * The largest size a job runs at with {@code --scale full} or {@code 1/N}: a btrfs data chunk
         * (16 MiB per device), or 8,192 random reads (the run's page cache is in the host's memory).
         */
        final long limit;
        /** The btrfs data profile unless {@code --btrfs-profile} says otherwise; null: no btrfs. */
        final String profile;

        Kind(long max, long limit, String profile) {
            this.max = max;
            this.limit = limit;
            this.profile = profile;
        }
    }

    private static DeviceProfile device(Machine m, DeviceProfile own) {
        return m.device() == null ? own : DeviceProfile.byName(m.device());
    }

    private static BtrfsVolume.Profile profile(String p) {
        return p.equals("single") ? BtrfsVolume.Profile.SINGLE : p.equals("raid0") ? BtrfsVolume.Profile.RAID0
                : BtrfsVolume.Profile.RAID1;
    }

    @Override
    public List<JobResult> run(List<FioJob> jobs, WorkloadSettings settings, ProgressSink progress) {
        List<JobResult> out = new ArrayList<>();
        for (FioJob job : jobs) {
            out.addAll(runOne(job, settings, progress));
        }
        return out;
    }

    private static List<JobResult> runOne(FioJob job, WorkloadSettings settings, ProgressSink progress) {
        if (job.rw() == FioJob.Rw.RANDWRITE) {
            throw JobFileException.notModelled(job, "rw=randwrite");
        }
        Kind kind;
        if (job.rw() == FioJob.Rw.READ) {
            if (job.direct()) {
                throw JobFileException.notModelled(job, "direct=1 with rw=read");
            }
            if (job.ioengine() == FioJob.IoEngine.IO_URING) {
                throw JobFileException.notModelled(job, "rw=read with ioengine=io_uring");
            }
            if (job.filename() == null) {
                throw JobFileException.notModelled(job,
                        "clones of a job without filename= (each would read a file of its own; the model's readers share one)");
            }
            kind = Kind.SEQ_READ;
        } else if (job.rw() == FioJob.Rw.RANDREAD) {
            if (job.direct()) {
                throw JobFileException.notModelled(job, "direct=1 with rw=randread");
            }
            if (job.bs() != 4096) {
                throw JobFileException.notModelled(job, "rw=randread with bs other than 4k");
            }
            if (job.numjobs() != 1) {
                throw JobFileException.notModelled(job, "rw=randread with numjobs other than 1");
            }
            kind = Kind.RAND_READ;
        } else {
            if (!job.direct()) {
                throw JobFileException.notModelled(job, "buffered writes (direct=0)");
            }
            if (job.numjobs() != 1) {
                throw JobFileException.notModelled(job, "direct writes with numjobs other than 1");
            }
            if (job.offset() != 0) {
                throw JobFileException.notModelled(job, "direct writes from an offset other than 0");
            }
            kind = Kind.DIO_WRITE;
        }
        long size = job.size();
        long divisor = settings.scaleDivisor();
        if (divisor == WorkloadSettings.SCALE_AUTO) {
            divisor = 1;
            while (size / divisor > kind.max) {
                divisor *= 2;
            }
        }
        long scaled = size / divisor;
        if (scaled > kind.limit) {
            throw JobFileException.notModelled(job, String.format(Locale.ROOT,
                    "size %d bytes at scale 1/%d (the model runs at most %d bytes of this kind: use --scale auto or 1/N)",
                    size, divisor, kind.limit));
        }
        scaled -= scaled % job.bs();
        if (scaled < job.bs()) {
            throw JobFileException.notModelled(job, String.format(Locale.ROOT,
                    "size %d bytes at scale 1/%d is less than one bs of %d", size, divisor, job.bs()));
        }
        String note = divisor == 1 ? "full size, simulated"
                : String.format(Locale.ROOT, "size %d bytes run at 1/%d scale (%d bytes): ratios hold, absolute times do not",
                        size, divisor, scaled);
        Machine m = settings.machine();
        int cpus = m.cpus();
        SimPrograms.Run run;
        Kconfig config;
        DeviceProfile device;
        String profile = m.profile() != null ? m.profile() : kind.profile;
        switch (kind) {
            case SEQ_READ:
                run = SimPrograms.btrfsSequentialReads(job.numjobs(), scaled, (int) job.bs(), SimPrograms.BTRFS_RA_PAGES,
                        profile(profile));
                config = settings.config();
                device = device(m, DeviceProfile.sataSsd());
                break;
            case RAND_READ:
                if (m.profile() != null) {
                    throw JobFileException.notModelled(job, "--btrfs-profile with rw=randread (the model reads a block device file)");
                }
                run = SimPrograms.uringRandomReads((int) (scaled / 4096), Math.max(1, job.iodepth()), 32, 128, 1);
                config = Reproduction.seed002(job.ioengine() == FioJob.IoEngine.IO_URING ? "series" : "preadv", cpus)
                        .overlay(settings.config());
                device = device(m, DeviceProfile.nvmeSsd());
                break;
            default:
                run = SimPrograms.btrfsDirectWrites(scaled, (int) job.bs(), profile(profile));
                config = settings.config();
                device = device(m, DeviceProfile.pmem());
                break;
        }
        note += "; " + cpus + " CPUs, " + device.name + (profile == null ? "" : ", btrfs " + profile);
        final long total = kind == Kind.SEQ_READ ? scaled * job.numjobs() : scaled;
        progress.update(0, total, 0);
        run.progress = done -> progress.update(done, total, 0);
        SimResult r;
        try {
            r = Simulator.run(run, config, CostModel.standard(), cpus, device, note);
        } catch (Simulator.SimulationException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        progress.update(total, total, r.wallNs);
        List<JobResult> results = new ArrayList<>();
        for (int i = 0; i < r.jobs.size(); i++) {
            SimResult.JobStats j = r.jobs.get(i);
            JobResult.Builder b = JobResult.builder(job, i).bytes(j.bytes).ios(j.ios).runtimeNanos(j.runtimeNs)
                    .clatNanos(j.latency).userCpuNanos(0).sysCpuNanos(j.cpuNs).scaleNote(note
                            + (r.jobs.size() > 1 ? "; kernel-side counters are the whole run's, given with the first job" : ""));
            if (i == 0) {
                long bios = r.counters.getOrDefault("bios", 0L);
                b.counter(Counter.BIOS, Counter.count(bios));
                b.counter(Counter.PAGES_PER_BIO, Counter.ratio(r.counters.getOrDefault("pages", 0L), bios));
                if (kind == Kind.DIO_WRITE) {
                    b.counter(Counter.CLONES, Counter.count(r.counters.getOrDefault("fast clones", 0L)
                            + r.counters.getOrDefault("bioset clones", 0L)));
                    b.counter(Counter.BVEC_BYTES_COPIED, Counter.count(r.counters.getOrDefault("bvec bytes copied", 0L)));
                }
                if (kind == Kind.RAND_READ) {
                    b.counter(Counter.IO_WQ_PUNTS, Counter.count(r.counters.getOrDefault("io-wq punts", 0L)));
                    b.counter(Counter.WORKERS, Counter.count(r.counters.getOrDefault("io-wq workers", 0L)));
                }
                b.counter(Counter.TASK_SWITCHES, Counter.count(r.switches));
                b.counter(Counter.CPU_UTILISATION, Counter.percent(r.sysNs, r.wallNs * cpus));
            }
            results.add(b.build());
        }
        return results;
    }
}
