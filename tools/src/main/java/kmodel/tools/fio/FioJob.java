package kmodel.tools.fio;

import java.util.Locale;
import java.util.Objects;

/**
 * One job of a workload, immutable: a section of a fio job file (with what it inherits from the
 * {@code [global]} sections before it) or one {@code pread}/{@code pwrite} command of an {@code
 * xfs_io} command line. {@link #numjobs()} is kept as a count: fio runs that many clones of the
 * job side by side, each doing the whole job's I/O on the same file (with {@code thread}, as
 * threads of one process).
 *
 * <p>Sizes are in bytes. The job's I/O covers {@code [offset, offset + size)} of its file in
 * blocks of {@link #bs()} (fio: {@code size / bs} blocks of {@code bs}; xfs_io: the last block
 * may be shorter). {@link #file()} and {@link #line()} say where the job came from, for messages.
 */
public final class FioJob {
    /** Where a job came from. */
    public enum Origin {
        /** A section of a fio job file. */
        FIO,
        /** A {@code -c} command of an xfs_io command line; such jobs run one after another. */
        XFS_IO
    }

    /** fio's {@code rw=} values the model has. */
    public enum Rw {
        /** Sequential reads. */
        READ,
        /** Random reads. */
        RANDREAD,
        /** Sequential writes. */
        WRITE,
        /** Random writes. */
        RANDWRITE;

        /** Whether the job reads (else it writes). */
        public boolean reads() {
            return this == READ || this == RANDREAD;
        }

        /** Whether the offsets are random (else sequential). */
        public boolean random() {
            return this == RANDREAD || this == RANDWRITE;
        }

        /** The value as written in a job file. */
        public String fioName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** fio's {@code ioengine=} values the model has. */
    public enum IoEngine {
        /** read(2)/write(2), one I/O at a time. */
        SYNC,
        /** pread(2)/pwrite(2) (fio's default on Linux). */
        PSYNC,
        /** preadv(2)/pwritev(2). */
        PVSYNC,
        /** preadv2(2)/pwritev2(2). */
        PVSYNC2,
        /** io_uring, up to {@code iodepth} I/Os in flight. */
        IO_URING;

        /** The value as written in a job file. */
        public String fioName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Origin origin;
    private final String file;
    private final int line;
    private final String name;
    private final Rw rw;
    private final long bs;
    private final long size;
    private final long offset;
    private final int numjobs;
    private final int iodepth;
    private final IoEngine ioengine;
    private final boolean direct;
    private final boolean thread;
    private final boolean groupReporting;
    private final boolean invalidate;
    private final String filename;
    private final String directory;

    private FioJob(Builder b) {
        this.origin = Objects.requireNonNull(b.origin);
        this.file = Objects.requireNonNull(b.file);
        this.line = b.line;
        this.name = Objects.requireNonNull(b.name);
        this.rw = Objects.requireNonNull(b.rw);
        this.bs = b.bs;
        this.size = b.size;
        this.offset = b.offset;
        this.numjobs = b.numjobs;
        this.iodepth = b.iodepth;
        this.ioengine = Objects.requireNonNull(b.ioengine);
        this.direct = b.direct;
        this.thread = b.thread;
        this.groupReporting = b.groupReporting;
        this.invalidate = b.invalidate;
        this.filename = b.filename;
        this.directory = b.directory;
    }

    /** A builder with fio's defaults: rw=read, bs=4k, offset 0, numjobs 1, iodepth 1, ioengine=psync, invalidate=1; no size. */
    public static Builder builder(Origin origin, String file, int line, String name) {
        return new Builder(origin, file, line, name);
    }

    /** A builder holding this job's values (to derive a variant, e.g. another numjobs). */
    public Builder toBuilder() {
        Builder b = new Builder(origin, file, line, name);
        b.rw = rw;
        b.bs = bs;
        b.size = size;
        b.offset = offset;
        b.numjobs = numjobs;
        b.iodepth = iodepth;
        b.ioengine = ioengine;
        b.direct = direct;
        b.thread = thread;
        b.groupReporting = groupReporting;
        b.invalidate = invalidate;
        b.filename = filename;
        b.directory = directory;
        return b;
    }

    public Origin origin() {
        return origin;
    }

    /** The job file as named on the command line ({@code xfs_io -c #N} for xfs_io). */
    public String file() {
        return file;
    }

    /** The line of the job's section header (the -c index for xfs_io). */
    public int line() {
        return line;
    }

    /** The job's name: its section name, or {@code name=}; for xfs_io the command. */
    public String name() {
        return name;
    }

    public Rw rw() {
        return rw;
    }

    /** Block size in bytes, a multiple of 512. */
    public long bs() {
        return bs;
    }

    /** Bytes of I/O of each clone, at least {@link #bs()}. */
    public long size() {
        return size;
    }

    /** Byte offset in the file where the I/O starts, a multiple of 512. */
    public long offset() {
        return offset;
    }

    /** Clones of this job run side by side (fio's {@code numjobs}). */
    public int numjobs() {
        return numjobs;
    }

    /** I/Os in flight per clone ({@code iodepth}; only io_uring uses more than 1). */
    public int iodepth() {
        return iodepth;
    }

    public IoEngine ioengine() {
        return ioengine;
    }

    /** O_DIRECT ({@code direct=1}, {@code xfs_io -d}). */
    public boolean direct() {
        return direct;
    }

    /** Clones are threads of one process ({@code thread}) rather than processes. */
    public boolean thread() {
        return thread;
    }

    /** fio's {@code group_reporting}: the clones and jobs of the group are reported together. */
    public boolean groupReporting() {
        return groupReporting;
    }

    /** fio's {@code invalidate}: the file's page cache is dropped before the job starts. */
    public boolean invalidate() {
        return invalidate;
    }

    /** {@code filename=}, or null (fio then names the file {@code NAME.CLONE.0}). */
    public String filename() {
        return filename;
    }

    /** {@code directory=}, or null. */
    public String directory() {
        return directory;
    }

    /** The file the job does I/O on: {@code directory/filename}, as fio forms it. */
    public String path() {
        String f = filename != null ? filename : name + ".0.0";
        if (directory == null || directory.isEmpty()) {
            return f;
        }
        return directory.endsWith("/") ? directory + f : directory + "/" + f;
    }

    /** The job as a job-file section, for messages and tests (only values differing from fio's defaults, size always). */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("[" + name + "] rw=" + rw.fioName() + " bs=" + bs + " size=" + size);
        if (offset != 0) {
            sb.append(" offset=").append(offset);
        }
        if (numjobs != 1) {
            sb.append(" numjobs=").append(numjobs);
        }
        sb.append(" ioengine=").append(ioengine.fioName());
        if (iodepth != 1) {
            sb.append(" iodepth=").append(iodepth);
        }
        if (direct) {
            sb.append(" direct=1");
        }
        if (thread) {
            sb.append(" thread");
        }
        if (groupReporting) {
            sb.append(" group_reporting");
        }
        if (!invalidate) {
            sb.append(" invalidate=0");
        }
        sb.append(" file=").append(path());
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof FioJob)) {
            return false;
        }
        FioJob j = (FioJob) o;
        return origin == j.origin && file.equals(j.file) && line == j.line && name.equals(j.name) && rw == j.rw
                && bs == j.bs && size == j.size && offset == j.offset && numjobs == j.numjobs && iodepth == j.iodepth
                && ioengine == j.ioengine && direct == j.direct && thread == j.thread
                && groupReporting == j.groupReporting && invalidate == j.invalidate
                && Objects.equals(filename, j.filename) && Objects.equals(directory, j.directory);
    }

    @Override
    public int hashCode() {
        return Objects.hash(origin, file, line, name, rw, bs, size, offset, numjobs, iodepth, ioengine, direct, thread,
                groupReporting, invalidate, filename, directory);
    }

    /**
     * Builds a {@link FioJob}. It checks nothing beyond what the object needs (sizes positive);
     * {@link JobFile} and {@link XfsIo} check the values they read.
     */
    public static final class Builder {
        private final Origin origin;
        private final String file;
        private final int line;
        private String name;
        private Rw rw = Rw.READ;
        private long bs = 4096;
        private long size = -1;
        private long offset;
        private int numjobs = 1;
        private int iodepth = 1;
        private IoEngine ioengine = IoEngine.PSYNC;
        private boolean direct;
        private boolean thread;
        private boolean groupReporting;
        private boolean invalidate = true;
        private String filename;
        private String directory;

        private Builder(Origin origin, String file, int line, String name) {
            this.origin = origin;
            this.file = file;
            this.line = line;
            this.name = name;
        }

        public Builder name(String v) {
            name = v;
            return this;
        }

        public Builder rw(Rw v) {
            rw = v;
            return this;
        }

        public Builder bs(long v) {
            bs = v;
            return this;
        }

        public Builder size(long v) {
            size = v;
            return this;
        }

        public Builder offset(long v) {
            offset = v;
            return this;
        }

        public Builder numjobs(int v) {
            numjobs = v;
            return this;
        }

        public Builder iodepth(int v) {
            iodepth = v;
            return this;
        }

        public Builder ioengine(IoEngine v) {
            ioengine = v;
            return this;
        }

        public Builder direct(boolean v) {
            direct = v;
            return this;
        }

        public Builder thread(boolean v) {
            thread = v;
            return this;
        }

        public Builder groupReporting(boolean v) {
            groupReporting = v;
            return this;
        }

        public Builder invalidate(boolean v) {
            invalidate = v;
            return this;
        }

        public Builder filename(String v) {
            filename = v;
            return this;
        }

        public Builder directory(String v) {
            directory = v;
            return this;
        }

        /** Whether a size was given. */
        boolean hasSize() {
            return size >= 0;
        }

        /** The job; {@link IllegalStateException} when a size or count is not positive. */
        public FioJob build() {
            if (bs <= 0 || size < bs || offset < 0 || numjobs <= 0 || iodepth <= 0) {
                throw new IllegalStateException("job '" + name + "': bs, size >= bs, numjobs and iodepth must be positive");
            }
            return new FioJob(this);
        }
    }
}
