package kmodel.tools.fio;

/**
 * Where {@code kmodel fio} and {@code kmodel xfs_io} find the {@link WorkloadRunner}: the
 * virtual-time simulator ({@link SimRunner}).
 */
public final class WorkloadRunners {
    private WorkloadRunners() {
    }

    /** The simulator ({@link SimRunner}). */
    public static WorkloadRunner get() {
        return new SimRunner();
    }
}
