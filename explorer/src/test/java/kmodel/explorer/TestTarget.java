package kmodel.explorer;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import kmodel.kernel.Kconfig;
import kmodel.kernel.sched.Program;
import kmodel.kernel.sched.Runtime;
import kmodel.kernel.sched.Task;

/**
 * A small program over the runtime's primitives, for the engine's self-tests: a world built at the
 * start of every execution, its tasks, what must hold at the end and a summary of the end state.
 * It spawns its tasks as {@code kmodel.verification.world.Scenario} does, so a program checked here
 * explores exactly as the same program written as a scenario; the explorer's own tests need no
 * scenario of the project.
 *
 * @param <W> the world type
 */
public final class TestTarget<W> implements CheckTarget {
    /** Creates tasks from a built world. */
    public interface Spawner {
        Task task(String name, Runnable body);

        Task daemon(String name, Runnable body);

        Task irq(String name, Runnable body);
    }

    private final String name;
    private final Supplier<W> setup;
    private final List<BiConsumer<W, Spawner>> spawners = new ArrayList<>();
    private Consumer<W> atEnd = w -> { };
    private Function<W, String> outcome = w -> "";

    private TestTarget(String name, Supplier<W> setup) {
        this.name = name;
        this.setup = setup;
    }

    /** Starts a program named {@code name} (the description is for the reader of the test). */
    public static <W> Builder<W> named(String name, String description) {
        return new Builder<>(name);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Kconfig settings() {
        return Kconfig.defaults();
    }

    @Override
    public int autoBound() {
        return ModelCheck.AUTO_BOUND;
    }

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

    /** Builds a {@link TestTarget}. */
    public static final class Builder<W> {
        private final String name;
        private Supplier<W> setup;
        private final List<BiConsumer<W, Spawner>> spawners = new ArrayList<>();
        private Consumer<W> atEnd = w -> { };
        private Function<W, String> outcome = w -> "";

        private Builder(String name) {
            this.name = name;
        }

        public Builder<W> setup(Supplier<W> s) {
            this.setup = s;
            return this;
        }

        public Builder<W> task(String taskName, Consumer<W> body) {
            spawners.add((w, s) -> s.task(taskName, () -> body.accept(w)));
            return this;
        }

        public Builder<W> tasks(BiConsumer<W, Spawner> spawner) {
            spawners.add(spawner);
            return this;
        }

        public Builder<W> atEnd(Consumer<W> check) {
            this.atEnd = check;
            return this;
        }

        public Builder<W> outcome(Function<W, String> summary) {
            this.outcome = summary;
            return this;
        }

        public TestTarget<W> build() {
            TestTarget<W> t = new TestTarget<>(name, setup);
            t.spawners.addAll(spawners);
            t.atEnd = atEnd;
            t.outcome = outcome;
            return t;
        }
    }
}
