package kmodel.verification.world;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import kmodel.explorer.CheckTarget;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.kernel.KconfigOption;
import kmodel.kernel.sched.Program;
import kmodel.kernel.sched.Runtime;
import kmodel.kernel.sched.Task;

/**
 * A named, deterministic world to explore: how to build it, which tasks run in it, and what must
 * hold when they are done. Everything else (interleavings, lifetimes, quiescence) is the
 * runtime's.
 *
 * <pre>{@code
 * Scenario.<World>named("textbook-waitqueue", "two waiters and a waker on one wait queue")
 *     .setup(World::new)
 *     .task("waiter1", World::waiter)
 *     .task("waiter2", World::waiter)
 *     .task("waker", World::waker)
 *     .atEnd(World::check)
 *     .build();
 * }</pre>
 *
 * A scenario must be deterministic given its schedule: the same setup every time, no wall clock,
 * no unordered iteration. Setup runs at the start of every execution (stateless re-execution).
 *
 * @param <W> the world type
 */
public final class Scenario<W> implements CheckTarget {
    /** Creates tasks from a built world (for scenarios whose task list depends on the configuration). */
    public interface Spawner {
        /** Declares a task that starts runnable. */
        Task task(String name, Runnable body);

        /** Declares a daemon task (may still sleep at the end: an io-wq worker, say). */
        Task daemon(String name, Runnable body);

        /** Declares an interrupt-context task (must not sleep), drawn in the "irq" column. */
        Task irq(String name, Runnable body);
    }

    private final String name;
    private final String description;
    private final Supplier<W> setup;
    private final List<BiConsumer<W, Spawner>> spawners;
    private final Consumer<W> atEnd;
    private final Function<W, String> outcome;
    private final Kconfig settings;
    private final int autoBound;

    private Scenario(Builder<W> b) {
        this.settings = b.settings;
        this.autoBound = b.autoBound;
        this.name = b.name;
        this.description = b.description;
        this.setup = b.setup;
        this.spawners = new ArrayList<>(b.spawners);
        this.atEnd = b.atEnd;
        this.outcome = b.outcome;
    }

    /**
     * The preemption bound the command line's default search ({@code ModelCheck.AUTO}) falls back
     * to for this scenario when the unbounded search does not finish in its budget:
     * {@code ModelCheck.AUTO_BOUND} (3) unless the scenario lowers it ({@link Builder#autoBound}),
     * which it does when bound 3 cannot finish within the default run's time.
     */
    @Override
    public int autoBound() {
        return autoBound;
    }

    /** Starts a scenario with its registered name and one-line description. */
    public static <W> Builder<W> named(String name, String description) {
        return new Builder<>(name, description);
    }

    /** The registered name. */
    @Override
    public String name() {
        return name;
    }

    /** The one-line description. */
    public String description() {
        return description;
    }

    /**
     * The scenario's own settings (e.g. a one-head wait table to force collisions); the command
     * line's {@code --set} and {@code --bug} are laid over them ({@link Kconfig#overlay}).
     */
    @Override
    public Kconfig settings() {
        return settings;
    }

    /**
     * One execution's program: fresh world, fresh tasks. Public for the free-running harnesses
     * ({@code kmodel.verification.harness}), which run it on real threads.
     */
    @Override
    public Program program() {
        return new Program() {
            private W world;

            @Override
            public void boot(Runtime rt) {
                world = setup.get();
                Spawner s = new Spawner() {
                    @Override
                    public Task task(String n, Runnable body) {
                        return rt.spawn(n, n, false, false, body);
                    }

                    @Override
                    public Task daemon(String n, Runnable body) {
                        return rt.spawn(n, n, false, true, body);
                    }

                    @Override
                    public Task irq(String n, Runnable body) {
                        return rt.spawn(n, "irq", true, false, body);
                    }
                };
                for (BiConsumer<W, Spawner> sp : spawners) {
                    sp.accept(world, s);
                }
            }

            @Override
            public String finish() {
                atEnd.accept(world);
                return outcome.apply(world);
            }
        };
    }

    @Override
    public String toString() {
        return name;
    }

    /** Builds a {@link Scenario}. */
    public static final class Builder<W> {
        private final String name;
        private final String description;
        private Supplier<W> setup;
        private final List<BiConsumer<W, Spawner>> spawners = new ArrayList<>();
        private Consumer<W> atEnd = w -> { };
        private Function<W, String> outcome = w -> "";
        private Kconfig settings = Kconfig.defaults();
        private int autoBound = ModelCheck.AUTO_BOUND;

        private Builder(String name, String description) {
            this.name = Objects.requireNonNull(name);
            this.description = Objects.requireNonNull(description);
        }

        /** A setting this scenario needs (the command line may still override it). */
        public Builder<W> set(KconfigOption option, long value) {
            this.settings = settings.with(option, value);
            return this;
        }

        /**
         * Lowers the bound of the default search for this scenario ({@link Scenario#autoBound}),
         * 0 to {@code ModelCheck.AUTO_BOUND}: a world whose bound-3 search does not finish within
         * the default run's time is checked completely up to {@code bound} instead, and its
         * result line says so.
         */
        public Builder<W> autoBound(int bound) {
            if (bound < 0 || bound > ModelCheck.AUTO_BOUND) {
                throw new IllegalArgumentException("autoBound " + bound + " outside [0, " + ModelCheck.AUTO_BOUND + "]");
            }
            this.autoBound = bound;
            return this;
        }

        /** Builds the world (runs with scheduling off, at the start of every execution). */
        public Builder<W> setup(Supplier<W> s) {
            this.setup = s;
            return this;
        }

        /** Adds a task running {@code body} on the world. */
        public Builder<W> task(String taskName, Consumer<W> body) {
            spawners.add((w, s) -> s.task(taskName, () -> body.accept(w)));
            return this;
        }

        /** Adds tasks computed from the world (e.g. N readers from a Kconfig size). */
        public Builder<W> tasks(BiConsumer<W, Spawner> spawner) {
            spawners.add(spawner);
            return this;
        }

        /** What must hold at the end (throw a Violation via Kernel.fail / BUG_ON otherwise). */
        public Builder<W> atEnd(Consumer<W> check) {
            this.atEnd = check;
            return this;
        }

        /** A one-line summary of the final state, for counting distinct terminal outcomes. */
        public Builder<W> outcome(Function<W, String> summary) {
            this.outcome = summary;
            return this;
        }

        public Scenario<W> build() {
            Objects.requireNonNull(setup, "setup");
            return new Scenario<>(this);
        }
    }
}
