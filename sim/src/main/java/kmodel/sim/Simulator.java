package kmodel.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Violation;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.DeterministicRuntime;
import kmodel.kernel.sched.ExecutionResult;
import org.HdrHistogram.Histogram;

/**
 * Runs a workload ({@link SimPrograms}) once on the deterministic runtime under the
 * {@link VirtualTime} strategy and returns its figures. The run is deterministic: the same
 * workload, configuration, cost model, CPUs and device give the same {@link SimResult}. A run
 * whose model reports a violation (a missed wake-up, a wrong byte...) or hits the step bound is
 * an error ({@link SimulationException}), not a figure.
 */
public final class Simulator {
    /** Scheduling points per run at most: a run bigger than this is refused, not cut. */
    public static final long STEP_LIMIT = 400_000_000L;

    private Simulator() {
    }

    /** A simulation that did not produce figures: the model failed or the run was too big. */
    public static final class SimulationException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        /** The model's violation, or null when the run hit its step bound. */
        private final transient Violation violation;

        SimulationException(String message, Violation violation) {
            super(message);
            this.violation = violation;
        }

        /** The kind of the model's violation, or null when the run hit its step bound. */
        public ViolationKind kind() {
            return violation == null ? null : violation.kind();
        }

        /** The model's violation, or null when the run hit its step bound. */
        public Violation violation() {
            return violation;
        }
    }

    /**
     * Runs {@code run} with {@code config} on {@code cpus} CPUs, every device of the run served
     * as {@code device}, costs from {@code cost}; {@code scale} describes the run for reports.
     */
    public static SimResult run(SimPrograms.Run run, Kconfig config, CostModel cost, int cpus, DeviceProfile device,
            String scale) {
        return run(run, config, cost, cpus, d -> device, scale);
    }

    /** {@link #run(SimPrograms.Run, Kconfig, CostModel, int, DeviceProfile, String)} with a device profile per device. */
    public static SimResult run(SimPrograms.Run run, Kconfig config, CostModel cost, int cpus,
            Function<Object, DeviceProfile> devices, String scale) {
        if (cpus < 1 || cpus > 1024) {
            throw new IllegalArgumentException("cpus must be 1 to 1024, not " + cpus);
        }
        return DeterministicRuntime.callOnRuntimeThread(() -> {
            try (DeterministicRuntime rt = new DeterministicRuntime()) {
                VirtualTime vt = new VirtualTime(cost, cpus, devices);
                rt.setTiming(vt);
                ExecutionResult r = rt.execute(run.program(), vt, config, STEP_LIMIT, false, false);
                Violation v = r.violation();
                if (v != null) {
                    throw new SimulationException("the model failed during the simulation: " + v.kind() + ": "
                            + v.getMessage(), v);
                }
                if (r.stepBound() != null) {
                    throw new SimulationException("the simulation hit its step bound: " + r.stepBound(), null);
                }
                List<SimResult.JobStats> jobs = new ArrayList<>();
                long first = Long.MAX_VALUE;
                long last = 0;
                for (SimPrograms.Job j : run.jobs) {
                    Histogram h = new Histogram(3_600_000_000_000L, 3);
                    for (long ns : j.latenciesNs) {
                        h.recordValue(Math.max(1, ns));
                    }
                    jobs.add(new SimResult.JobStats(j.name, j.bytes, j.ios, j.endNs - j.startNs,
                            vt.cpuNs(j.task.id()), h));
                    first = Math.min(first, j.startNs);
                    last = Math.max(last, j.endNs);
                }
                long wall = Math.max(last, vt.maxClock) - (first == Long.MAX_VALUE ? 0 : first);
                return new SimResult(jobs, wall, vt.busyNs, vt.irqNs, vt.switches, vt.wakeUps, vt.threads, cpus, run.counters,
                        run.pagesPerBio, scale);
            }
        });
    }
}
