package kmodel.explorer;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The units of a split exploration of one scenario ({@link SplitExplorer}), level by level (one
 * level per preemption bound of the iterative search; one level, bound -1, for the unbounded
 * search, first of all with {@code --preemptions auto}), with what each unit explored: of every unit for a whole run, of units {@code u} with
 * {@code u % shardCount == shardIndex} for a shard ({@code kmodel check --shard I/N}). The
 * shards of a run merge into the run's {@link CheckResult} ({@link SplitExplorer#merge}).
 */
public final class SplitRun {
    /** Everything that decides the units and their searches: shards merge only when these are equal. */
    public static final class Settings {
        final String scenario;
        final String config;
        final int preemptions;
        final boolean reduction;
        final boolean iterative;
        final long steps;
        final long budget;
        final int unitTarget;
        final int autoBound;
        /**
         * The unbounded search is source-DPOR without wakeup trees ({@code --reduction source}, for
         * comparisons).
         */
        boolean sourceSets;

        /**
         * @param config the effective configuration, canonical
         * @param preemptions the bound, {@link ModelCheck#UNBOUNDED} or {@link ModelCheck#AUTO}
         * @param autoBound the bound {@link ModelCheck#AUTO} falls back to for the scenario
         *     ({@link CheckTarget#autoBound()}); not compared by {@link #difference}, since the
         *     scenario decides it
         */
        public Settings(String scenario, String config, int preemptions, boolean reduction, boolean iterative,
                long steps, long budget, int unitTarget, int autoBound) {
            this.scenario = Objects.requireNonNull(scenario);
            this.config = Objects.requireNonNull(config);
            this.preemptions = preemptions;
            this.reduction = reduction;
            this.iterative = iterative;
            this.steps = steps;
            this.budget = budget;
            this.unitTarget = unitTarget;
            this.autoBound = autoBound;
        }

        public String scenario() {
            return scenario;
        }

        /** The effective configuration, canonical. */
        public String config() {
            return config;
        }

        /** The preemption bound, {@link ModelCheck#UNBOUNDED} or {@link ModelCheck#AUTO}. */
        public int preemptions() {
            return preemptions;
        }

        public boolean reduction() {
            return reduction;
        }

        /** Whether the unbounded reduced search is source-DPOR without wakeup trees. */
        public boolean sourceSets() {
            return sourceSets;
        }

        /** Sets {@link #sourceSets()} ({@code --reduction source}); returns this. */
        public Settings sourceSets(boolean on) {
            this.sourceSets = on;
            return this;
        }

        /** Whether the bound is iterated 0..N. */
        public boolean iterative() {
            return iterative;
        }

        public long steps() {
            return steps;
        }

        /** The execution budget. */
        public long budget() {
            return budget;
        }

        /** How many units a level is split into at least, where the tree has that many prefixes. */
        public int unitTarget() {
            return unitTarget;
        }

        /**
         * The levels of the search, in order: the preemption bounds it iterates, after
         * {@link ModelCheck#UNBOUNDED} (the unbounded search) when it is unbounded or
         * {@link ModelCheck#AUTO}; the phases of {@code ModelCheck.phases()}.
         */
        public int[] levels() {
            if (preemptions == ModelCheck.UNBOUNDED) {
                return new int[] {ModelCheck.UNBOUNDED};
            }
            boolean auto = preemptions == ModelCheck.AUTO;
            int to = auto ? autoBound : preemptions;
            int from = iterative ? 0 : to;
            int[] out = new int[(auto ? 1 : 0) + to - from + 1];
            int k = 0;
            if (auto) {
                out[k++] = ModelCheck.UNBOUNDED;
            }
            for (int b = from; b <= to; b++) {
                out[k++] = b;
            }
            return out;
        }

        /** Whether {@code bound} is one of {@link #levels()}. */
        public boolean hasLevel(int bound) {
            for (int b : levels()) {
                if (b == bound) {
                    return true;
                }
            }
            return false;
        }

        /**
         * The unit target of level {@code bound}: {@link #unitTarget()}, but 1 (unsplit, one unit)
         * for a level with a budget of its own: split source-DPOR explores traces again across
         * units (see {@link SplitExplorer#DPOR_UNIT_TARGET}), so split, the unbounded phase of
         * {@link ModelCheck#AUTO} would need more of its budget and could fall back to the bound
         * where the unsplit search finishes complete.
         */
        public int unitTarget(int bound) {
            return levelBudget(bound) >= 0 ? 1 : unitTarget;
        }

        /**
         * The budget of level {@code bound} of its own, or -1 (only the search's budget): the
         * unbounded phase of {@link ModelCheck#AUTO} has {@link ModelCheck#AUTO_UNBOUNDED_BUDGET};
         * when it does not finish in that, the bounded levels follow, else they are not run.
         */
        public long levelBudget(int bound) {
            return preemptions == ModelCheck.AUTO && bound == ModelCheck.UNBOUNDED ? ModelCheck.AUTO_UNBOUNDED_BUDGET : -1;
        }

        /** The first setting in which {@code o} differs, e.g. "preemptions 2 vs 3", or null when equal. */
        public String difference(Settings o) {
            if (!scenario.equals(o.scenario)) {
                return "scenario '" + scenario + "' vs '" + o.scenario + "'";
            }
            if (!config.equals(o.config)) {
                return "configuration [" + config + "] vs [" + o.config + "]";
            }
            if (preemptions != o.preemptions) {
                return "preemptions " + preemptions + " vs " + o.preemptions;
            }
            if (reduction != o.reduction) {
                return "reduction " + reduction + " vs " + o.reduction;
            }
            if (sourceSets != o.sourceSets) {
                return "source sets " + sourceSets + " vs " + o.sourceSets;
            }
            if (iterative != o.iterative) {
                return "iterative " + iterative + " vs " + o.iterative;
            }
            if (steps != o.steps) {
                return "steps " + steps + " vs " + o.steps;
            }
            if (budget != o.budget) {
                return "budget " + budget + " vs " + o.budget;
            }
            if (unitTarget != o.unitTarget) {
                return "unit target " + unitTarget + " vs " + o.unitTarget;
            }
            return null;
        }
    }

    /** One level: its units, in order, with the results this run holds (null where another shard has them). */
    public static final class Level {
        final int bound;
        final UnitResult[] units;

        /** A level of {@code unitCount} units, none explored yet. */
        public Level(int bound, int unitCount) {
            this.bound = bound;
            this.units = new UnitResult[unitCount];
        }

        /** The preemption bound of the level, or -1 unbounded. */
        public int bound() {
            return bound;
        }

        /** How many units the level has in all shards. */
        public int unitCount() {
            return units.length;
        }

        /** Unit {@code i}'s result, or null when this run does not hold it. */
        public UnitResult unit(int i) {
            return units[i];
        }

        /** Stores unit {@code r.index()}'s result. */
        public void put(UnitResult r) {
            units[r.index()] = r;
        }
    }

    private final Settings settings;
    private final int shardIndex;
    private final int shardCount;
    private final TreeMap<Integer, Level> levels = new TreeMap<>();
    private long nanos;

    /** A run of shard {@code shardIndex} of {@code shardCount} (0 of 1: the whole run). */
    public SplitRun(Settings settings, int shardIndex, int shardCount) {
        this.settings = settings;
        this.shardIndex = shardIndex;
        this.shardCount = shardCount;
    }

    public Settings settings() {
        return settings;
    }

    public int shardIndex() {
        return shardIndex;
    }

    public int shardCount() {
        return shardCount;
    }

    /** Whether this run explores unit {@code u} of a level. */
    public boolean owns(int u) {
        return u % shardCount == shardIndex;
    }

    /** The levels explored, by bound. */
    public SortedMap<Integer, Level> levels() {
        return Collections.unmodifiableSortedMap(levels);
    }

    /** Adds a level. */
    public void add(Level level) {
        levels.put(level.bound, level);
    }

    /** Wall time of this run (reported, never compared). */
    public long nanos() {
        return nanos;
    }

    public void nanos(long n) {
        this.nanos = n;
    }
}
