package kmodel.tools.fio;

import com.google.common.collect.ImmutableSet;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A fio job file (fio's HOWTO, "Job file format"), parsed into {@link FioJob}s: {@code [global]}
 * and {@code [jobname]} sections, {@code key=value} lines and bare {@code key} booleans, blanks
 * around {@code =} ignored, comments from {@code ;} or {@code #} to the end of the line. Every
 * job inherits the options of the {@code [global]} sections before it (fio: a section whose name
 * starts with {@code global}); later options override earlier ones; a job's name is its section
 * name unless {@code name=} says otherwise. The options read are {@code name}, {@code
 * description} (ignored), {@code rw}/{@code readwrite} ({@code read}, {@code randread}, {@code
 * write}, {@code randwrite}), {@code bs}/{@code blocksize}, {@code size}, {@code offset}, {@code
 * numjobs}, {@code iodepth}, {@code ioengine} ({@code sync}, {@code psync}, {@code pvsync}, {@code
 * pvsync2}, {@code io_uring}), {@code direct}, {@code buffered}, {@code thread}, {@code
 * group_reporting}, {@code invalidate}, {@code filename}, {@code directory} and {@code kb_base=1024};
 * sizes as {@link Sizes#fio} reads them (fio's: {@code 32k} is 32768, and fio's default {@code
 * kb_base=1024} reads {@code 32KiB} as 32000).
 *
 * <p>Everything else is refused with one {@link JobFileException} naming the file and line: a
 * real fio option or value the model does not have ({@code rw=randrw}, {@code ioengine=libaio},
 * {@code verify}: "not modelled"), an unknown option, a bad value, a value above a cap below, an
 * option outside any section, a malformed section header, a job without a size, no job at all,
 * a NUL byte, a control character or invalid UTF-8, a line longer than {@link #MAX_LINE_CHARS}
 * characters, a file larger than {@link #MAX_FILE_BYTES} bytes.
 *
 * <p>Caps (the model's, not fio's): {@code bs} a multiple of 512 up to {@link #MAX_BS} (128 MiB);
 * {@code size} at least {@code bs}, and {@code offset + size} at most {@link #MAX_SIZE} (1 TiB),
 * offset a multiple of 512; {@code numjobs} 1 to {@link #MAX_NUMJOBS}; {@code iodepth} 1 to
 * {@link #MAX_IODEPTH}; names up to 255 characters, paths up to 4095.
 */
public final class JobFile {
    /** The largest job file read: 1 MiB. */
    public static final int MAX_FILE_BYTES = 1 << 20;
    /** The longest line: 4096 characters (fio's own option buffer, OPT_LEN_MAX, is 4096 bytes). */
    public static final int MAX_LINE_CHARS = 4096;
    /** The largest {@code offset + size}: 1 TiB. */
    public static final long MAX_SIZE = 1L << 40;
    /** The largest {@code bs}: 128 MiB. */
    public static final long MAX_BS = 128L << 20;
    /** The most clones of a job. */
    public static final int MAX_NUMJOBS = 256;
    /** The deepest queue. */
    public static final int MAX_IODEPTH = 4096;
    /** The longest section or job name (fio reads at most 255 characters of a section name). */
    public static final int MAX_NAME = 255;
    /** The longest file or directory name (PATH_MAX - 1). */
    public static final int MAX_PATH = 4095;

    /** Real fio options that the model does not have: refused as "not modelled". */
    static final Set<String> NOT_MODELLED = ImmutableSet.of(
            "verify", "verify_pattern", "verify_interval", "verify_offset", "verify_fatal", "verify_backlog",
            "verify_async", "verify_only", "do_verify", "verify_state_save", "experimental_verify",
            "rwmixread", "rwmixwrite", "runtime", "time_based", "ramp_time", "startdelay", "loops",
            "fsync", "fdatasync", "end_fsync", "fsync_on_close", "sync", "sync_file_range", "write_barrier",
            "nrfiles", "filesize", "file_service_type", "openfiles", "opendir", "filename_format",
            "iodepth_batch", "iodepth_batch_submit", "iodepth_batch_complete", "iodepth_batch_complete_min",
            "iodepth_batch_complete_max", "iodepth_low", "overwrite", "create_on_open", "create_only",
            "create_serialize", "create_fsync", "fallocate", "fadvise_hint", "norandommap", "softrandommap",
            "randrepeat", "randseed", "random_distribution", "random_generator", "percentage_random",
            "zonesize", "zonerange", "zoneskip", "zonemode", "thinktime", "thinktime_blocks", "thinktime_spin",
            "rate", "rate_iops", "rate_min", "ratemin", "rate_iops_min", "rate_process", "rate_cycle",
            "cpus_allowed", "cpumask", "cpus_allowed_policy", "nice", "prio", "prioclass", "cmdprio_percentage",
            "stonewall", "wait_for_previous", "new_group", "unlink", "unlink_each_loop", "lockfile",
            "bsrange", "blocksize_range", "bssplit", "blockalign", "ba", "bs_unaligned", "bs_is_seq_rand",
            "io_size", "io_limit", "number_ios", "fill_device", "fill_fs", "file_append", "allow_file_create",
            "allow_mounted_write", "pre_read", "write_iolog", "read_iolog", "replay_no_stall", "write_bw_log",
            "write_lat_log", "write_iops_log", "write_hist_log", "log_avg_msec", "hugepage-size", "mem",
            "iomem", "mem_align", "iomem_align", "scramble_buffers", "buffer_pattern",
            "buffer_compress_percentage", "dedupe_percentage", "refill_buffers", "zero_buffers",
            "continue_on_error", "ignore_error", "exitall", "exitall_on_error", "clocksource", "gtod_reduce",
            "disable_lat", "disable_clat", "disable_slat", "disable_bw_measurement", "percentile_list",
            "clat_percentiles", "lat_percentiles", "significant_figures", "unified_rw_reporting",
            "per_job_logs", "uid", "gid", "cgroup", "cgroup_weight", "numa_cpu_nodes", "numa_mem_policy",
            "hipri", "fixedbufs", "registerfiles", "sqthread_poll", "sqthread_poll_cpu", "uncached", "nowait",
            "force_async", "atomic", "trim_percentage", "trim_backlog", "trim_verify_zero", "steadystate", "ss",
            "ss_dur", "ss_ramp", "ioscheduler", "serialize_overlap", "offset_increment", "offset_align",
            "include", "exec_prerun", "exec_postrun", "flow", "flow_id", "unit_base", "stats", "write_hint",
            "thinktime_iotime", "rw_sequencer", "ioengine_ratemin", "max_latency", "latency_target",
            "latency_window", "latency_percentile", "job_max_open_zones", "dedupe_mode", "fdp", "number_ios",
            "userspace_reap", "hugepage_size");

    /** fio's other {@code rw=} values. */
    static final Set<String> RW_NOT_MODELLED = Set.of("randrw", "rw", "readwrite", "trim", "randtrim", "trimwrite",
            "randtrimwrite");

    /** fio's other I/O engines. */
    static final Set<String> ENGINES_NOT_MODELLED = Set.of("libaio", "posixaio", "solarisaio", "windowsaio",
            "mmap", "splice", "sg", "null", "net", "netsplice", "cpuio", "guasi", "rdma", "falloc", "e4defrag",
            "rbd", "http", "gfapi", "gfapi_async", "libhdfs", "mtd", "pmemblk", "dev-dax", "external",
            "filecreate", "filestat", "filedelete", "dircreate", "dirstat", "dirdelete", "libpmem", "ime_psync",
            "ime_psyncv", "ime_aio", "libzbc", "nbd", "dfs", "nfs", "exec", "xnvme", "libcufile", "io_uring_cmd",
            "rados", "vsync", "libiscsi", "libblkio", "spdk");

    private JobFile() {
    }

    /**
     * Reads and parses the job file at {@code path}, named {@code shown} in messages; at most
     * {@link #MAX_FILE_BYTES} bytes are read.
     *
     * @throws JobFileException when the file cannot be read or is refused
     */
    public static List<FioJob> read(Path path, String shown) {
        byte[] bytes;
        if (Files.isDirectory(path)) {
            throw new JobFileException(shown, 0, "is a directory, not a job file");
        }
        try (InputStream in = Files.newInputStream(path)) {
            bytes = in.readNBytes(MAX_FILE_BYTES + 1);
        } catch (NoSuchFileException e) {
            throw new JobFileException(shown, 0, "no such file");
        } catch (AccessDeniedException e) {
            throw new JobFileException(shown, 0, "permission denied");
        } catch (IOException | RuntimeException e) {
            throw new JobFileException(shown, 0, "cannot read: " + e.getClass().getSimpleName()
                    + (e.getMessage() != null ? " " + e.getMessage() : ""));
        }
        if (bytes.length > MAX_FILE_BYTES) {
            throw new JobFileException(shown, 0, "larger than 1 MiB (kmodel reads job files of at most "
                    + MAX_FILE_BYTES + " bytes)");
        }
        return parse(shown, bytes);
    }

    /** Parses the text of a job file (UTF-8) named {@code file} in messages. */
    public static List<FioJob> parse(String file, String text) {
        return parse(file, text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Parses the bytes of a job file named {@code file} in messages.
     *
     * @return the jobs in file order, at least one
     * @throws JobFileException for anything refused (see the class comment)
     */
    public static List<FioJob> parse(String file, byte[] bytes) {
        if (bytes.length > MAX_FILE_BYTES) {
            throw new JobFileException(file, 0, "larger than 1 MiB (kmodel reads job files of at most "
                    + MAX_FILE_BYTES + " bytes)");
        }
        Parser p = new Parser(file);
        int lineNo = 0;
        int start = 0;
        while (start < bytes.length) {
            int end = start;
            while (end < bytes.length && bytes[end] != '\n') {
                end++;
            }
            lineNo++;
            p.line(lineNo, decode(file, lineNo, bytes, start, end));
            start = end + 1;
        }
        return p.finish(Math.max(1, lineNo));
    }

    /** One line as text: refused if it holds a NUL, invalid UTF-8, a control character, or is too long. */
    private static String decode(String file, int lineNo, byte[] bytes, int start, int end) {
        if (end > start && bytes[end - 1] == '\r') {
            end--;
        }
        for (int i = start; i < end; i++) {
            if (bytes[i] == 0) {
                throw new JobFileException(file, lineNo, "NUL byte at column " + (i - start + 1) + " (not a text file?)");
            }
        }
        if (end - start > 4 * MAX_LINE_CHARS) {
            throw new JobFileException(file, lineNo, "line longer than " + MAX_LINE_CHARS + " characters");
        }
        String s;
        try {
            s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, start, end - start)).toString();
        } catch (CharacterCodingException e) {
            throw new JobFileException(file, lineNo, "invalid UTF-8 (not a text file?)");
        }
        if (s.length() > MAX_LINE_CHARS) {
            throw new JobFileException(file, lineNo, "line longer than " + MAX_LINE_CHARS + " characters");
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\t' && (Character.isISOControl(c) || c == '\u2028' || c == '\u2029')) {
                throw new JobFileException(file, lineNo, String.format(Locale.ROOT,
                        "control character U+%04X at column %d", (int) c, i + 1));
            }
        }
        return s;
    }

    /** {@code s} quoted for a message, cut at 60 characters. */
    static String quote(String s) {
        return "'" + (s.length() <= 60 ? s : s.substring(0, 60) + "...") + "'";
    }

    /** The options in force in one section (a job's, or the accumulated globals). */
    private static final class Options implements Cloneable {
        String name;
        FioJob.Rw rw = FioJob.Rw.READ;
        long bs = 4096;
        String bsText = "4k";
        long size = -1;
        String sizeText;
        long offset;
        int numjobs = 1;
        int iodepth = 1;
        FioJob.IoEngine ioengine = FioJob.IoEngine.PSYNC;
        boolean direct;
        boolean thread;
        boolean groupReporting;
        boolean invalidate = true;
        String filename;
        String directory;

        Options copy() {
            try {
                return (Options) clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }
    }

    /** The state of one pass over the file. */
    private static final class Parser {
        private final String file;
        private final List<FioJob> jobs = new ArrayList<>();
        private Options global = new Options();
        /** The section being read: {@link #global} or a job's copy; null before the first header. */
        private Options current;
        private String jobSection;
        private int jobLine;
        private int lineNo;

        Parser(String file) {
            this.file = file;
        }

        private JobFileException bad(String problem) {
            return new JobFileException(file, lineNo, problem);
        }

        void line(int n, String raw) {
            lineNo = n;
            String s = raw;
            int cut = firstOf(s, ';', '#');
            if (cut >= 0) {
                s = s.substring(0, cut);
            }
            s = s.strip();
            if (s.isEmpty()) {
                return;
            }
            if (s.charAt(0) == '[') {
                header(s);
                return;
            }
            if (current == null) {
                throw bad("option " + quote(s) + " outside of a [] job section");
            }
            int eq = s.indexOf('=');
            String key = (eq < 0 ? s : s.substring(0, eq)).strip();
            String value = eq < 0 ? null : s.substring(eq + 1).strip();
            if (key.isEmpty()) {
                throw bad("'=' without an option name before it");
            }
            option(key, value);
        }

        private static int firstOf(String s, char a, char b) {
            int i = s.indexOf(a);
            int j = s.indexOf(b);
            return i < 0 ? j : j < 0 ? i : Math.min(i, j);
        }

        private void header(String s) {
            if (!s.endsWith("]") || s.length() < 2) {
                throw bad("malformed section header " + quote(s) + " (expected [name])");
            }
            String name = s.substring(1, s.length() - 1);
            if (name.isBlank()) {
                throw bad("empty section name []");
            }
            if (name.indexOf('[') >= 0 || name.indexOf(']') >= 0) {
                throw bad("malformed section header " + quote(s) + " (brackets inside the name)");
            }
            if (name.length() > MAX_NAME) {
                throw bad("section name longer than " + MAX_NAME + " characters");
            }
            endJob();
            // fio's parse_jobs_ini(): global = !strncmp(name, "global", 6)
            if (name.startsWith("global")) {
                current = global;
                jobSection = null;
            } else {
                current = global.copy();
                jobSection = name;
                jobLine = lineNo;
            }
        }

        /** Builds the job being read, if any. */
        private void endJob() {
            if (jobSection == null) {
                return;
            }
            Options o = current;
            String name = o.name != null ? o.name : jobSection;
            if (o.size < 0) {
                throw new JobFileException(file, jobLine, "job '" + name + "' has no size (size= is required: "
                        + "the model lays out the file the job reads)");
            }
            if (o.size < o.bs) {
                throw new JobFileException(file, jobLine, "job '" + name + "': size=" + o.sizeText
                        + " is smaller than bs=" + o.bsText);
            }
            if (o.offset > MAX_SIZE - o.size) {
                throw new JobFileException(file, jobLine, "job '" + name + "': offset + size above 1 TiB (the model's cap)");
            }
            jobs.add(FioJob.builder(FioJob.Origin.FIO, file, jobLine, name).rw(o.rw).bs(o.bs).size(o.size)
                    .offset(o.offset).numjobs(o.numjobs).iodepth(o.iodepth).ioengine(o.ioengine).direct(o.direct)
                    .thread(o.thread).groupReporting(o.groupReporting).invalidate(o.invalidate)
                    .filename(o.filename).directory(o.directory).build());
            jobSection = null;
        }

        List<FioJob> finish(int lastLine) {
            endJob();
            if (jobs.isEmpty()) {
                lineNo = lastLine;
                throw bad("no job section (fio: No job(s) defined)");
            }
            return Collections.unmodifiableList(new ArrayList<>(jobs));
        }

        private String needValue(String key, String value) {
            if (value == null) {
                throw bad("option '" + key + "' needs a value (" + key + "=...)");
            }
            if (value.isEmpty()) {
                throw bad(key + "= has an empty value");
            }
            return value;
        }

        private void option(String key, String value) {
            Options o = current;
            switch (key) {
                case "name":
                    o.name = name(key, needValue(key, value), MAX_NAME);
                    return;
                case "description":
                    needValue(key, value);
                    return;
                case "rw":
                case "readwrite":
                    o.rw = rw(key, needValue(key, value));
                    return;
                case "bs":
                case "blocksize":
                    blockSize(o, key, needValue(key, value));
                    return;
                case "size":
                    fileSize(o, key, needValue(key, value));
                    return;
                case "offset":
                    offset(o, key, needValue(key, value));
                    return;
                case "numjobs":
                    o.numjobs = count(key, needValue(key, value), MAX_NUMJOBS);
                    return;
                case "iodepth":
                    o.iodepth = count(key, needValue(key, value), MAX_IODEPTH);
                    return;
                case "ioengine":
                    o.ioengine = engine(key, needValue(key, value));
                    return;
                case "direct":
                    o.direct = bool(key, value);
                    return;
                case "buffered":
                    o.direct = !bool(key, value);
                    return;
                case "thread":
                    o.thread = bool(key, value);
                    return;
                case "group_reporting":
                    o.groupReporting = bool(key, value);
                    return;
                case "invalidate":
                    o.invalidate = bool(key, value);
                    return;
                case "filename":
                    o.filename = path(key, needValue(key, value));
                    return;
                case "directory":
                    o.directory = path(key, needValue(key, value));
                    return;
                case "kb_base":
                    if (!needValue(key, value).equals("1024")) {
                        throw bad(value.equals("1000") ? "kb_base=1000: not modelled (sizes are read with kb_base=1024)"
                                : "kb_base=" + quote(value) + ": expected 1024 or 1000");
                    }
                    return;
                default:
                    break;
            }
            if (NOT_MODELLED.contains(key)) {
                throw bad("option '" + key + "': not modelled (a fio option the model does not have)");
            }
            String lower = key.toLowerCase(Locale.ROOT);
            if (!lower.equals(key) && (NOT_MODELLED.contains(lower) || isKnown(lower))) {
                throw bad("unknown option " + quote(key) + " (fio's options are lower case: " + lower + ")");
            }
            throw bad("unknown option " + quote(key));
        }

        private static boolean isKnown(String key) {
            return Set.of("name", "description", "rw", "readwrite", "bs", "blocksize", "size", "offset", "numjobs",
                    "iodepth", "ioengine", "direct", "buffered", "thread", "group_reporting", "invalidate", "filename",
                    "directory", "kb_base").contains(key);
        }

        private String name(String key, String v, int max) {
            if (v.length() > max) {
                throw bad(key + "= longer than " + max + " characters");
            }
            return v;
        }

        private String path(String key, String v) {
            name(key, v, MAX_PATH);
            if (v.indexOf(':') >= 0) {
                throw bad(key + "=" + quote(v) + ": several files (fio separates them with ':'): not modelled");
            }
            return v;
        }

        private FioJob.Rw rw(String key, String v) {
            String base = v.contains(":") ? v.substring(0, v.indexOf(':')) : v;
            for (FioJob.Rw r : FioJob.Rw.values()) {
                if (r.fioName().equals(base)) {
                    if (!base.equals(v)) {
                        throw bad(key + "=" + quote(v) + ": an offset modifier (':N'): not modelled");
                    }
                    return r;
                }
            }
            if (RW_NOT_MODELLED.contains(base)) {
                throw bad(key + "=" + base + ": not modelled (the model has read, randread, write, randwrite)");
            }
            throw bad(key + "=" + quote(v) + ": expected read, randread, write or randwrite");
        }

        private FioJob.IoEngine engine(String key, String v) {
            for (FioJob.IoEngine e : FioJob.IoEngine.values()) {
                if (e.fioName().equals(v)) {
                    return e;
                }
            }
            String base = v.contains(":") ? v.substring(0, v.indexOf(':')) : v;
            if (ENGINES_NOT_MODELLED.contains(base)) {
                throw bad(key + "=" + quote(v) + ": not modelled (the model has sync, psync, pvsync, pvsync2, io_uring)");
            }
            throw bad(key + "=" + quote(v) + ": unknown I/O engine (the model has sync, psync, pvsync, pvsync2, io_uring)");
        }

        private boolean bool(String key, String v) {
            if (v == null || v.equals("1")) {
                return true;
            }
            if (v.equals("0")) {
                return false;
            }
            throw bad(key + "=" + quote(v) + ": expected 0 or 1");
        }

        private int count(String key, String v, int max) {
            if (!v.matches("[0-9]{1,10}")) {
                throw bad(key + "=" + quote(v) + ": expected a whole number from 1 to " + max);
            }
            long n = Long.parseLong(v);
            if (n < 1 || n > max) {
                throw bad(key + "=" + quote(v) + ": expected a whole number from 1 to " + max
                        + (n > max ? " (the model's cap)" : ""));
            }
            return (int) n;
        }

        /** A size value: a number with fio's suffixes, not a percentage, within 1 TiB. */
        private long size(String key, String v) {
            if (v.endsWith("%")) {
                throw bad(key + "=" + quote(v) + ": a percentage: not modelled");
            }
            if (v.indexOf(',') >= 0) {
                throw bad(key + "=" + quote(v) + ": separate read,write values: not modelled");
            }
            if (v.indexOf('-') > 0) {
                throw bad(key + "=" + quote(v) + ": a range: not modelled");
            }
            long n = Sizes.fio(v);
            if (n == Sizes.TOO_LARGE || n > MAX_SIZE) {
                throw bad(key + "=" + quote(v) + ": above 1 TiB (the model's cap)");
            }
            if (n < 0) {
                throw bad(key + "=" + quote(v) + ": not a size (a whole number with an optional suffix: k, m, g, t; "
                        + "e.g. 32k)");
            }
            return n;
        }

        private String sectorHint(String v) {
            return Sizes.fioIecSuffix(v) ? "; fio's default kb_base=1024 reads KiB as 1000 bytes, write k for 1024" : "";
        }

        private void blockSize(Options o, String key, String v) {
            long n = size(key, v);
            if (n == 0) {
                throw bad(key + "=" + quote(v) + ": must be more than 0");
            }
            if (n > MAX_BS) {
                throw bad(key + "=" + quote(v) + ": above 128 MiB (the model's cap)");
            }
            if (n % 512 != 0) {
                throw bad(key + "=" + quote(v) + " is " + n + " bytes, not a multiple of 512: not modelled (the model "
                        + "does I/O in 512-byte sectors" + sectorHint(v) + ")");
            }
            o.bs = n;
            o.bsText = v;
        }

        private void fileSize(Options o, String key, String v) {
            long n = size(key, v);
            if (n == 0) {
                throw bad(key + "=" + quote(v) + ": must be more than 0");
            }
            o.size = n;
            o.sizeText = v;
        }

        private void offset(Options o, String key, String v) {
            long n = size(key, v);
            if (n % 512 != 0) {
                throw bad(key + "=" + quote(v) + " is " + n + " bytes, not a multiple of 512: not modelled (the model "
                        + "does I/O in 512-byte sectors" + sectorHint(v) + ")");
            }
            o.offset = n;
        }
    }
}
