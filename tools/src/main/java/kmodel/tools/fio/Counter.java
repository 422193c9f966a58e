package kmodel.tools.fio;

import java.util.Locale;

/**
 * One kernel-side counter of a simulated run, as {@link FioReport} prints it: a count ({@code
 * bios}, {@code clones}, {@code io-wq punts}, {@code task switches}), a ratio of two counts
 * ({@code pages per bio}: pages over bios) or a percentage ({@code CPU utilisation}: CPU time
 * over elapsed time). Two counters of the same name and kind add up (the jobs of a group, with
 * {@code group_reporting}): counts add, and ratios and percentages add numerator and denominator,
 * so that the group's ratio is the ratio of its sums. Immutable.
 */
public final class Counter {
    /** How the counter is printed and added up. */
    public enum Kind {
        /** A whole number, printed with thousands separators. */
        COUNT,
        /** numerator / denominator, printed with two decimals. */
        RATIO,
        /** 100 * numerator / denominator, printed with one decimal and {@code %}. */
        PERCENT
    }

    /** The usual names, in the usual order (a runner may add others). Bios submitted: a count. */
    public static final String BIOS = "bios";
    /** Pages over bios: a ratio. */
    public static final String PAGES_PER_BIO = "pages per bio";
    /** Bios cloned (per mirror, per split piece): a count. */
    public static final String CLONES = "clones";
    /** Bytes of bvec tables copied (bio_clone_bioset copies the table, bio_clone_fast shares it): a count. */
    public static final String BVEC_BYTES_COPIED = "bvec bytes copied";
    /** Requests io_uring punted to io-wq: a count. */
    public static final String IO_WQ_PUNTS = "io-wq punts";
    /** io-wq worker threads created: a count. */
    public static final String WORKERS = "workers";
    /** Context switches of the job's task and the threads working for it: a count. */
    public static final String TASK_SWITCHES = "task switches";
    /** CPU time of the job's task and the threads working for it over elapsed time: a percentage. */
    public static final String CPU_UTILISATION = "CPU utilisation";

    private final Kind kind;
    private final long numerator;
    private final long denominator;

    private Counter(Kind kind, long numerator, long denominator) {
        if (numerator < 0 || denominator < 0) {
            throw new IllegalArgumentException("counters are not negative: " + numerator + "/" + denominator);
        }
        this.kind = kind;
        this.numerator = numerator;
        this.denominator = denominator;
    }

    /** A count. */
    public static Counter count(long n) {
        return new Counter(Kind.COUNT, n, 1);
    }

    /** {@code numerator / denominator}, e.g. pages over bios. */
    public static Counter ratio(long numerator, long denominator) {
        return new Counter(Kind.RATIO, numerator, denominator);
    }

    /** {@code 100 * numerator / denominator} percent, e.g. CPU nanoseconds over elapsed nanoseconds. */
    public static Counter percent(long numerator, long denominator) {
        return new Counter(Kind.PERCENT, numerator, denominator);
    }

    public Kind kind() {
        return kind;
    }

    public long numerator() {
        return numerator;
    }

    public long denominator() {
        return denominator;
    }

    /** The value: the count, the ratio, or the percentage; NaN for a ratio over 0. */
    public double value() {
        switch (kind) {
            case COUNT:
                return numerator;
            case RATIO:
                return denominator == 0 ? Double.NaN : (double) numerator / denominator;
            default:
                return denominator == 0 ? Double.NaN : 100.0 * numerator / denominator;
        }
    }

    /** This counter and {@code other} added up (see the class comment); both must be of one kind. */
    public Counter plus(Counter other) {
        if (other.kind != kind) {
            throw new IllegalArgumentException("cannot add a " + other.kind + " counter to a " + kind + " counter");
        }
        if (kind == Kind.COUNT) {
            return new Counter(kind, Math.addExact(numerator, other.numerator), 1);
        }
        return new Counter(kind, Math.addExact(numerator, other.numerator), Math.addExact(denominator, other.denominator));
    }

    /** As printed: {@code 16,000}, {@code 4.00}, {@code 52.3%}; {@code -} for a ratio over 0. */
    public String format() {
        switch (kind) {
            case COUNT:
                return String.format(Locale.ROOT, "%,d", numerator);
            case RATIO:
                return denominator == 0 ? "-" : String.format(Locale.ROOT, "%.2f", value());
            default:
                return denominator == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", value());
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Counter && ((Counter) o).kind == kind && ((Counter) o).numerator == numerator
                && ((Counter) o).denominator == denominator;
    }

    @Override
    public int hashCode() {
        return (kind.hashCode() * 31 + Long.hashCode(numerator)) * 31 + Long.hashCode(denominator);
    }

    @Override
    public String toString() {
        return format();
    }
}
