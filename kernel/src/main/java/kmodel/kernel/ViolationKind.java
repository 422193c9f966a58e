package kmodel.kernel;

/**
 * The kinds of violation the checker reports, printed exactly as {@link #label()} (DESIGN.md,
 * "What is checked"). Every kind but {@link #OOPS} is a check the model makes on purpose; an
 * {@code oops} is model code that crashed (a Java exception), which no test expecting a check
 * may mistake for that check.
 */
public enum ViolationKind {
    /** The run is quiescent while a task still sleeps or an io_uring request is still in flight. */
    MISSED_WAKEUP("missed-wakeup"),
    /**
     * The run is quiescent and its sleepers wait in a cycle: each waits for a lock (a page lock,
     * a mutex, an rw_semaphore, a spinlock) that the next one holds. Reported instead of a
     * missed wake-up, with the cycle in the message.
     */
    DEADLOCK("deadlock"),
    /** A page or bio reference dropped below zero, or an object was freed twice. */
    DOUBLE_RELEASE("double-release"),
    /** A freed object (or a returned waiter's on-stack entry) was touched. */
    USE_AFTER_FREE("use-after-free"),
    /**
     * A late access through a stale {@code struct page} pointer changed a flag of the page while
     * another owner has it (the page was freed and reused), or left a flag set on a free page
     * that the allocator's {@code check_new_page()} then finds. {@code struct page} memory is
     * never freed, so such an access is no {@code use-after-free}: it is reported by what it
     * does (mm-filemap's {@code Page.lateFlagWrite}).
     */
    PAGE_FLAGS_CORRUPTED("page-flags-corrupted"),
    /** At the end an object holds references that no owner accounts for. */
    REF_LEAK("ref-leak"),
    /** A page is still locked at the end, or a spinlock is held across schedule() or at exit. */
    LOCK_LEAK("lock-leak"),
    /** An io_uring request ended with no CQE. */
    LOST_COMPLETION("lost-completion"),
    /** An io_uring request ended with two CQEs. */
    DOUBLE_COMPLETION("double-completion"),
    /**
     * A task slept, or started I/O it was told not to start, inside a non-blocking attempt
     * (io_uring's {@code force_nonblock} issue, an {@code IOCB_NOWAIT} or {@code IOCB_NOIO}
     * read, a nowait plug): the contract that seed 002's async buffered reads exist to keep.
     * Checked by {@code Sched.schedule()} and {@code submit_bio()} (see {@code Sched.nowaitEnter}).
     */
    BLOCKED_IN_NOWAIT("blocked-in-nowait"),
    /** Bytes returned to a reader differ from the file's bytes. */
    DATA_CORRUPTION("data-corruption"),
    /**
     * A system call returned what the kernel's contract rules out, other than bad bytes in a
     * successful read: e.g. a direct read that failed with {@code -EIO} but left unrepaired a
     * sector that had a good copy on another mirror.
     */
    WRONG_RESULT("wrong-result"),
    /**
     * Any other BUG_ON / VM_BUG_ON_PAGE / WARN_ON the model raises on purpose ({@code Kernel.fail},
     * a {@code Violation} thrown by model code or by the runtime's own spinlock and schedule checks).
     */
    BUG_ON("bug-on"),
    /** A plain access raced with a conflicting access not ordered by happens-before (KCSAN). */
    DATA_RACE("data-race"),
    /**
     * The model crashed: a task threw a Java exception that is not a {@code Violation} (a null
     * dereference, an index out of bounds, a failed Java {@code assert}). The message names the
     * exception and the model frame it came from, as the kernel's oops names the faulting function.
     */
    OOPS("oops"),
    /**
     * With seed 002's series on, an io_uring buffered read that the page-unlock callback and its
     * task_work retry could serve was handed to an io-wq worker instead (the series' promise,
     * issue 26's contract list: docs/contracts.md). Checked at the punt ({@code IoUringContracts}).
     */
    NEEDLESS_PUNT("needless-punt");

    private final String label;

    ViolationKind(String label) {
        this.label = label;
    }

    /** The kind as printed by the checker and the CLI. */
    public String label() {
        return label;
    }

    /** Parses a printed label back; {@code null} when unknown. */
    public static ViolationKind fromLabel(String label) {
        for (ViolationKind k : values()) {
            if (k.label.equals(label)) {
                return k;
            }
        }
        return null;
    }
}
