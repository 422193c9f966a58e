package kmodel.sim;

import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The sensitivity table of {@code ./kmodel reproduce}: each constant of the cost model
 * ({@link CostModel#standard()}) halved and doubled in turn, the seeds' experiments re-run
 * ({@link Reproduction#run}, no job sweep) and, per compared figure, the model's change
 * patched/vanilla and whether it still moves the way the seed's does. It answers "does a
 * conclusion depend on one constant's value?"; it does not fit anything.
 *
 * <p>The standard cost model is run once too ({@link #baseline}), at the same scale, so that each
 * variant reads against it. 17 constants, two factors: 34 runs plus the baseline, each a full
 * {@link Reproduction} (about ten seconds each at {@link Reproduction.Scale#small()}): this is for
 * the command line, not for unit tests at full size.
 */
public final class Sensitivity {
    /** The factors each constant is multiplied by, in table order. */
    public static final ImmutableList<Double> FACTORS = ImmutableList.of(0.5, 2.0);

    /** One cost model's outcome: per compared figure the model's change and its direction. */
    public static final class Row {
        /** The constant varied ({@code "none"} for the baseline). */
        public final String constant;
        /** Its factor (1 for the baseline). */
        public final double factor;
        /** The constant's value in this run (ns, or ns per byte), NaN for the baseline. */
        public final double value;
        /** Per figure, in {@link Sensitivity#figures} order: model patched/vanilla - 1. */
        public final ImmutableList<Double> changes;
        /** Per figure: whether the model's change has the seed's sign (and is not 0). */
        public final ImmutableList<Boolean> sameDirection;

        Row(String constant, double factor, double value, List<Double> changes, List<Boolean> sameDirection) {
            this.constant = constant;
            this.factor = factor;
            this.value = value;
            this.changes = ImmutableList.copyOf(changes);
            this.sameDirection = ImmutableList.copyOf(sameDirection);
        }

        /** Whether every figure keeps the seed's direction under this cost model. */
        public boolean allSameDirection() {
            return !sameDirection.contains(false);
        }

        static Row of(String constant, double factor, double value, Reproduction r) {
            List<Double> changes = new ArrayList<>();
            List<Boolean> same = new ArrayList<>();
            for (Reproduction.Row row : r.rows) {
                changes.add(row.modelChange());
                same.add(row.sameDirection());
            }
            return new Row(constant, factor, value, changes, same);
        }
    }

    public final Reproduction.Scale scale;
    public final int cpus;
    /** The compared figures, as {@code "SEED FIGURE"} (e.g. {@code "000 READ bw (4 jobs)"}), in row order. */
    public final ImmutableList<String> figures;
    /** Per figure, the seed's published change patched/vanilla - 1. */
    public final ImmutableList<Double> publishedChanges;
    /** The standard cost model at the same scale. */
    public final Row baseline;
    /** Each constant halved then doubled, in {@link CostModel#values()} order. */
    public final ImmutableList<Row> rows;

    Sensitivity(Reproduction.Scale scale, int cpus, List<String> figures, List<Double> publishedChanges, Row baseline,
            List<Row> rows) {
        this.scale = scale;
        this.cpus = cpus;
        this.figures = ImmutableList.copyOf(figures);
        this.publishedChanges = ImmutableList.copyOf(publishedChanges);
        this.baseline = baseline;
        this.rows = ImmutableList.copyOf(rows);
    }

    /** Whether every variant keeps every figure's direction. */
    public boolean allSameDirection() {
        for (Row r : rows) {
            if (!r.allSameDirection()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Every constant of {@link CostModel#standard()} halved and doubled at {@code scale} on
     * {@code cpus} CPUs; {@code progress} gets a line before each simulated run
     * ({@code "sensitivity 3/35 point x2: 000/vanilla"}).
     */
    public static Sensitivity run(Reproduction.Scale scale, int cpus, Consumer<String> progress) {
        return run(scale, cpus, CostModel.standard().values().keySet().asList(), progress);
    }

    /**
     * As {@link #run(Reproduction.Scale, int, Consumer)}, varying only {@code constants} (names of
     * {@link CostModel#values()}, an unknown name is an {@link IllegalArgumentException}).
     */
    public static Sensitivity run(Reproduction.Scale scale, int cpus, List<String> constants,
            Consumer<String> progress) {
        CostModel standard = CostModel.standard();
        for (String c : constants) {
            if (!standard.values().containsKey(c)) {
                throw new IllegalArgumentException("no cost constant " + c + " (one of " + standard.values().keySet()
                        + ")");
            }
        }
        int total = 1 + constants.size() * FACTORS.size();
        int[] done = {0};
        Reproduction base = reproduce(scale, cpus, standard, "standard", ++done[0], total, progress);
        List<String> figures = new ArrayList<>();
        List<Double> published = new ArrayList<>();
        for (Reproduction.Row row : base.rows) {
            figures.add(row.seed + " " + row.figure);
            published.add(row.publishedChange());
        }
        Row baseline = Row.of("none", 1, Double.NaN, base);
        List<Row> rows = new ArrayList<>();
        for (String c : constants) {
            for (double f : FACTORS) {
                CostModel cost = standard.scaled(c, f);
                Reproduction r = reproduce(scale, cpus, cost, c + " x" + factor(f), ++done[0], total, progress);
                rows.add(Row.of(c, f, cost.values().get(c), r));
            }
        }
        return new Sensitivity(scale, cpus, figures, published, baseline, rows);
    }

    private static Reproduction reproduce(Reproduction.Scale scale, int cpus, CostModel cost, String what, int n,
            int total, Consumer<String> progress) {
        String prefix = "sensitivity " + n + "/" + total + " " + what + ": ";
        return Reproduction.run(scale, cpus, cost, false, run -> progress.accept(prefix + run));
    }

    /** {@code 0.5} or {@code 2}: a factor as the table prints it. */
    public static String factor(double f) {
        return f == Math.rint(f) ? String.format(Locale.ROOT, "%d", (long) f) : String.format(Locale.ROOT, "%s", f);
    }
}
