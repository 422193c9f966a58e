package kmodel.kernel;

import kmodel.kernel.atomic.AtomicT;
import kmodel.kernel.sched.Runtime;

/**
 * lib/fault-inject.c and include/linux/fault-inject.h (v5.10): the kernel's fault-injection
 * framework ({@code CONFIG_FAULT_INJECTION}, Documentation/fault-injection/fault-injection.rst),
 * for the checker. Each capability is a {@link FaultAttr} ({@code struct fault_attr}) that its
 * call site asks {@link #shouldFail} before it does the real thing: {@code fail_page_alloc}
 * ({@code should_fail_alloc_page()}, mm/page_alloc.c; option {@code FAIL_PAGE_ALLOC}) and
 * {@code fail_make_request} ({@code should_fail_bio()}, block/blk-core.c; option
 * {@code FAIL_MAKE_REQUEST}). {@code ./kmodel options} lists them (FORM {@code fault}).
 *
 * <h2>What the model keeps of {@code struct fault_attr}</h2>
 * <ul>
 *   <li>{@code probability}: the kernel draws {@code prandom_u32() % 100}; the model makes "does
 *       this call fail" a <b>data choice</b> of the checker ({@code Runtime.choose}, option 0 "no",
 *       so the first execution of a search is the one without faults). An exhaustive search then
 *       tries every call (within the budget) failing and not, a replay token carries which one
 *       failed, and the minimiser can drop an injected failure like any other choice. The
 *       option's value 0 is {@code probability = 0}: {@link #shouldFail} returns at once, with no
 *       scheduling point and no choice, so a check with the options off is the check without
 *       fault injection (same executions, same verdicts).</li>
 *   <li>{@code times}: the budget, "specifies how many times failures may happen at most"; the
 *       option's value (1 to 1000), per execution. An {@code atomic_t} as in the kernel, read and
 *       decremented by whichever task fails, so two tasks racing to fail is a race the checker
 *       explores (both may pass the read before either decrements, as in the kernel).</li>
 *   <li>Not modelled (each at the value that makes it no filter): {@code interval} (1),
 *       {@code space} (0), {@code task-filter} (N), the stack-trace filter
 *       ({@code require-start}/{@code reject-start}), {@code verbose}, and the per-task
 *       {@code fail-nth} ({@code BTRFS_BIO_ALLOC_FAIL} is a fail-nth of its own).</li>
 * </ul>
 * A failure is recorded as an event {@code FAULT_INJECTION: forcing a failure} naming the
 * capability and the call site ({@code fail_dump()}), so a counterexample's diagram shows which
 * call failed.
 */
public final class FaultInject {
    private FaultInject() {
    }

    /**
     * include/linux/fault-inject.h: {@code struct fault_attr} (v5.10), one per capability and
     * execution (the kernel's is static, the model keeps no static mutable state: the structure
     * that owns the capability's call site holds it, e.g. the page allocator or the block layer,
     * created in the execution's set-up).
     */
    public static final class FaultAttr {
        /** The capability's name, as its debugfs directory ({@code fail_page_alloc}). */
        public final String name;
        /** {@code probability}: 100 when the option is set (the failure is then a data choice), else 0. */
        public final int probability;
        /**
         * {@code times}: failures still allowed in this execution; null when {@code probability}
         * is 0 (not created, so a check without fault injection builds exactly the objects it did).
         */
        public final AtomicT times;
        /** The option's value: {@code times} at the start of the execution (model-only, for checks). */
        public final int budget;

        /**
         * {@code DECLARE_FAULT_ATTR(name)} with the budget of {@code option} in the running
         * configuration ({@code probability=100}, {@code times=N}); off when the option is 0 or no
         * runtime is installed (a unit test's set-up).
         */
        public FaultAttr(String name, KconfigOption option) {
            this.name = name;
            Runtime rt = Kernel.rtOrNull();
            long n = rt == null ? 0 : rt.config().value(option);
            this.probability = n > 0 ? 100 : 0;
            this.budget = (int) n;
            this.times = n > 0 ? new AtomicT(name + ".times", (int) n) : null;
        }

        /** Failures still allowed (no scheduling point; for checks and tests), 0 when off. */
        public int peekTimes() {
            return times == null ? 0 : times.peek();
        }

        /**
         * How many failures this capability has injected so far in the execution; a world's
         * check that depends on it calls this, which reports a read of {@code times} (footprint)
         * so that the checker orders it against the injecting tasks.
         */
        public int injected() {
            if (times == null) {
                return 0;
            }
            Kernel.accessRead(times);
            return budget - times.peek();
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * lib/fault-inject.c: {@code should_fail(attr, size)} (v5.10): whether the call at
     * {@code site} (the kernel function that asks; {@code detail}, if not null, is appended, e.g.
     * the bio) fails. Off ({@code probability == 0}): false, no scheduling point. Out of budget
     * ({@code atomic_read(&attr->times) == 0}): false. Else the checker chooses (the model's
     * {@code prandom_u32() % 100 < probability}); on "fail", {@code fail_dump()} (an event) and
     * {@code atomic_dec_not_zero(&attr->times)}.
     */
    public static boolean shouldFail(FaultAttr attr, long size, String site, Object detail) {
        /* No need to check any other properties if the probability is 0 */
        if (attr.probability == 0) {
            return false;
        }
        if (attr.times.read() == 0) {
            return false;
        }
        String where = detail == null ? site : site + " " + detail;
        if (Kernel.rt().choose(2, "should_fail(" + attr.name + ") at " + where) == 0) {
            return false;
        }
        /* fail_dump() */
        Kernel.event("FAULT_INJECTION: forcing a failure (%s) at %s", attr.name, where);
        /* atomic_dec_not_zero(&attr->times) (times is never -1, "no limit", in the model) */
        attr.times.addUnless(-1, 0);
        return true;
    }
}
