package kmodel.sim;

import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Function;
import kmodel.kernel.sched.Strategy;
import kmodel.kernel.sched.Task;
import kmodel.kernel.sched.Timing;
import kmodel.kernel.sched.Work;

/**
 * The virtual-time strategy: a conservative discrete-event simulation on the deterministic
 * runtime. Every task has a clock; at each scheduling point the runtime asks {@link #pickTask}
 * and the task whose clock is earliest runs (ties: the current task, then the lowest id), so the
 * model's steps happen in the order of their virtual start times. Each step charges the
 * {@link CostModel}'s cost of the primitive it is about to do, plus the {@link Work} the model
 * reported, on one of {@code nrCpus} CPUs: the task keeps its last CPU when that CPU is free at
 * its clock, else takes the CPU that frees first and waits for it; a task pays a context switch
 * when it runs on a CPU that last ran another task, or after it slept (it is switched in again,
 * from another task or the idle task); an interrupt task pays none and leaves the CPU's task as it
 * was (an interrupt returns to what it interrupted). A wake-up costs the waker CPU
 * and moves the woken task's clock to the waker's plus the wake-up latency; a new task starts at
 * its creator's clock (a kernel thread costs its creator {@code threadCreate}); a device request
 * completes after the device's {@link DeviceProfile} service time, and its interrupt task runs no
 * earlier.
 *
 * <h2>Coarse, and said so</h2>
 * <ul>
 *   <li>A step's cost is charged at its start; a task picked at clock t may find its CPU busy and
 *       run later than a task it was ordered before (steps are ordered by the task's clock, not by
 *       CPU availability). With more CPUs than runnable tasks (the seeds' machines) this never
 *       happens.</li>
 *   <li>A spinlock is a serialised resource: a task that takes it before (in virtual time) its
 *       last holder released it spins, as CPU time, until the release. The cache-line traffic of
 *       contended locks is not charged beyond that.</li>
 *   <li>No cache effects, no NUMA, no frequency scaling, no timer ticks, no preemption of a
 *       running task by the kernel's scheduler (tasks run until they sleep or a point picks an
 *       earlier task).</li>
 * </ul>
 * Deterministic: the same program, configuration and cost model give the same clocks.
 */
final class VirtualTime implements Strategy, Timing {
    private final CostModel cost;
    private final double pointNs;
    private final double switchNs;
    private final double wakeUpNs;
    private final double wakeLatencyNs;
    private final double threadCreateNs;
    private final double[] workNs = new double[Work.values().length];
    private final int nrCpus;
    private final Function<Object, DeviceProfile> profiles;

    /** Per task id: its clock, CPU time, last CPU (-1 none), whether an interrupt. */
    private long[] clock = new long[64];
    private long[] cpuNs = new long[64];
    private int[] lastCpu = new int[64];
    /** Fractions of a nanosecond of each task not yet charged (per-byte costs). */
    private double[] carry = new double[64];
    /** Whether the task slept since it last ran: it is switched in again wherever it runs next. */
    private boolean[] sleptSinceRun = new boolean[64];
    private final long[] cpuFree;
    private final int[] cpuLast;
    private final Map<Object, Device> devices = new IdentityHashMap<>();
    /** Per spinlock: the virtual time its last holder released it. */
    private final Map<Object, Long> released = new IdentityHashMap<>();

    /** CPU time of all tasks, context switches (a CPU changed task), wake-ups of sleepers, idle CPU time is the rest. */
    long busyNs;
    long switches;
    long wakeUps;
    long threads;
    long maxClock;
    /** CPU time spent spinning on spinlocks held by others. */
    long spinNs;
    /** CPU time of interrupt tasks (completions), part of {@link #busyNs}. */
    long irqNs;

    /** A device's queue and link. */
    private static final class Device {
        final DeviceProfile p;
        final long[] slotFree;
        long linkFree;
        long requests;
        long bytes;

        Device(DeviceProfile p) {
            this.p = p;
            this.slotFree = new long[p.queueDepth];
        }
    }

    VirtualTime(CostModel cost, int nrCpus, Function<Object, DeviceProfile> profiles) {
        this.cost = cost;
        this.pointNs = cost.get(CostModel.POINT);
        this.switchNs = cost.get(CostModel.CONTEXT_SWITCH);
        this.wakeUpNs = cost.get(CostModel.WAKE_UP);
        this.wakeLatencyNs = cost.get(CostModel.WAKE_LATENCY);
        this.threadCreateNs = cost.get(CostModel.THREAD_CREATE);
        for (Work w : Work.values()) {
            workNs[w.ordinal()] = cost.perUnit(w);
        }
        this.nrCpus = nrCpus;
        this.cpuFree = new long[nrCpus];
        this.cpuLast = new int[nrCpus];
        this.profiles = profiles;
    }

    CostModel cost() {
        return cost;
    }

    private void ensure(int id) {
        if (id >= clock.length) {
            int n = Math.max(id + 1, clock.length * 2);
            clock = Arrays.copyOf(clock, n);
            cpuNs = Arrays.copyOf(cpuNs, n);
            carry = Arrays.copyOf(carry, n);
            sleptSinceRun = Arrays.copyOf(sleptSinceRun, n);
            int old = lastCpu.length;
            lastCpu = Arrays.copyOf(lastCpu, n);
            Arrays.fill(lastCpu, old, n, -1);
        }
    }

    /** The CPU task {@code id} runs on at {@code now}: its last one if free by then, else the one that frees first. */
    private int cpuFor(int id, long now) {
        int k = lastCpu[id];
        if (k < 0 || cpuFree[k] > now) {
            k = 0;
            for (int i = 1; i < nrCpus; i++) {
                if (cpuFree[i] < cpuFree[k]) {
                    k = i;
                }
            }
        }
        return k;
    }

    /**
     * Task {@code t} spins until {@code until}: its CPU is busy from its clock (or when the CPU
     * frees) to {@code until}, and its clock is then {@code until} (or later, if it had to wait
     * for a CPU past it).
     */
    private void spinUntil(Task t, long until) {
        int id = t.id();
        long now = clock[id];
        if (until <= now) {
            return;
        }
        int k = cpuFor(id, now);
        long start = Math.max(now, cpuFree[k]);
        long spin = Math.max(start, until) - start;
        spinNs += spin;
        occupy(t, k, start, spin);
    }

    /**
     * Task {@code t} runs on CPU {@code k} from {@code start} for {@code ns}, plus a context switch
     * when the CPU last ran another task: the CPU, the task's clock and the counters move on.
     */
    private void occupy(Task t, int k, long start, long ns) {
        int id = t.id();
        long run = ns;
        boolean irq = t.inInterrupt();
        if (!irq && (cpuLast[k] != id || sleptSinceRun[id])) {
            run += (long) switchNs;
            switches++;
            sleptSinceRun[id] = false;
        }
        long end = start + run;
        cpuFree[k] = end;
        if (!irq) {
            cpuLast[k] = id;
        }
        lastCpu[id] = k;
        clock[id] = end;
        cpuNs[id] += run;
        busyNs += run;
        if (irq) {
            irqNs += run;
        }
        if (end > maxClock) {
            maxClock = end;
        }
    }

    /** Runs {@code ns} of CPU work of task {@code t} from its clock on. */
    private void charge(Task t, double ns) {
        int id = t.id();
        ensure(id);
        double exact = ns + carry[id];
        long whole = (long) exact;
        carry[id] = exact - whole;
        if (whole <= 0) {
            return;
        }
        long now = clock[id];
        int k = cpuFor(id, now);
        occupy(t, k, Math.max(now, cpuFree[k]), whole);
    }

    // ------------------------------------------------------------------ Timing

    /** A new execution: called by the runtime before boot (Timing) and again after it (Strategy); boot's tasks start at 0 either way. */
    @Override
    public void beginExecution() {
        Arrays.fill(clock, 0);
        Arrays.fill(cpuNs, 0);
        Arrays.fill(carry, 0);
        Arrays.fill(sleptSinceRun, false);
        Arrays.fill(lastCpu, -1);
        Arrays.fill(cpuFree, 0);
        Arrays.fill(cpuLast, -1);
        devices.clear();
        released.clear();
        spinNs = 0;
        irqNs = 0;
        busyNs = 0;
        switches = 0;
        wakeUps = 0;
        threads = 0;
        maxClock = 0;
    }

    @Override
    public void point(Task t, String what) {
        charge(t, pointNs);
    }

    @Override
    public void work(Task t, Work work, long units) {
        charge(t, workNs[work.ordinal()] * units);
    }

    @Override
    public void blocked(Task t) {
        // The switch is charged when the task runs again (occupy()): from the idle task or another.
        ensure(t.id());
        sleptSinceRun[t.id()] = true;
    }

    @Override
    public void woken(Task waker, Task p) {
        charge(waker, wakeUpNs);
        ensure(p.id());
        wakeUps++;
        long at = clock[waker.id()] + (long) wakeLatencyNs;
        if (at > clock[p.id()]) {
            clock[p.id()] = at;
        }
    }

    @Override
    public void spawned(Task parent, Task child) {
        ensure(child.id());
        clock[child.id()] = parent == null ? 0 : clock[parent.id()];
        lastCpu[child.id()] = -1;
        if (parent != null && !child.inInterrupt()) {
            charge(parent, threadCreateNs);
            clock[child.id()] = clock[parent.id()];
            threads++;
        }
    }

    @Override
    public void deviceIo(Task submitter, Task irq, Object device, long bytes, boolean write) {
        Device d = devices.get(device);
        if (d == null) {
            d = new Device(profiles.apply(device));
            devices.put(device, d);
        }
        d.requests++;
        d.bytes += bytes;
        ensure(irq.id());
        if (d.p.synchronous) {
            charge(submitter, d.p.commandNs + bytes * d.p.nsPerByte);
            clock[irq.id()] = clock[submitter.id()];
            return;
        }
        long now = clock[submitter.id()];
        int s = 0;
        for (int i = 1; i < d.slotFree.length; i++) {
            if (d.slotFree[i] < d.slotFree[s]) {
                s = i;
            }
        }
        long start = Math.max(now, d.slotFree[s]);
        long xfer = Math.max(start + d.p.latencyNs, d.linkFree);
        long done = xfer + d.p.commandNs + (long) (bytes * d.p.nsPerByte);
        d.linkFree = done;
        d.slotFree[s] = done;
        clock[irq.id()] = done;
    }

    @Override
    public void lockAcquired(Task t, Object lock) {
        Long free = released.get(lock);
        ensure(t.id());
        if (free != null) {
            spinUntil(t, free);
        }
    }

    @Override
    public void lockReleased(Task t, Object lock) {
        released.put(lock, clock[t.id()]);
    }

    @Override
    public long now(Task t) {
        ensure(t.id());
        return clock[t.id()];
    }

    /** CPU time of task {@code id} so far. */
    long cpuNs(int id) {
        return id < cpuNs.length ? cpuNs[id] : 0;
    }

    // ------------------------------------------------------------------ Strategy

    @Override
    public int pickTask(int[] ids, int n, int current) {
        int best = -1;
        long bestClock = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            int id = ids[i];
            ensure(id);
            long c = clock[id];
            if (c < bestClock || (c == bestClock && id == current)) {
                best = id;
                bestClock = c;
            }
        }
        return best;
    }

    @Override
    public int pickValue(int n) {
        return 0;
    }
}
