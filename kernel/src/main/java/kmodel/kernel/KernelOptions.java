package kmodel.kernel;

/** Kconfig options read by the kernel module itself. */
public final class KernelOptions {
    private KernelOptions() {
    }

    /**
     * kernel/sched/wait.c: {@code WAITQUEUE_WALK_BREAK_CNT}: a bookmarked wake-up walk drops the
     * queue lock after this many entries. Kernel value 64; checks lower it to reach the path.
     */
    public static final KconfigOption WAITQUEUE_WALK_BREAK_CNT = KconfigOption.integer("WAITQUEUE_WALK_BREAK_CNT", 64, 1,
            1024, "wake-up walk drops the queue lock every N entries (kernel: 64)");

    /** Every option of this module. */
    public static KconfigOption[] all() {
        return new KconfigOption[] {WAITQUEUE_WALK_BREAK_CNT};
    }
}
