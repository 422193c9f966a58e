package kmodel.tools.fio;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;

/**
 * Prints {@link JobResult}s the way fio 3.x and xfs_io print theirs, so that they read beside
 * the seeds' figures; every report starts by saying that its figures are simulated (virtual time
 * on the model, not a measurement), names the configuration, and says what the run was scaled
 * to when the runner scaled it.
 *
 * <p>fio ({@link #fio}): one block per thread-stats entry as fio's {@code __show_run_stats()}
 * forms them (stat.c: every clone its own entry, or, with {@code group_reporting}, the clones
 * and jobs of the group merged into the first's), with the {@code read:}/{@code write:} line
 * ({@code IOPS=}, {@code BW=}), the {@code clat} line and {@code clat percentiles} (fio's list:
 * 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, in nsec, usec or
 * msec by fio's rule) from the HdrHistogram, the {@code cpu} line, and the kernel-side counters;
 * then {@code Run status group 0 (all jobs):} with fio's {@code READ: bw=..., io=..., run=...}
 * line. Numbers go through {@link #num2str} (fio's lib/num2str.c, 4 significant figures).
 * Differences from fio: no pid or date; bandwidth and IOPS from the runtime in nanoseconds
 * rather than fio's whole milliseconds; {@code stdev} is the population standard deviation.
 *
 * <p>xfs_io ({@link #xfsIo}): per command, xfs_io's {@code report_io_times()} lines ({@code
 * wrote 2147483648/2147483648 bytes at offset 0} / {@code 2.000 GiB, 16384 ops; 0:00:08.97 (228.207
 * MiB/sec and 1825.6558 ops/sec)}), then a {@code time}-like {@code real}/{@code user}/{@code
 * sys} block as bash prints it, then the counters.
 */
public final class FioReport {
    /** The first line of a fio report. */
    public static final String FIO_HEADER = "kmodel fio (simulated: virtual time on the model, not a measurement)";
    /** The first line of an xfs_io report. */
    public static final String XFS_IO_HEADER = "kmodel xfs_io (simulated: virtual time on the model, not a measurement)";
    /** fio's default {@code percentile_list}. */
    static final double[] PERCENTILES = {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
    /** fio's default {@code significant_figures}. */
    static final int SIG_FIGS = 4;

    private FioReport() {
    }

    /** The header lines: what the figures are, the configuration, the scale. */
    private static void header(StringBuilder sb, String first, List<JobResult> results, WorkloadSettings settings) {
        sb.append(first).append('\n');
        String c = settings.config().canonical();
        sb.append("configuration: ").append(c.isEmpty() ? "default" : c).append('\n');
        Set<String> notes = new LinkedHashSet<>();
        for (JobResult r : results) {
            if (r.scaleNote() != null) {
                notes.add(r.scaleNote());
            }
        }
        for (String n : notes) {
            sb.append("scaled: ").append(n).append('\n');
        }
    }

    /** The figures of one direction (reads or writes) of one thread-stats entry. */
    private static final class Dir {
        long bytes;
        long ios;
        long runtimeNanos;
        final Histogram clat = new Histogram(3);
    }

    /** One of fio's thread-stats entries: a clone, or the merged clones and jobs of a group. */
    private static final class Ts {
        final String name;
        int jobs;
        final Map<Boolean, Dir> dirs = new LinkedHashMap<>();
        long userNanos;
        long sysNanos;
        long totalRunNanos;
        final Map<String, Counter> counters = new LinkedHashMap<>();

        Ts(String name) {
            this.name = name;
        }

        void add(JobResult r) {
            jobs++;
            boolean reads = r.job().rw().reads();
            Dir d = dirs.get(reads);
            if (d == null) {
                d = new Dir();
                dirs.put(reads, d);
            }
            d.bytes += r.bytes();
            d.ios += r.ios();
            d.runtimeNanos = Math.max(d.runtimeNanos, r.runtimeNanos());
            d.clat.add(r.clatNanos());
            userNanos += r.userCpuNanos();
            sysNanos += r.sysCpuNanos();
            totalRunNanos += r.runtimeNanos();
            for (Map.Entry<String, Counter> e : r.counters().entrySet()) {
                counters.merge(e.getKey(), e.getValue(), Counter::plus);
            }
        }
    }

    /**
     * The fio report of {@code results} (all in group 0: the model has no {@code stonewall} or
     * {@code new_group}).
     */
    public static String fio(List<JobResult> results, WorkloadSettings settings) {
        StringBuilder sb = new StringBuilder();
        header(sb, FIO_HEADER, results, settings);
        // stat.c __show_run_stats(): a new entry unless this thread reports with its group.
        List<Ts> all = new ArrayList<>();
        for (JobResult r : results) {
            if (all.isEmpty() || !r.job().groupReporting()) {
                all.add(new Ts(r.job().name()));
            }
            all.get(all.size() - 1).add(r);
        }
        for (Ts ts : all) {
            sb.append(ts.name).append(": (groupid=0, jobs=").append(ts.jobs).append("): err= 0: simulated\n");
            for (Map.Entry<Boolean, Dir> e : ts.dirs.entrySet()) {
                ddir(sb, e.getKey() ? "read" : "write", e.getValue());
            }
            if (ts.totalRunNanos > 0) {
                sb.append(String.format(Locale.ROOT, "  cpu          : usr=%.2f%%, sys=%.2f%%%n",
                        ts.userNanos * 100.0 / ts.totalRunNanos, ts.sysNanos * 100.0 / ts.totalRunNanos));
            }
            counters(sb, ts.counters);
        }
        sb.append('\n').append("Run status group 0 (all jobs):\n");
        for (boolean reads : new boolean[] {true, false}) {
            groupLine(sb, all, reads);
        }
        return sb.toString();
    }

    /** stat.c show_ddir_status(): the IOPS/BW line, clat, and the percentiles. */
    private static void ddir(StringBuilder sb, String name, Dir d) {
        if (d.runtimeNanos <= 0) {
            return;
        }
        long iops = perSecond(d.ios, d.runtimeNanos);
        long bw = perSecond(d.bytes, d.runtimeNanos);
        sb.append("  ").append(name).append(": IOPS=").append(num2str(iops, SIG_FIGS, 1, false, ""))
                .append(", BW=").append(num2str(bw, SIG_FIGS, 1, true, "B/s"))
                .append(" (").append(num2str(bw, SIG_FIGS, 1, false, "B/s")).append(")(")
                .append(num2str(d.bytes, SIG_FIGS, 1, true, "B")).append('/').append(d.runtimeNanos / 1_000_000)
                .append("msec)\n");
        if (d.clat.getTotalCount() > 0) {
            clat(sb, d.clat);
            percentiles(sb, d.clat);
        }
    }

    private static long perSecond(long n, long nanos) {
        return nanos <= 0 ? 0 : (long) Math.floor(n * 1e9 / nanos);
    }

    /** stat.c display_lat() with nsec_to_usec() and nsec_to_msec(). */
    private static void clat(StringBuilder sb, Histogram h) {
        long min = h.getMinValue();
        long max = h.getMaxValue();
        double mean = h.getMean();
        double dev = h.getStdDeviation();
        String base = "(nsec)";
        if (min > 2_000_000 && max > 99_999_999L && dev > 1_000_000.0) {
            base = "(msec)";
            min /= 1_000_000;
            max /= 1_000_000;
            mean /= 1e6;
            dev /= 1e6;
        } else if (min > 2000 && max > 99_999 && dev > 1000.0) {
            base = "(usec)";
            min /= 1000;
            max /= 1000;
            mean /= 1e3;
            dev /= 1e3;
        }
        sb.append(String.format(Locale.ROOT, "    clat %s: min=%s, max=%s, avg=%5.02f, stdev=%5.02f%n", base,
                num2str(min, 6, 1, false, ""), num2str(max, 6, 1, false, ""), mean, dev));
    }

    /** stat.c show_clat_percentiles(), precision 2. */
    private static void percentiles(StringBuilder sb, Histogram h) {
        int len = PERCENTILES.length;
        long[] v = new long[len];
        for (int j = 0; j < len; j++) {
            v[j] = h.highestEquivalentValue(h.getValueAtPercentile(PERCENTILES[j]));
        }
        long minv = v[0];
        long maxv = v[len - 1];
        int scaleDown;
        long divisor;
        String unit;
        if (minv > 2_000_000 && maxv > 99_999_999L) {
            scaleDown = 2;
            divisor = 1_000_000;
            unit = "msec";
        } else if (minv > 2000 && maxv > 99_999) {
            scaleDown = 1;
            divisor = 1000;
            unit = "usec";
        } else {
            scaleDown = 0;
            divisor = 1;
            unit = "nsec";
        }
        sb.append("    clat percentiles (").append(unit).append("):\n     |");
        int precision = 2;
        int timeWidth = Math.max(5, (int) (Math.log10(maxv / divisor) + 1));
        String fmt = " %" + (precision + 3) + "." + precision + "fth=[%" + timeWidth + "d]%c";
        int perLine = (80 - 7) / (precision + 10 + timeWidth);
        for (int j = 0; j < len; j++) {
            if (j != 0 && j % perLine == 0) {
                sb.append("     |");
            }
            boolean last = j == len - 1;
            long o = v[j];
            for (int i = 0; i < scaleDown; i++) {
                o = (o + 999) / 1000;
            }
            sb.append(String.format(Locale.ROOT, fmt, PERCENTILES[j], o, last ? '\n' : ','));
            if (last) {
                break;
            }
            if (j % perLine == perLine - 1) {
                sb.append('\n');
            }
        }
    }

    /** The kernel-side counters, names padded to one width. */
    private static void counters(StringBuilder sb, Map<String, Counter> counters) {
        if (counters.isEmpty()) {
            return;
        }
        int w = 0;
        for (String n : counters.keySet()) {
            w = Math.max(w, n.length());
        }
        sb.append("  kernel (simulated):\n");
        for (Map.Entry<String, Counter> e : counters.entrySet()) {
            sb.append("    ").append(e.getKey()).append(" ".repeat(w - e.getKey().length())).append(" : ")
                    .append(e.getValue().format()).append('\n');
        }
    }

    /** stat.c show_group_stats(): one line per direction of the group. */
    private static void groupLine(StringBuilder sb, List<Ts> all, boolean reads) {
        long bytes = 0;
        long minRun = Long.MAX_VALUE;
        long maxRun = 0;
        long minBw = Long.MAX_VALUE;
        long maxBw = 0;
        for (Ts ts : all) {
            Dir d = ts.dirs.get(reads);
            if (d == null || d.runtimeNanos <= 0) {
                continue;
            }
            bytes += d.bytes;
            minRun = Math.min(minRun, d.runtimeNanos);
            maxRun = Math.max(maxRun, d.runtimeNanos);
            long bw = perSecond(d.bytes, d.runtimeNanos);
            minBw = Math.min(minBw, bw);
            maxBw = Math.max(maxBw, bw);
        }
        if (maxRun == 0) {
            return;
        }
        long agg = perSecond(bytes, maxRun);
        sb.append(reads ? "   READ" : "  WRITE").append(": bw=").append(num2str(agg, SIG_FIGS, 1, true, "B/s"))
                .append(" (").append(num2str(agg, SIG_FIGS, 1, false, "B/s")).append("), ")
                .append(num2str(minBw, SIG_FIGS, 1, true, "B/s")).append('-').append(num2str(maxBw, SIG_FIGS, 1, true, "B/s"))
                .append(" (").append(num2str(minBw, SIG_FIGS, 1, false, "B/s")).append('-')
                .append(num2str(maxBw, SIG_FIGS, 1, false, "B/s")).append("), io=")
                .append(num2str(bytes, SIG_FIGS, 1, true, "B")).append(" (").append(num2str(bytes, SIG_FIGS, 1, false, "B"))
                .append("), run=").append(minRun / 1_000_000).append('-').append(maxRun / 1_000_000).append("msec\n");
    }

    /**
     * fio's lib/num2str.c {@code num2str()}: {@code num} (in units of {@code base}) with at most
     * {@code maxlen} digits before the unit prefix (k, M, G, ... or Ki, Mi, Gi, ... when {@code
     * pow2}), decimals where there is room, then {@code unit}.
     */
    static String num2str(long num, int maxlen, int base, boolean pow2, String unit) {
        String[] prefix = pow2 ? new String[] {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}
                : new String[] {"", "k", "M", "G", "T", "P", "E"};
        long thousand = pow2 ? 1024 : 1000;
        int post = 0;
        for (long b = base; b > 1; b /= thousand) {
            post++;
        }
        long n = num;
        long modulo = -1;
        boolean carry = false;
        while (post < prefix.length) {
            if (Long.toUnsignedString(n).length() <= maxlen) {
                break;
            }
            modulo = Long.remainderUnsigned(n, thousand);
            n = Long.divideUnsigned(n, thousand);
            carry = modulo >= thousand / 2;
            post++;
        }
        if (post >= prefix.length) {
            post = 0;
        }
        if (modulo == -1) {
            return Long.toUnsignedString(n) + prefix[post] + unit;
        }
        int digits = Long.toUnsignedString(n).length();
        if (maxlen - digits <= 1) {
            if (carry) {
                n++;
            }
            return Long.toUnsignedString(n) + prefix[post] + unit;
        }
        String frac = String.format(Locale.ROOT, "%." + (maxlen - digits - 1) + "f", (double) modulo / thousand);
        if (frac.charAt(0) == '1') {
            n++;
        }
        return Long.toUnsignedString(n) + "." + frac.substring(2) + prefix[post] + unit;
    }

    /**
     * The xfs_io report of {@code results} (the jobs of one xfs_io command line, in order): per
     * command xfs_io's two lines, then {@code real}/{@code user}/{@code sys} for the whole run,
     * then the counters of all commands together; for no results (only falloc commands), the
     * header and a line saying there was no I/O.
     */
    public static String xfsIo(List<JobResult> results, WorkloadSettings settings) {
        StringBuilder sb = new StringBuilder();
        header(sb, XFS_IO_HEADER, results, settings);
        if (results.isEmpty()) {
            return sb.append("no I/O to run (falloc is accepted and does nothing in the model)\n").toString();
        }
        long real = 0;
        long user = 0;
        long sys = 0;
        Map<String, Counter> counters = new LinkedHashMap<>();
        for (JobResult r : results) {
            FioJob j = r.job();
            // io/pwrite.c and io/pread.c: report_io_times("wrote"/"read", ...)
            sb.append(j.rw().reads() ? "read " : "wrote ").append(r.bytes()).append('/').append(r.bytes())
                    .append(" bytes at offset ").append(j.offset()).append('\n');
            double secs = Math.max(r.runtimeNanos(), 1000) / 1e9;
            sb.append(cvtstr(r.bytes())).append(", ").append(r.ios()).append(" ops; ")
                    .append(timestr(r.runtimeNanos())).append(" (").append(cvtstr(r.bytes() / secs))
                    .append(String.format(Locale.ROOT, "/sec and %.4f ops/sec)%n", r.ios() / secs));
            real += r.runtimeNanos();
            user += r.userCpuNanos();
            sys += r.sysCpuNanos();
            for (Map.Entry<String, Counter> e : r.counters().entrySet()) {
                counters.merge(e.getKey(), e.getValue(), Counter::plus);
            }
        }
        sb.append('\n');
        sb.append("real\t").append(bashTime(real)).append('\n');
        sb.append("user\t").append(bashTime(user)).append('\n');
        sb.append("sys\t").append(bashTime(sys)).append('\n');
        if (!counters.isEmpty()) {
            sb.append('\n');
            counters(sb, counters);
        }
        return sb.toString();
    }

    /**
     * libfrog's {@code cvtstr()}: {@code value} bytes in the largest binary unit it reaches, with
     * no decimals when {@code value * 1000 == (int) value * 1000}, else three. The cast to {@code
     * int} overflows from 2 GiB up (x86-64 gives INT_MIN), so xfs_io prints {@code 2.000 GiB} for
     * 2147483648 bytes and {@code 1 GiB} for 1073741824; so does this.
     */
    static String cvtstr(double value) {
        boolean precise = value == Math.rint(value) && value < 0x1p31 && value >= -0x1p31;
        String[] units = {"EiB", "PiB", "TiB", "GiB", "MiB", "KiB"};
        for (int i = 0; i < units.length; i++) {
            double unit = Math.pow(2, 10 * (6 - i));
            if (value >= unit) {
                return String.format(Locale.ROOT, precise ? "%.0f %s" : "%.3f %s", value / unit, units[i]);
            }
        }
        return String.format(Locale.ROOT, "%f bytes", value);
    }

    /** libfrog's {@code timestr()} without {@code VERBOSE_FIXED_TIME}: {@code 0:00:08.97}, or {@code 0.0123 sec} under a second. */
    static String timestr(long nanos) {
        long sec = nanos / 1_000_000_000L;
        long usec = nanos % 1_000_000_000L / 1000;
        if (sec > 0) {
            return String.format(Locale.ROOT, "%d:%02d:%02d.%02d", sec / 3600, sec % 3600 / 60, sec % 60, usec / 10_000);
        }
        return String.format(Locale.ROOT, "0.%04d sec", usec / 100);
    }

    /** bash's {@code time} format: {@code 0m8.973s}. */
    static String bashTime(long nanos) {
        long ms = nanos / 1_000_000;
        return String.format(Locale.ROOT, "%dm%d.%03ds", ms / 60_000, ms % 60_000 / 1000, ms % 1000);
    }
}
