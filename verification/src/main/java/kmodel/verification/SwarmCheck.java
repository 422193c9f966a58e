package kmodel.verification;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.verification.scenarios.SwarmGenerator;
import kmodel.verification.scenarios.SwarmRecipe;
import kmodel.verification.scenarios.SwarmWorlds;

/**
 * Swarm runs: {@code count} recipes generated from one seed ({@link SwarmGenerator}), each
 * model-checked exhaustively with a preemption bound (default 2) and a per-recipe execution budget
 * scaled down from {@link ModelCheck#DEFAULT_EXHAUSTIVE_BUDGET} so that a run of many recipes
 * stays fast. Recipe {@code i} depends on {@code (seed, i)} only, so a run of 10 recipes is a
 * prefix of a run of 100 with the same seed.
 *
 * <pre>{@code
 * List<SwarmCheck.Entry> run = SwarmCheck.of(1, 20).config(cfg).run(e -> print(e));
 * }</pre>
 */
public final class SwarmCheck {
    /** Default execution budget per recipe. */
    public static final long DEFAULT_BUDGET = 100_000;

    private final long seed;
    private final int count;
    private int preemptions = ModelCheck.DEFAULT_PREEMPTIONS;
    private long budget = DEFAULT_BUDGET;
    /** Whether {@link #executions} was called; if not, each swarm's own default budget applies ({@link SwarmWorlds#defaultBudget}). */
    private boolean budgetSet;
    private long steps = ModelCheck.DEFAULT_STEPS;
    private Kconfig config = Kconfig.defaults();
    private boolean verbose;
    private boolean stopAtFirstFailure;
    /** The swarms recipes are drawn from, recipe {@code i} from {@code worlds[i % n]}; default the page swarm only. */
    private List<String> worlds = List.of(SwarmWorlds.PAGE);

    private SwarmCheck(long seed, int count) {
        this.seed = seed;
        this.count = count;
    }

    /** {@code count} recipes from {@code seed}. */
    public static SwarmCheck of(long seed, int count) {
        return new SwarmCheck(seed, count);
    }

    /** The seed of recipe {@code index} of a run with {@code seed} (SplitMix64 of the pair). */
    public static long recipeSeed(long seed, int index) {
        long z = seed * 0x9E3779B97F4A7C15L + (index + 1) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Recipe {@code index} of a run with {@code seed}. */
    public static SwarmRecipe recipe(long seed, int index) {
        return SwarmGenerator.generate(recipeSeed(seed, index));
    }

    /**
     * The swarms to draw from ({@link SwarmWorlds#names()}): recipe {@code i} is of
     * {@code worlds[i % n]}, from seed {@link #recipeSeed}{@code (seed, i)}; so with the page swarm
     * first, recipe 0 is the page swarm's recipe 0 whatever the others are.
     */
    public SwarmCheck worlds(List<String> w) {
        for (String name : w) {
            SwarmWorlds.generate(name, 0); /* an unknown world is an IllegalArgumentException with one line */
        }
        this.worlds = List.copyOf(w);
        return this;
    }

    /** Recipe {@code index}'s text of a run with {@code seed} drawing from {@code worlds}. */
    public static String recipeText(long seed, int index, List<String> worlds) {
        return SwarmWorlds.generate(worlds.get(index % worlds.size()), recipeSeed(seed, index));
    }

    /** Preemption bound (default 2), or {@link ModelCheck#UNBOUNDED} (with partial-order reduction). */
    public SwarmCheck preemptions(int n) {
        this.preemptions = n;
        return this;
    }

    /** Execution budget per recipe (default: {@link SwarmWorlds#defaultBudget}, {@link #DEFAULT_BUDGET} for the page swarm). */
    public SwarmCheck executions(long n) {
        this.budget = n;
        this.budgetSet = true;
        return this;
    }

    /** Step bound per execution. */
    public SwarmCheck steps(long n) {
        this.steps = n;
        return this;
    }

    /** The configuration, laid over each recipe's own settings. */
    public SwarmCheck config(Kconfig c) {
        this.config = c;
        return this;
    }

    /** Draw every scheduling point in counterexamples. */
    public SwarmCheck verbose(boolean on) {
        this.verbose = on;
        return this;
    }

    /** Stop after the first recipe that fails (default: check all {@code count}). */
    public SwarmCheck stopAtFirstFailure(boolean on) {
        this.stopAtFirstFailure = on;
        return this;
    }

    /** One checked recipe. */
    public static final class Entry {
        private final int index;
        private final SwarmRecipe recipe;
        private final String text;
        private final CheckResult result;

        Entry(int index, SwarmRecipe recipe, String text, CheckResult result) {
            this.index = index;
            this.recipe = recipe;
            this.text = text;
            this.result = result;
        }

        /** The recipe's text, of any swarm ({@code swarm:<text>} is its scenario). */
        public String text() {
            return text;
        }

        /** Its swarm ({@link SwarmWorlds#worldOf}). */
        public String world() {
            return SwarmWorlds.worldOf(text);
        }

        /** Position in the run, from 0. */
        public int index() {
            return index;
        }

        /** The page swarm's recipe, or null for a recipe of another swarm. */
        public SwarmRecipe recipe() {
            return recipe;
        }

        public CheckResult result() {
            return result;
        }
    }

    /** Checks the recipes in order, handing each result to {@code each} as it is done. */
    public List<Entry> run(Consumer<Entry> each) {
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String text = recipeText(seed, i, worlds);
            SwarmRecipe r = SwarmWorlds.worldOf(text).equals(SwarmWorlds.PAGE) ? SwarmRecipe.parse(text) : null;
            CheckResult c = check(text);
            Entry e = new Entry(i, r, text, c);
            entries.add(e);
            each.accept(e);
            if (stopAtFirstFailure && c.violation() != null) {
                break;
            }
        }
        return entries;
    }

    /** Checks one recipe of any swarm with this run's bound, budget and configuration. */
    public CheckResult check(String text) {
        long b = budgetSet ? budget : SwarmWorlds.defaultBudget(SwarmWorlds.worldOf(text));
        return ModelCheck.exhaustive(SwarmWorlds.scenario(text)).preemptions(preemptions).executions(b)
                .steps(steps).config(config).verbose(verbose).run();
    }

    /** Checks every recipe in order. */
    public List<Entry> run() {
        return run(e -> { });
    }
}
