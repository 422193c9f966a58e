package kmodel.sim;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What one simulated run measured, all in virtual time: per job its bytes, operations, run time
 * and completion-latency histogram; for the run its wall time, the CPU time of every task
 * (system time: all of the model's tasks run kernel code), context switches and wake-ups, and the
 * model's own counters (bios, pages per bio, clones, bvec bytes copied, io-wq punts, workers...).
 * These are SIMULATED figures of the model under {@link CostModel}, not measurements.
 */
public final class SimResult {
    /** One job's figures. */
    public static final class JobStats {
        public final String name;
        public final long bytes;
        public final long ios;
        public final long runtimeNs;
        /** CPU time of the job's own task. */
        public final long cpuNs;
        /** Completion latencies in ns (1 ns to 1 hour, 3 significant digits). */
        public final Histogram latency;

        JobStats(String name, long bytes, long ios, long runtimeNs, long cpuNs, Histogram latency) {
            this.name = name;
            this.bytes = bytes;
            this.ios = ios;
            this.runtimeNs = runtimeNs;
            this.cpuNs = cpuNs;
            this.latency = latency;
        }
    }

    public final ImmutableList<JobStats> jobs;
    /** Virtual time from the first task's start to the last task's end. */
    public final long wallNs;
    /** CPU time of all tasks (jobs, interrupts, workers). */
    public final long sysNs;
    /** CPU time of the completion interrupts, part of {@link #sysNs}. */
    public final long irqNs;
    /** Times a CPU started running another task than the one it ran before. */
    public final long switches;
    public final long wakeUps;
    /** Kernel threads created during the run (io-wq workers and the like). */
    public final long threads;
    public final int cpus;
    public final ImmutableMap<String, Long> counters;
    public final ImmutableMap<Integer, Long> pagesPerBio;
    /** What the run stands for and how it was scaled, one line. */
    public final String scale;

    SimResult(List<JobStats> jobs, long wallNs, long sysNs, long irqNs, long switches, long wakeUps, long threads, int cpus,
            Map<String, Long> counters, Map<Integer, Long> pagesPerBio, String scale) {
        this.jobs = ImmutableList.copyOf(jobs);
        this.wallNs = wallNs;
        this.sysNs = sysNs;
        this.irqNs = irqNs;
        this.switches = switches;
        this.wakeUps = wakeUps;
        this.threads = threads;
        this.cpus = cpus;
        this.counters = ImmutableMap.copyOf(counters);
        this.pagesPerBio = ImmutableMap.copyOf(pagesPerBio);
        this.scale = scale;
    }

    /** Bytes of all jobs. */
    public long bytes() {
        long b = 0;
        for (JobStats j : jobs) {
            b += j.bytes;
        }
        return b;
    }

    /** Aggregate bandwidth in bytes per second of virtual time. */
    public double bandwidth() {
        return wallNs == 0 ? 0 : bytes() * 1e9 / wallNs;
    }

    /** CPU time of all tasks over wall time (1.0 = one CPU busy all along). */
    public double cpuShare() {
        return wallNs == 0 ? 0 : (double) sysNs / wallNs;
    }

    /**
     * CPU time of the tasks, interrupts left out, over wall time: the application and the threads
     * working on its behalf (io-wq), what seed 002's "CPU ~82%" counts.
     */
    public double taskCpuShare() {
        return wallNs == 0 ? 0 : (double) (sysNs - irqNs) / wallNs;
    }

    /** Mean pages per bio submitted to the devices. */
    public double meanPagesPerBio() {
        long bios = 0;
        long pages = 0;
        for (Map.Entry<Integer, Long> e : pagesPerBio.entrySet()) {
            bios += e.getValue();
            pages += (long) e.getKey() * e.getValue();
        }
        return bios == 0 ? 0 : (double) pages / bios;
    }
}
