package kmodel.tools.fio;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * What one clone of a {@link FioJob} did in a simulated run, in virtual time: the bytes and I/Os
 * it completed, its runtime, the completion latency of each I/O (an HdrHistogram in
 * nanoseconds), the CPU time its task (and the kernel threads working for it, e.g. io-wq
 * workers) spent in user and system mode, the kernel-side {@link Counter}s the runner kept (in
 * the order to print them), and what the run was scaled to, if it was. Immutable (the histogram
 * is copied in and out). {@link FioReport} prints a list of these.
 */
public final class JobResult {
    private final FioJob job;
    private final int clone;
    private final long bytes;
    private final long ios;
    private final long runtimeNanos;
    private final Histogram clatNanos;
    private final long userCpuNanos;
    private final long sysCpuNanos;
    private final Map<String, Counter> counters;
    private final String scaleNote;

    private JobResult(Builder b) {
        this.job = Objects.requireNonNull(b.job, "job");
        this.clone = b.clone;
        this.bytes = b.bytes;
        this.ios = b.ios;
        this.runtimeNanos = b.runtimeNanos;
        this.clatNanos = b.clatNanos.copy();
        this.userCpuNanos = b.userCpuNanos;
        this.sysCpuNanos = b.sysCpuNanos;
        this.counters = Collections.unmodifiableMap(new LinkedHashMap<>(b.counters));
        this.scaleNote = b.scaleNote;
    }

    /** A builder for the result of clone {@code clone} (0 to numjobs - 1) of {@code job}. */
    public static Builder builder(FioJob job, int clone) {
        return new Builder(job, clone);
    }

    public FioJob job() {
        return job;
    }

    /** Which clone of the job (0 to numjobs - 1). */
    public int cloneIndex() {
        return clone;
    }

    /** Bytes completed. */
    public long bytes() {
        return bytes;
    }

    /** I/Os completed. */
    public long ios() {
        return ios;
    }

    /** Simulated time from the clone's start to its last completion, in nanoseconds. */
    public long runtimeNanos() {
        return runtimeNanos;
    }

    /** A copy of the completion latencies, in simulated nanoseconds, one value per I/O. */
    public Histogram clatNanos() {
        return clatNanos.copy();
    }

    /** Simulated user-mode CPU time. */
    public long userCpuNanos() {
        return userCpuNanos;
    }

    /** Simulated system-mode CPU time. */
    public long sysCpuNanos() {
        return sysCpuNanos;
    }

    /** Kernel-side counters, in print order (unmodifiable). */
    public Map<String, Counter> counters() {
        return counters;
    }

    /** What the run was scaled to, e.g. "1/16 of the file (125 MiB), 4 threads", or null when it ran at full size. */
    public String scaleNote() {
        return scaleNote;
    }

    /** Builds a {@link JobResult}. */
    public static final class Builder {
        private final FioJob job;
        private final int clone;
        private long bytes;
        private long ios;
        private long runtimeNanos;
        private Histogram clatNanos = new Histogram(3);
        private long userCpuNanos;
        private long sysCpuNanos;
        private final Map<String, Counter> counters = new LinkedHashMap<>();
        private String scaleNote;

        private Builder(FioJob job, int clone) {
            this.job = job;
            this.clone = clone;
        }

        public Builder bytes(long v) {
            bytes = v;
            return this;
        }

        public Builder ios(long v) {
            ios = v;
            return this;
        }

        public Builder runtimeNanos(long v) {
            runtimeNanos = v;
            return this;
        }

        /** The completion latencies (copied when built). */
        public Builder clatNanos(Histogram v) {
            clatNanos = Objects.requireNonNull(v);
            return this;
        }

        public Builder userCpuNanos(long v) {
            userCpuNanos = v;
            return this;
        }

        public Builder sysCpuNanos(long v) {
            sysCpuNanos = v;
            return this;
        }

        /** Adds a counter (after those added before; the same name again replaces it in place). */
        public Builder counter(String name, Counter v) {
            counters.put(Objects.requireNonNull(name), Objects.requireNonNull(v));
            return this;
        }

        public Builder scaleNote(String v) {
            scaleNote = v;
            return this;
        }

        /** The result; {@link IllegalStateException} for negative figures or a clone out of range. */
        public JobResult build() {
            if (bytes < 0 || ios < 0 || runtimeNanos < 0 || userCpuNanos < 0 || sysCpuNanos < 0 || clone < 0
                    || clone >= job.numjobs()) {
                throw new IllegalStateException("job '" + job.name() + "' clone " + clone
                        + ": figures must not be negative, clone within numjobs");
            }
            return new JobResult(this);
        }
    }
}
