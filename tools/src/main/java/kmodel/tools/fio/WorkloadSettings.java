package kmodel.tools.fio;

import java.util.Collections;
import java.util.List;
import java.util.ArrayList;
import java.util.Objects;
import kmodel.kernel.Kconfig;

/**
 * How to run a workload, from the command line: the model's configuration (built from {@code
 * --set NAME=VALUE}, checked like {@code kmodel check --set}: every option in {@code kmodel
 * options}), the assignments as given (for the report), and the scale asked for with {@code
 * --scale}. Immutable.
 */
public final class WorkloadSettings {
    /** {@code --scale auto}: the runner picks a scale that keeps the run short. */
    public static final long SCALE_AUTO = 0;

    private final Kconfig config;
    private final List<String> assignments;
    private final long scaleDivisor;
    private final Machine machine;

    /**
     * @param config the configuration the model runs on
     * @param assignments the {@code --set} assignments as given, in order
     * @param scaleDivisor {@link #SCALE_AUTO}, 1 (full size) or N (run 1/N of the workload)
     */
    public WorkloadSettings(Kconfig config, List<String> assignments, long scaleDivisor) {
        this(config, assignments, scaleDivisor, Machine.defaults());
    }

    /** The same on the simulated {@code machine}. */
    public WorkloadSettings(Kconfig config, List<String> assignments, long scaleDivisor, Machine machine) {
        if (scaleDivisor < 0) {
            throw new IllegalArgumentException("scale divisor " + scaleDivisor);
        }
        this.config = Objects.requireNonNull(config);
        this.assignments = Collections.unmodifiableList(new ArrayList<>(assignments));
        this.scaleDivisor = scaleDivisor;
        this.machine = Objects.requireNonNull(machine);
    }

    /** The simulated machine ({@code --device}, {@code --cpus}, {@code --btrfs-profile}). */
    public Machine machine() {
        return machine;
    }

    /** Default configuration, no assignments, {@code --scale auto}. */
    public static WorkloadSettings defaults() {
        return new WorkloadSettings(Kconfig.defaults(), List.of(), SCALE_AUTO);
    }

    /** The model's configuration. */
    public Kconfig config() {
        return config;
    }

    /** The {@code --set} assignments as given (unmodifiable). */
    public List<String> assignments() {
        return assignments;
    }

    /**
     * {@link #SCALE_AUTO} (the runner chooses, and says what it chose in {@link
     * JobResult#scaleNote()}), 1 (the full workload), or N: run 1/N of it.
     */
    public long scaleDivisor() {
        return scaleDivisor;
    }
}
