package kmodel.tools.fio;

/**
 * Thrown by {@link WorkloadRunners#get()} while there is no simulator to run workloads on; the
 * command prints its message as one line and exits 3.
 */
public final class SimulatorNotBuiltException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The message: the simulator is not built. */
    public SimulatorNotBuiltException() {
        super("the simulator is not built (kmodel.sim is not in this build): "
                + "the workload was parsed but cannot run");
    }
}
