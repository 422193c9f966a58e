package kmodel.sim;

import com.google.common.collect.ImmutableMap;
import java.util.LinkedHashMap;
import java.util.Map;
import kmodel.kernel.sched.Work;

/**
 * The cost model of the virtual-time simulation: what each thing the model does costs in CPU
 * time, and how long a wake-up takes to run the woken task. One place, every constant with its
 * source. The constants were fixed from the sources below before any comparison with the seeds'
 * figures and are not fitted to them; {@code ./kmodel reproduce} halves and doubles each one
 * (the sensitivity table) to show which conclusions depend on which constant.
 *
 * <p>All times are nanoseconds of one CPU of a ~3 GHz x86-64 server of the late 2010s. The
 * figures are order-of-magnitude values from the cited publications, not measurements of the
 * seeds' machines (which the seeds do not describe); see the README's "Simulation" section.
 *
 * <table>
 *   <caption>Constants and sources</caption>
 *   <tr><th>name</th><th>ns</th><th>source</th></tr>
 *   <tr><td>{@code point}</td><td>20</td><td>every scheduling point of the model is one atomic
 *       primitive (a locked RMW, a spin_lock, a bit op, a list update under a lock): Agner Fog,
 *       "Instruction tables" (2022), Skylake: {@code LOCK XADD}/{@code LOCK CMPXCHG} latency
 *       ~18-20 cycles uncontended, ~6 ns at 3 GHz, plus the surrounding call and cache-line
 *       traffic: 20 ns</td></tr>
 *   <tr><td>{@code contextSwitch}</td><td>1,500</td><td>B. Sigoure, "How long does it take to
 *       make a context switch?" (tsunanet.net, 2010): 1.2-1.5 us per switch between threads of
 *       one process pinned to a CPU, ~2.2 us unpinned</td></tr>
 *   <tr><td>{@code wakeUp}</td><td>1,000</td><td>CPU of {@code try_to_wake_up()} of a sleeping
 *       task on another CPU, including the reschedule IPI: the same source's futex ping-pong
 *       (one wake plus one switch per hop, ~2.5 us) minus the switch</td></tr>
 *   <tr><td>{@code wakeLatency}</td><td>5,000</td><td>time from the wake-up to the woken task
 *       running on an idle CPU (idle exit from a shallow C-state, IPI): cyclictest's typical
 *       average latency of 2-10 us on an idle non-RT kernel (OSADL latency plots), 5 us</td></tr>
 *   <tr><td>{@code threadCreate}</td><td>50,000</td><td>{@code kthread_create()} of an io-wq
 *       worker (a clone plus kthreadd's hand-off): lmbench {@code lat_proc fork} is 50-100 us on
 *       x86 servers (McVoy and Staelin, "lmbench: Portable tools for performance analysis",
 *       USENIX 1996, and later runs); a kernel thread has no mm to copy: 50 us</td></tr>
 *   <tr><td>{@code SYSCALL}</td><td>100</td><td>entry and exit of a system call: B. Gregg,
 *       "KPTI/KAISER Meltdown Initial Performance Regressions" (2018): ~0.1 us before page-table
 *       isolation</td></tr>
 *   <tr><td>{@code COPY_BYTES}</td><td>0.1 per byte</td><td>copy to or from user space with
 *       {@code rep movsb}: ~10 GB/s per core (J. McCalpin, STREAM "Copy" per core on Skylake-SP,
 *       ~10-12 GB/s)</td></tr>
 *   <tr><td>{@code PAGE_CACHE_ADD}</td><td>500</td><td>an order-0 page allocation (~150-250 ns:
 *       M. Gorman, "mm, page_alloc: ... fast paths" series, LWN 2016, page_alloc microbenchmark)
 *       plus the xarray insertion and LRU add of {@code add_to_page_cache_lru()}</td></tr>
 *   <tr><td>{@code BIO_ALLOC}</td><td>200</td><td>{@code bio_alloc_bioset()}: a mempool/slab
 *       allocation (~50-100 ns, SLUB fast path) and {@code bio_init()} of ~100 bytes</td></tr>
 *   <tr><td>{@code BIO_ADD_PAGE}</td><td>50</td><td>{@code bio_add_page()}: the merge test and
 *       one bvec written (tens of instructions)</td></tr>
 *   <tr><td>{@code BIO_CLONE}</td><td>150</td><td>{@code __bio_clone_fast()}: copying the bio's
 *       fixed fields and {@code bio_clone_blkg_association()}, beside its allocation</td></tr>
 *   <tr><td>{@code BVEC_COPY_BYTES}</td><td>0.5 per byte</td><td>{@code bio_clone_bioset()}'s
 *       bvec table: {@code bvec_alloc()} from a slab plus a 16-byte copy per segment through
 *       {@code bio_for_each_segment()} (an iterator step per bvec, ~8 ns per bvec): 0.5 ns per
 *       byte of table</td></tr>
 *   <tr><td>{@code REQUEST}</td><td>1,000</td><td>{@code blk_mq_submit_bio()}: request
 *       allocation, plug and dispatch to the driver: M. Bjorling, J. Axboe et al., "Linux Block
 *       IO: Introducing Multi-queue SSD Access on Multi-core Systems" (SYSTOR 2013): ~1 us of CPU
 *       per I/O in the block layer</td></tr>
 *   <tr><td>{@code IRQ}</td><td>2,000</td><td>a completion interrupt: entry, driver completion,
 *       {@code blk_mq_complete_request()} and the end_io softirq: 1-3 us (the same paper, and
 *       the interrupt-coalescing literature); the bio's own end_io work is charged by its
 *       scheduling points</td></tr>
 *   <tr><td>{@code TASK_WORK}</td><td>200</td><td>one {@code task_work_run()} callback (a few
 *       hundred instructions around the callback)</td></tr>
 *   <tr><td>{@code URING_ENTRY}</td><td>100</td><td>one SQE read or CQE written: J. Axboe,
 *       "Efficient IO with io_uring" (2019): a few hundred instructions per request on the ring
 *       side</td></tr>
 *   <tr><td>{@code CSUM_PAGE}</td><td>1,400</td><td>crc32c of 4 KiB with the SSE4.2
 *       {@code crc32} instruction at ~3 bytes per cycle (Intel, "Fast CRC Computation for iSCSI
 *       Polynomial Using CRC32 Instruction", 2011): ~1,400 cycles; ~470 ns at 3 GHz; kept at
 *       1,400 ns for btrfs' per-page lookup of the expected sum</td></tr>
 * </table>
 *
 * <p>Scheduling points by kind: every point is one atomic primitive (a bit operation, an atomic or
 * refcount operation, a spin_lock or spin_unlock, a wait-queue list update), and all of them cost
 * {@code point}; the kinds that do more carry their extra cost separately: {@code try_to_wake_up()}
 * adds {@code wakeUp} (and {@code wakeLatency} to the woken task), {@code schedule()} away from a
 * task costs the next task's CPU a {@code contextSwitch}, a contended spinlock costs the spin, and
 * {@code task_work_run()} adds {@code TASK_WORK} per callback. A finer split (a spin_unlock cheaper
 * than a cmpxchg) is below what the sources resolve.
 *
 * <p>Immutable; {@link #scaled} makes the sensitivity table's variants.
 */
public final class CostModel {
    /** Names of the constants, in table order: the keys of {@link #values()} and {@link #scaled}. */
    public static final String POINT = "point";
    public static final String CONTEXT_SWITCH = "contextSwitch";
    public static final String WAKE_UP = "wakeUp";
    public static final String WAKE_LATENCY = "wakeLatency";
    public static final String THREAD_CREATE = "threadCreate";

    private final ImmutableMap<String, Double> values;

    private CostModel(Map<String, Double> values) {
        this.values = ImmutableMap.copyOf(values);
    }

    /** The cost model of the table above. */
    public static CostModel standard() {
        Map<String, Double> v = new LinkedHashMap<>();
        v.put(POINT, 20.0);
        v.put(CONTEXT_SWITCH, 1_500.0);
        v.put(WAKE_UP, 1_000.0);
        v.put(WAKE_LATENCY, 5_000.0);
        v.put(THREAD_CREATE, 50_000.0);
        v.put(Work.SYSCALL.name(), 100.0);
        v.put(Work.COPY_BYTES.name(), 0.1);
        v.put(Work.PAGE_CACHE_ADD.name(), 500.0);
        v.put(Work.BIO_ALLOC.name(), 200.0);
        v.put(Work.BIO_ADD_PAGE.name(), 50.0);
        v.put(Work.BIO_CLONE.name(), 150.0);
        v.put(Work.BVEC_COPY_BYTES.name(), 0.5);
        v.put(Work.REQUEST.name(), 1_000.0);
        v.put(Work.IRQ.name(), 2_000.0);
        v.put(Work.TASK_WORK.name(), 200.0);
        v.put(Work.URING_ENTRY.name(), 100.0);
        v.put(Work.CSUM_PAGE.name(), 1_400.0);
        return new CostModel(v);
    }

    /** Every constant by name, in table order. */
    public ImmutableMap<String, Double> values() {
        return values;
    }

    /** A copy with constant {@code name} multiplied by {@code factor}. */
    public CostModel scaled(String name, double factor) {
        if (!values.containsKey(name)) {
            throw new IllegalArgumentException("no cost constant " + name + " (one of " + values.keySet() + ")");
        }
        Map<String, Double> v = new LinkedHashMap<>(values);
        v.put(name, values.get(name) * factor);
        return new CostModel(v);
    }

    double get(String name) {
        return values.get(name);
    }

    /** The cost of one unit of {@code work}, in ns. */
    double perUnit(Work work) {
        return values.get(work.name());
    }
}
