package kmodel.tools.fio;

/**
 * Where {@code kmodel fio} and {@code kmodel xfs_io} find the {@link WorkloadRunner}: the
 * virtual-time simulator once it is built. Until then {@link #get()} throws {@link
 * SimulatorNotBuiltException} (the command: one line, exit 3).
 */
public final class WorkloadRunners {
    private WorkloadRunners() {
    }

    /**
     * The simulator.
     *
     * @throws SimulatorNotBuiltException while there is none
     */
    public static WorkloadRunner get() {
        // Plug the simulator in here: return an adapter from kmodel.verification.sim to WorkloadRunner.
        throw new SimulatorNotBuiltException();
    }
}
