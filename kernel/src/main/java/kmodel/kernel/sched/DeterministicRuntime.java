package kmodel.kernel.sched;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Kernel;
import kmodel.kernel.Violation;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.lifetime.Lifetimes;
import kmodel.kernel.locking.Spinlock;
import kmodel.kernel.MemoryModel;
import kmodel.kernel.lkmm.Fence;
import kmodel.kernel.lkmm.LkmmMemory;
import kmodel.kernel.lkmm.LkmmTask;
import kmodel.kernel.lkmm.Message;
import kmodel.kernel.lkmm.Order;

/**
 * The deterministic runtime: every task is a Java thread, exactly one of them runs at a time, and
 * at every scheduling point a {@link Strategy} picks who runs next. Given the same program,
 * configuration and strategy decisions, an execution is the same, event for event.
 *
 * <h2>Implementation notes</h2>
 *
 * <h3>The baton</h3>
 * Control passes by writing {@link #turn} (volatile: it orders everything the previous holder
 * did before everything the next one does) and unparking the new holder; a holder parks in a
 * loop until {@code turn} names it, because unpark permits leak across executions. Tasks run on
 * virtual threads when the JVM has them (JDK 21+, looked up by reflection so the bytecode stays
 * at release 17): a hand-off then costs ~0.3 us on one carrier, against ~25 us between platform
 * threads. No spinning: with one carrier a spinner would hold the only carrier.
 *
 * <h3>Threads are reused</h3>
 * Task {@code i} of every execution runs on worker thread {@code i}, created the first time an
 * execution has an {@code i}-th task to run.
 *
 * <h3>Ending and aborting</h3>
 * An execution ends when no task is runnable (all exited, or the rest sleep: quiescence), when a
 * {@link Violation} is thrown, or when the step bound is hit. The controller (the thread that
 * called {@link #execute}) then unwinds each unfinished task one at a time by handing it the baton
 * with {@code aborting} set: its park returns and it throws a preallocated stackless error.
 *
 * <h3>Spinlocks</h3>
 * A task that finds a spinlock held does not spin: it leaves the run queue ({@code SPINNING})
 * and becomes runnable again when the lock is free. A spin is therefore one choice, not a loop.
 *
 * <h3>Memory model</h3>
 * Under {@link MemoryModel#SC} (the default) nothing below applies and an execution is what it
 * always was. Under {@link MemoryModel#LKMM} each execution has an {@link LkmmMemory}: every
 * object a primitive loads or stores ({@link #loadLong}, {@link #storeLong}, {@link #rmwLong},
 * the reference forms, the locks) is a location, numbered by identity on first touch in the
 * execution, its initial store the object's Java field at that moment (what boot wrote); each
 * task has an {@link LkmmTask} view (a task created by a running task starts with its creator's
 * view). A load reads any store its view allows: a data choice ({@link #choose}), option 0 the
 * coherence-last store, so the first execution of a search is the SC one. Stores go at the end
 * of modification order (coherence order = the order stores execute in; docs/memory-model.md
 * says what that leaves out), so the Java field always holds the coherence-last value and
 * everything that peeks at it (end checks, reports) reads what it did under SC. An RMW reads the
 * coherence-last store (atomicity, given stores at the end). Strong fences ({@code smp_mb()},
 * fully ordered RMWs, {@code set_current_state()}, {@code try_to_wake_up()}, {@code __schedule()})
 * read and write the memory's global fence view: for partial-order reduction each such step
 * writes {@link #FENCE_ORDER}, so two of them never commute.
 */
public final class DeterministicRuntime implements Runtime, AutoCloseable {

    /** Unwinds a task when its execution is over. Stackless and preallocated. */
    static final class AbortExecution extends Error {
        private static final long serialVersionUID = 1L;

        AbortExecution() {
            super("execution aborted", null, false, false);
        }
    }

    private static final AbortExecution ABORT = new AbortExecution();
    private static final ThreadFactory FACTORY = threadFactory();
    private static final boolean VIRTUAL = FACTORY != null;

    /** A thread that can hold the baton. */
    private static class Holder {
        Thread thread;
    }

    /** The thread that runs task {@code index} of every execution. */
    private static final class Worker extends Holder {
        final int index;
        Task task;
        volatile boolean shutdown;

        Worker(int index) {
            this.index = index;
        }
    }

    private final Holder controller = new Holder();
    private final ArrayList<Worker> workers = new ArrayList<>();
    /** Who may run. Written only by the holder, right before it unparks the next one. */
    private volatile Holder turn;

    // Per execution. Only the baton holder reads or writes these.
    private final ArrayList<Task> tasks = new ArrayList<>();
    private final Task boot = new Task(-1, "boot", "boot", false, false, null);
    private int[] ids = new int[8];
    private Task current;
    /** The task whose {@link #spinYield} is the decision being made, or null: see there. */
    private Task yielding;
    private boolean running;
    private boolean aborting;
    private Strategy strategy;
    /** The virtual-time simulation's hooks, or null (checking). */
    private Timing timing;
    /**
     * The tasks not yet exited, in ascending id order: {@link #pickNext} walks only these, so a
     * long simulation that spawned thousands of completion interrupts does not walk them all at
     * every point.
     */
    private final ArrayList<Task> live = new ArrayList<>();
    private Kconfig config = Kconfig.defaults();
    private Lifetimes lifetimes = new Lifetimes();
    private long steps;
    /**
     * Iterations of the primitives' own loops in this execution ({@link #loopStep}): they count
     * against {@link #stepLimit} together with {@link #steps}, but are not scheduling points and
     * do not number diagram rows.
     */
    private long loopSteps;
    private long stepLimit;
    private Violation violation;
    private Throwable oops;
    private String stepBound;
    private ArrayList<TraceEvent> trace;
    private boolean detail;
    /**
     * The strategy reduces by partial order ({@link Strategy#observesSteps()}): every decision
     * goes to it, and {@link #footprint} collects what the running step acts on. False for plain
     * DFS, PCT, random and replay, which then pay nothing for it.
     */
    private boolean observe;
    private long[] footprint = new long[16];
    private int footprintLen;
    /**
     * Names of objects a step acted on that carry no {@link Footprinted#uid} (created outside an
     * execution, or not a model primitive): by identity, kept across executions so that they are
     * stable. Only with {@link #observe}.
     */
    private final IdentityHashMap<Object, Long> unnamed = new IdentityHashMap<>();
    /**
     * Names of values that carry their role in their value ({@link #namedByValue}: a
     * {@code String}, a boxed number, an enum constant, a {@code Class}): by equality, so that the
     * fresh {@code String} an execution builds for the same role gets the same name each time,
     * and none of them counts against {@link #MAX_UNNAMED}.
     */
    private final java.util.HashMap<Object, Long> byValue = new java.util.HashMap<>();
    /** The last name given in {@link #unnamed} or {@link #byValue}. */
    private long lastUnnamed;
    /** Executions run by this runtime, for the limit's report. */
    private long executions;
    /** The internal limit this execution hit, thrown by {@link #execute} once the execution is unwound. */
    private ExplorationLimitException limitHit;
    /** Names of tasks, and of the task list itself (spawning appends to it: spawns never commute). */
    private static final long TASK_UID_BASE = -(1L << 40);
    private static final long TASK_LIST_UID = -(1L << 41);
    /**
     * How many objects without a {@link Footprinted} name a reducing search names by identity
     * (kept across executions, so that names are stable): {@code -Dkmodel.maxUnnamed=N} changes it.
     */
    static final int MAX_UNNAMED = Integer.getInteger("kmodel.maxUnnamed", 4096);
    /** The footprint audit's sink for this execution ({@link FieldAudit}), or null: only with {@link #observe}. */
    private FieldAudit.Sink audit;
    /** The observing strategy stopped this execution as redundant (sleep-set blocked). */
    private boolean pruned;

    /** This execution's LKMM memory under {@code --memory-model lkmm}; null under SC. */
    private LkmmMemory mem;
    /** The location of each object the memory has seen in this execution, by identity. */
    private final IdentityHashMap<Object, Integer> locations = new IdentityHashMap<>();
    /** Stores to the memory in this execution (numbers its messages). */
    private int storeEvents;
    /**
     * What a strong fence acts on in a footprint: the memory's global fence view, which every
     * strong fence reads and publishes ({@link LkmmMemory#fence}); a value, so named by equality.
     */
    static final String FENCE_ORDER = "lkmm: the strong fences' order";

    /**
     * Non-null when this runtime is bound to its own threads ({@link #boundToItsThreads()}): the
     * controller's binding before this runtime's, restored by {@link #close()}.
     */
    private final Runtime[] boundOver;
    /** {@link #close()} has undone the binding. */
    private boolean unbound;

    /** Creates a runtime driven from the calling thread (the controller), installed for the whole JVM per execution. */
    public DeterministicRuntime() {
        controller.thread = Thread.currentThread();
        boundOver = null;
    }

    private DeterministicRuntime(boolean bound) {
        controller.thread = Thread.currentThread();
        Kernel.bindingOpened(this);
        boundOver = new Runtime[] {Kernel.bindThread(this)};
    }

    /**
     * A runtime that model code reaches through its own threads only (the controller, which is the
     * calling thread, and its task threads: {@link Kernel#bindThread}), so that several can run at
     * once, one per exploring thread ({@code --jobs N}). {@link #close()} unbinds it.
     */
    public static DeterministicRuntime boundToItsThreads() {
        return new DeterministicRuntime(true);
    }

    /** Whether tasks run on virtual threads (JDK 21+). */
    public static boolean virtualThreads() {
        return VIRTUAL;
    }

    /**
     * Runs {@code body} on a fresh virtual thread (platform thread before JDK 21) and returns its
     * result: the explorer's own loop must run on a virtual thread too, or every hand-off to it
     * costs a platform-thread wake-up.
     */
    public static <T> T callOnRuntimeThread(Supplier<T> body) {
        final Object[] result = new Object[1];
        final Throwable[] failure = new Throwable[1];
        Runnable r = () -> {
            try {
                result[0] = body.get();
            } catch (Throwable t) {
                failure[0] = t;
            }
        };
        Thread t = VIRTUAL ? FACTORY.newThread(r) : new Thread(r, "kmodel-explorer");
        t.start();
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (failure[0] instanceof RuntimeException) {
            throw (RuntimeException) failure[0];
        }
        if (failure[0] instanceof Error) {
            throw (Error) failure[0];
        }
        if (failure[0] != null) {
            throw new IllegalStateException(failure[0]);
        }
        @SuppressWarnings("unchecked")
        T value = (T) result[0];
        return value;
    }

    private static ThreadFactory threadFactory() {
        if (Boolean.getBoolean("kmodel.platformThreads")) {
            return null;
        }
        try {
            Method ofVirtual = Thread.class.getMethod("ofVirtual");
            Object builder = ofVirtual.invoke(null);
            // The builder's own class is not accessible: look factory() up on the public interface.
            Method factory = Class.forName("java.lang.Thread$Builder").getMethod("factory");
            return (ThreadFactory) factory.invoke(builder);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    // ------------------------------------------------------------------ executions

    /**
     * Runs one execution of {@code program} from scratch under {@code strategy}.
     *
     * @param stepLimit scheduling points after which the execution is stopped (and reported as
     *     hitting the bound, not as a violation)
     * @param tracing record events for a counterexample diagram
     * @param everyPoint with tracing, also record every scheduling point
     */
    public ExecutionResult execute(Program program, Strategy strategy, Kconfig config, long stepLimit,
            boolean tracing, boolean everyPoint) {
        if (Thread.currentThread() != controller.thread) {
            throw new IllegalStateException("execute() must be called from the thread that created the runtime");
        }
        this.strategy = strategy;
        this.config = config;
        this.stepLimit = stepLimit;
        this.trace = tracing ? new ArrayList<>() : null;
        this.detail = tracing && everyPoint;
        this.observe = strategy.observesSteps();
        this.audit = observe ? FieldAudit.sink() : null;
        this.pruned = false;
        this.footprintLen = 0;
        this.limitHit = null;
        executions++;
        tasks.clear();
        live.clear();
        if (timing != null) {
            timing.beginExecution();
        }
        steps = 0;
        loopSteps = 0;
        violation = null;
        oops = null;
        stepBound = null;
        yielding = null;
        aborting = false;
        running = false;
        current = boot;
        boot.locksHeld = 0;
        boot.allocs = 0;
        mem = config.memoryModel() == MemoryModel.LKMM ? new LkmmMemory() : null;
        locations.clear();
        plainLocs.clear();
        plainStamps.clear();
        storeEvents = 0;
        boot.lkmm = mem != null ? new LkmmTask() : null;
        boot.spinLoads.clear();
        Runtime prev = boundOver == null ? Kernel.install(this) : null;
        lifetimes = new Lifetimes();
        lifetimes.activate();
        if (observe) {
            lifetimes.recordAccessesTo(this);
        }
        String outcome = null;
        try {
            try {
                program.boot(this);
            } catch (Violation v) {
                setViolation(v, null);
            }
            if (violation == null) {
                running = true;
                if (audit != null) {
                    audit.beginExecution();
                }
                strategy.beginExecution();
                Task first = pickNext(null);
                if (first != null) {
                    current = first;
                    transfer(controller, workerFor(first));
                }
                running = false;
                current = boot;
                if (violation == null && stepBound == null && !pruned) {
                    checkQuiescence();
                }
                abortRemaining();
                current = boot;
                if (violation == null && stepBound == null && !pruned) {
                    try {
                        outcome = program.finish();
                        lifetimes.checkLeaks();
                    } catch (Violation v) {
                        setViolation(v, null);
                    }
                }
            }
        } finally {
            running = false;
            lifetimes.deactivate();
            if (boundOver == null) {
                Kernel.install(prev);
            }
        }
        if (limitHit != null) {
            throw limitHit;
        }
        if (audit != null && audit.finding() != null) {
            throw audit.finding();
        }
        List<TraceEvent> events = trace != null ? Collections.unmodifiableList(trace) : Collections.emptyList();
        return new ExecutionResult(violation, stepBound, steps, events, outcome, oops, pruned);
    }

    /** Stops every worker thread. */
    @Override
    public void close() {
        for (Worker w : workers) {
            w.shutdown = true;
            turn = w;
            LockSupport.unpark(w.thread);
            try {
                w.thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        workers.clear();
        if (boundOver != null && !unbound) {
            unbound = true;
            Kernel.bindThread(boundOver[0]);
            Kernel.bindingClosed();
        }
    }

    /**
     * The end-of-run check when no task is runnable. Every task still asleep (a daemon only with
     * task_work pending) or spinning is stuck. If some of them wait in a cycle, each for a lock
     * ({@link LockHolders}) the next one holds, that is a {@code deadlock}, reported with the
     * cycle; otherwise the first stuck task in creation order decides: a sleeper is a
     * {@code missed-wakeup}, a spinner a {@code lock-leak}. The message names every stuck task,
     * what it waits on and, for a lock, who holds it.
     */
    private void checkQuiescence() {
        ArrayList<Task> stuck = new ArrayList<>();
        for (Task t : tasks) {
            if (t.runState == Task.RunState.SLEEPING) {
                if (t.daemon() && t.taskWorks == null) {
                    continue;
                }
                stuck.add(t);
            } else if (t.runState == Task.RunState.SPINNING || t.pendingLock != null) {
                stuck.add(t);
            }
        }
        if (stuck.isEmpty()) {
            return;
        }
        ArrayList<Task> cycle = deadlockCycle(stuck);
        if (cycle != null) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < cycle.size(); i++) {
                Task t = cycle.get(i);
                Task prev = cycle.get((i + cycle.size() - 1) % cycle.size());
                if (i > 0) {
                    sb.append("; ");
                }
                sb.append(t.name()).append(" holds ").append(lockWaitedFor(prev).lockName()).append(", waits for ")
                        .append(lockWaitedFor(t).lockName());
            }
            for (Task t : stuck) {
                if (!cycle.contains(t)) {
                    sb.append("; also stuck: ").append(describeStuck(t));
                }
            }
            setViolation(new Violation(ViolationKind.DEADLOCK, sb.toString(), cycle.get(0).name()), cycle.get(0));
            return;
        }
        Task t = stuck.get(0);
        StringBuilder others = new StringBuilder();
        for (int i = 1; i < stuck.size(); i++) {
            others.append("; also stuck: ").append(describeStuck(stuck.get(i)));
        }
        if (t.runState == Task.RunState.SLEEPING) {
            String on = t.waitingOn != null ? " waiting on " + t.waitingOn : "";
            String work = t.taskWorks != null ? " with task_work pending" : "";
            setViolation(new Violation(ViolationKind.MISSED_WAKEUP, t.name() + " sleeps in "
                    + Task.stateName(t.state) + on + holdersOf(t.waitsFor, t) + work + ", and no task is left to wake it"
                    + others, t.name()), t);
        } else {
            Spinlock l = t.pendingLock != null ? t.pendingLock : (Spinlock) t.spinningOn;
            Task owner = l.owner();
            setViolation(new Violation(ViolationKind.LOCK_LEAK, t.name() + " spins on " + l + " held by "
                    + (owner != null ? owner.name() : "nobody") + ", which can no longer run" + others, t.name()), t);
        }
    }

    /** The lock a stuck task waits to get: its spinlock, or the sleeping lock it named; null if none. */
    private static LockHolders lockWaitedFor(Task t) {
        if (t.pendingLock != null) {
            return t.pendingLock;
        }
        if (t.runState == Task.RunState.SPINNING) {
            return (Spinlock) t.spinningOn;
        }
        return t.waitsFor;
    }

    /**
     * {@code " (L held by a, b)"}, {@code " (L is free)"}, or "" when {@code lock} is null; a
     * holder that has exited, or is the waiter itself, is said to be.
     */
    private static String holdersOf(LockHolders lock, Task waiter) {
        if (lock == null) {
            return "";
        }
        ArrayList<Task> holders = new ArrayList<>();
        lock.addHolders(holders);
        if (holders.isEmpty()) {
            return " (" + lock.lockName() + " is free)";
        }
        StringBuilder sb = new StringBuilder(" (").append(lock.lockName()).append(" held by ");
        for (int i = 0; i < holders.size(); i++) {
            sb.append(i > 0 ? ", " : "").append(holders.get(i).name());
            if (holders.get(i) == waiter) {
                sb.append(" itself");
            } else if (holders.get(i).exited()) {
                sb.append(", which has exited");
            }
        }
        return sb.append(')').toString();
    }

    /** One stuck task, for the list that follows the first one. */
    private static String describeStuck(Task t) {
        if (t.runState == Task.RunState.SLEEPING) {
            return t.name() + " sleeps in " + Task.stateName(t.state)
                    + (t.waitingOn != null ? " waiting on " + t.waitingOn : "") + holdersOf(t.waitsFor, t)
                    + (t.taskWorks != null ? " with task_work pending" : "");
        }
        return t.name() + " spins on " + lockWaitedFor(t) + holdersOf(lockWaitedFor(t), t);
    }

    /**
     * A cycle of stuck tasks, each waiting for a lock the next one holds, starting at the task
     * created first; null if there is none. Depth-first over "waits for a lock held by".
     */
    private static ArrayList<Task> deadlockCycle(List<Task> stuck) {
        for (Task start : stuck) {
            ArrayList<Task> path = new ArrayList<>();
            ArrayList<Task> cycle = findCycle(start, stuck, path);
            if (cycle != null) {
                int first = 0;
                for (int i = 1; i < cycle.size(); i++) {
                    if (cycle.get(i).id() < cycle.get(first).id()) {
                        first = i;
                    }
                }
                ArrayList<Task> rotated = new ArrayList<>();
                for (int i = 0; i < cycle.size(); i++) {
                    rotated.add(cycle.get((first + i) % cycle.size()));
                }
                return rotated;
            }
        }
        return null;
    }

    private static ArrayList<Task> findCycle(Task t, List<Task> stuck, ArrayList<Task> path) {
        int at = path.indexOf(t);
        if (at >= 0) {
            // A task waiting for a lock it holds itself is no cycle of tasks: a broken protocol
            // (a hand-off it did not notice, say), reported as what it is, with "itself".
            return path.size() - at >= 2 ? new ArrayList<>(path.subList(at, path.size())) : null;
        }
        if (!stuck.contains(t)) {
            return null;
        }
        LockHolders lock = lockWaitedFor(t);
        if (lock == null) {
            return null;
        }
        ArrayList<Task> holders = new ArrayList<>();
        lock.addHolders(holders);
        path.add(t);
        for (Task h : holders) {
            ArrayList<Task> c = findCycle(h, stuck, path);
            if (c != null) {
                return c;
            }
        }
        path.remove(path.size() - 1);
        return null;
    }

    private void abortRemaining() {
        aborting = true;
        for (Task t : tasks) {
            if (t.runState == Task.RunState.EXITED) {
                continue;
            }
            if (t.runState == Task.RunState.NEW) {
                t.runState = Task.RunState.EXITED;
                continue;
            }
            current = t;
            transfer(controller, workerFor(t));
        }
        aborting = false;
    }

    private void setViolation(Violation v, Task where) {
        if (violation != null) {
            return;
        }
        violation = v;
        if (trace != null) {
            Task t = where != null ? where : taskNamed(v.task());
            trace.add(new TraceEvent(steps, t != null ? t.name() : "end", t != null ? t.column() : "end",
                    v.kind().label() + ": " + v.getMessage(), TraceEvent.Level.INFO,
                    KernelFunctions.ofThrowable(v.kind() == ViolationKind.OOPS && oops != null ? oops : v)));
        }
    }

    private Task taskNamed(String name) {
        if (name == null) {
            return null;
        }
        for (Task t : tasks) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        return null;
    }

    // ------------------------------------------------------------------ the baton

    private Worker workerFor(Task t) {
        while (workers.size() <= t.id()) {
            Worker w = new Worker(workers.size());
            Runnable loop = () -> workerLoop(w);
            w.thread = VIRTUAL ? FACTORY.newThread(loop) : new Thread(loop, "kmodel-task-" + w.index);
            w.thread.setDaemon(true);
            workers.add(w);
            w.thread.start();
        }
        Worker w = workers.get(t.id());
        w.task = t;
        return w;
    }

    private void handTo(Holder next) {
        turn = next;
        LockSupport.unpark(next.thread);
    }

    private void awaitTurn(Holder me) {
        while (turn != me) {
            LockSupport.park(this);
        }
    }

    private void transfer(Holder me, Holder next) {
        handTo(next);
        awaitTurn(me);
    }

    private void workerLoop(Worker w) {
        if (boundOver != null) {
            Kernel.bindThread(this);
        }
        for (;;) {
            awaitTurn(w);
            if (w.shutdown) {
                return;
            }
            Task t = w.task;
            if (!aborting) {
                t.runState = Task.RunState.RUNNABLE;
                try {
                    t.body.run();
                    Violation leak = TaskExit.lockLeak(t);
                    if (leak != null) {
                        setViolation(leak, t);
                    }
                } catch (AbortExecution e) {
                    // unwound: the execution is over
                } catch (Violation v) {
                    setViolation(v, t);
                } catch (Throwable e) {
                    crashed(t, e);
                }
            }
            t.runState = Task.RunState.EXITED;
            live.remove(t);
            if (!aborting && violation == null && stepBound == null) {
                record(t, "exits", TraceEvent.Level.INFO);
                Task next;
                try {
                    next = pickNext(t);
                } catch (Throwable e) {
                    /*
                     * The strategy failed outside any task's body (a replay schedule that does not
                     * fit): the execution ends with it as its oops, and the baton goes back to the
                     * controller; a worker that died here would leave the controller parked forever.
                     */
                    crashed(t, e);
                    next = null;
                }
                if (next != null) {
                    current = next;
                    handTo(workerFor(next));
                    continue;
                }
            }
            handTo(controller);
        }
    }

    /** {@code e} was thrown on {@code t}'s worker: the execution ends with it as its oops. */
    private void crashed(Task t, Throwable e) {
        oops = e;
        setViolation(new Violation(ViolationKind.OOPS, TaskExit.oopsMessage(t.name(), e), t.name()), t);
    }

    /**
     * Picks who runs next; {@code me} is the current task if it may go on running, else null.
     * Returns null when no task is runnable, or when an observing strategy pruned the execution
     * ({@link #pruned} set).
     */
    private Task pickNext(Task me) {
        if (observe && current != boot) {
            strategy.stepDone(current.id(), footprint, footprintLen);
            if (audit != null) {
                audit.stepDone(current, footprint, footprintLen);
            }
        }
        int n = 0;
        for (int i = 0; i < live.size(); i++) {
            Task t = live.get(i);
            if (enabled(t)) {
                if (n == ids.length) {
                    int[] bigger = new int[n * 2];
                    System.arraycopy(ids, 0, bigger, 0, n);
                    ids = bigger;
                }
                ids[n++] = t.id();
            }
        }
        if (n == 0) {
            return null;
        }
        Task out = null; // spinYield(): the yielder sits out this one decision if anyone else can run
        if (yielding != null && n > 1) {
            int i = 0;
            while (i < n && ids[i] != yielding.id()) {
                i++;
            }
            if (i < n) {
                System.arraycopy(ids, i + 1, ids, i, n - i - 1);
                n--;
                out = yielding;
            }
        }
        yielding = null;
        if (n == 1 && !observe) {
            return tasks.get(ids[0]);
        }
        int cur = me != null && me != out && enabled(me) ? me.id() : -1;
        int pick = strategy.pickTask(ids, n, cur);
        if (pick == Strategy.PRUNE) {
            pruned = true;
            return null;
        }
        Task next = tasks.get(pick);
        if (observe) {
            beginStep(next);
        }
        return next;
    }

    /**
     * The footprint of {@code t}'s next step starts with the object of its scheduling point; with
     * the task itself when the point named none ({@code set_current_state}, {@code schedule}, ...:
     * the task's own state, which wakers and signallers write through points naming the task),
     * when the task starts, and when it resumes from sleep (after the wake-up that names it).
     * Reads of the task's signal and task_work state elsewhere report the task
     * ({@link Sched#signalPending}), so they too are ordered against the writers.
     */
    private void beginStep(Task t) {
        footprintLen = 0;
        footprint[footprintLen++] = t.pendingUid != 0 ? t.pendingUid : (TASK_UID_BASE - t.id()) << 2;
    }

    /** The name of {@code o} in footprints. */
    private long uidOf(Object o) {
        if (o instanceof Footprinted) {
            long uid = ((Footprinted) o).uid;
            if (uid != 0) {
                return uid;
            }
        } else if (o instanceof Task) {
            return TASK_UID_BASE - ((Task) o).id();
        }
        if (namedByValue(o)) {
            Long name = byValue.get(o);
            if (name == null) {
                name = --lastUnnamed;
                byValue.put(o, name);
            }
            return name;
        }
        Long name = unnamed.get(o);
        if (name == null) {
            if (unnamed.size() >= MAX_UNNAMED) {
                limitHit = new ExplorationLimitException("internal limit reached: partial-order reduction names "
                        + "objects that do not extend Footprinted by identity, and execution " + executions
                        + " acted on the " + (MAX_UNNAMED + 1) + "th such object (a " + o.getClass().getName()
                        + ", task " + current.name() + "); an object created anew in each execution gets a new "
                        + "name each time, which also hides it from the sleep sets: make its class extend "
                        + "kmodel.kernel.sched.Footprinted (named by its creator and creation order), or name "
                        + "a value that stands for its role (a String, a boxed number, an enum constant: named "
                        + "by equality), or check with --reduction none; -Dkmodel.maxUnnamed=N raises the limit "
                        + "(now " + MAX_UNNAMED + ")");
                throw limitHit;
            }
            name = --lastUnnamed;
            unnamed.put(o, name);
        }
        return name;
    }

    /**
     * Whether {@code o} is a value whose equality names its role ({@link #byValue}): immutable
     * JDK value classes only, whose {@code equals} cannot reach model code.
     */
    private static boolean namedByValue(Object o) {
        return o instanceof String || o instanceof Integer || o instanceof Long || o instanceof Short
                || o instanceof Byte || o instanceof Character || o instanceof Boolean || o instanceof Enum
                || o instanceof Class;
    }

    @Override
    public void access(Object o) {
        if (!observe || !running || o == null) {
            return;
        }
        accessUid(uidOf(o) << 2 | WRITE);
    }

    @Override
    public void accessRead(Object o) {
        if (!observe || !running || o == null) {
            return;
        }
        accessUid(uidOf(o) << 2 | READ);
    }

    /** Adds an entry ({@code uid << 2 | kind}) to the footprint; a write or acquire replaces a read. */
    private void accessUid(long entry) {
        for (int i = 0; i < footprintLen; i++) {
            if (footprint[i] >> 2 == entry >> 2) {
                if ((footprint[i] & 3) == READ) {
                    footprint[i] = entry;
                }
                return;
            }
        }
        if (footprintLen == footprint.length) {
            long[] bigger = new long[footprintLen * 2];
            System.arraycopy(footprint, 0, bigger, 0, footprintLen);
            footprint = bigger;
        }
        footprint[footprintLen++] = entry;
    }

    @Override
    public long newUid() {
        if (!observe) {
            return 0;
        }
        Task t = current;
        return ((long) (t == boot ? 1 : t.id() + 2) << 32) | ++t.allocs;
    }

    private static boolean enabled(Task t) {
        switch (t.runState) {
            case NEW:
            case RUNNABLE:
                return t.pendingLock == null || t.pendingLock.owner() == null;
            case SPINNING:
                return ((Spinlock) t.spinningOn).owner() == null;
            default:
                return false;
        }
    }

    private void switchTo(Task me, Task next) {
        if (next == me) {
            return;
        }
        current = next;
        transfer(workers.get(me.id()), workerFor(next));
        if (aborting) {
            throw ABORT;
        }
    }

    private void record(Task t, String text, TraceEvent.Level level) {
        if (trace != null && (level == TraceEvent.Level.INFO || detail)) {
            trace.add(new TraceEvent(steps, t.name(), t.column(), text, level, KernelFunctions.ofCurrentStack()));
        }
    }

    // ------------------------------------------------------------------ Runtime

    @Override
    public Task current() {
        return current;
    }

    @Override
    public Kconfig config() {
        return config;
    }

    @Override
    public Lifetimes lifetimes() {
        return lifetimes;
    }

    /** Footprint entry kinds, in the low two bits of an entry ({@link Strategy#stepDone}). */
    static final int WRITE = 0;
    static final int READ = 1;
    static final int ACQUIRE = 2;

    @Override
    public void point(String what, Object obj) {
        point(what, obj, WRITE);
    }

    @Override
    public void pointRead(String what, Object obj) {
        point(what, obj, READ);
    }

    private void point(String what, Object obj, int kind) {
        if (!running) {
            return;
        }
        Task me = current;
        me.steps++;
        if (++steps + loopSteps > stepLimit) {
            stepBound = me.name() + " was still running after " + stepLimit
                    + " scheduling points (an unbounded retry loop? a missing wake-up in a spin?)";
            record(me, "step bound hit", TraceEvent.Level.INFO);
            throw ABORT;
        }
        if (detail) {
            record(me, obj != null ? what + " " + obj : what, TraceEvent.Level.DETAIL);
        }
        if (timing != null) {
            timing.point(me, what);
        }
        if (observe) {
            me.pendingUid = obj != null ? uidOf(obj) << 2 | kind : 0;
        }
        Task next = pickNext(me);
        if (next == null) {
            // pruned: hand the baton back to the controller, which unwinds this task
            transfer(workers.get(me.id()), controller);
            throw ABORT;
        }
        switchTo(me, next);
    }

    /**
     * The fairness rule for busy-wait loops: the running task is left out of the decision at
     * this point whenever another task is runnable, and takes part again in the next one (after
     * that task's step). Sound because the caller's last round was a no-op: from the same state
     * the task would run the same fruitless round again, so an execution in which it goes on
     * here reaches only states one that drops that round reaches too, with no more preemptions
     * (leaving a task out is not a preemption: the switch is forced, as by blocking). What it
     * removes are the executions that spin twice or more before anyone else runs, among them the
     * unfair endless ones, which would otherwise end at the step bound. The argument needs the
     * round to be a no-op as a whole, and it also removes the executions in which another task's
     * step falls inside a round that starts right after a fruitless one; so it assumes that what
     * a round does in between is seen by nobody, or is seen the same inside the fruitless round
     * before it (liburing's round: a read of the CQ tail, and {@code io_uring_enter()}'s context
     * reference taken and dropped around a wait that returns at once).
     *
     * <p>Not applied under a virtual-time simulation ({@link Timing}): its order follows the
     * tasks' clocks, and a spinning task's clock runs ahead of the others', which is fair already.
     */
    @Override
    public void spinYield(String what) {
        if (running && timing == null) {
            yielding = current;
        }
        if (weak()) {
            /*
             * Under lkmm the fairness rule has a second half: stores propagate in finite time. A
             * round that found nothing may have read old stores; the task now reads the latest
             * store of every location it loaded in that round (a relaxed read of each, named in
             * the footprint), so the next round is not the same fruitless round again forever, a
             * poller reading a stale CQ tail at every step to the step bound. It removes only
             * executions in which a spinning CPU never sees a store, which no real CPU (and no
             * liveness argument of the kernel's) allows.
             */
            Task me = current;
            for (Object o : me.spinLoads) {
                Integer loc = locations.get(o);
                if (loc != null && o instanceof Footprinted) { // named in footprints (a list head is not)
                    if (observe) {
                        accessUid(uidOf(o) << 2 | READ);
                    }
                    mem.read(me.lkmm, mem.last(loc), Order.ONCE);
                }
            }
            me.spinLoads.clear();
        }
        point(what, null);
    }

    @Override
    public void loopStep(String what) {
        if (!running) {
            return;
        }
        if (steps + ++loopSteps > stepLimit) {
            Task me = current;
            stepBound = me.name() + " was still running after " + stepLimit + " steps, looping in " + what
                    + " (a corrupted, cyclic list? an endless loop in a primitive?)";
            record(me, "step bound hit in " + what, TraceEvent.Level.INFO);
            throw ABORT;
        }
    }

    @Override
    public void block() {
        Task me = current;
        if (!running) {
            if (aborting) {
                throw ABORT;
            }
            throw new Violation(ViolationKind.BUG_ON, "schedule() called outside a task (boot or end checks)", null);
        }
        me.runState = Task.RunState.SLEEPING;
        me.pendingUid = 0;
        if (timing != null) {
            timing.blocked(me);
        }
        record(me, "sleeps " + Task.stateName(me.state) + (me.waitingOn != null ? " on " + me.waitingOn : ""),
                TraceEvent.Level.INFO);
        Task next = pickNext(null);
        if (next == null) {
            transfer(workers.get(me.id()), controller);
            throw ABORT;
        }
        switchTo(me, next);
    }

    @Override
    public boolean tryToWakeUp(Task p, int mask) {
        point("try_to_wake_up", p);
        if (p != current) {
            /*
             * v5.10: raw_spin_lock_irqsave(&p->pi_lock); smp_mb__after_spinlock(); before the
             * p->state test, "so that CONDITION=1 done by the caller can not be reordered with
             * p->state check below. This pairs with smp_store_mb() in set_current_state()". Only
             * the p == current fast path has no barrier ("we rely on Program-Order guarantees").
             * So a wake-up that calls try_to_wake_up() on another task is a full barrier whether
             * or not it wakes it; memory-barriers.txt promises one only when it wakes a task,
             * which the model meets because a wake_up() that finds its queue empty never calls
             * try_to_wake_up() (it only takes and drops the queue's lock: acquire, release).
             */
            fence(Fence.MB_AFTER_SPINLOCK, "try_to_wake_up");
        }
        if ((p.state & mask) == 0) {
            return false;
        }
        p.state = Task.TASK_RUNNING;
        if (p.runState == Task.RunState.SLEEPING) {
            if (mem != null && running) {
                // the wakee runs again after __schedule()'s rq->lock: it sees what the waker saw
                p.lkmm.wokenBy(current.lkmm);
            }
            p.runState = Task.RunState.RUNNABLE;
            if (timing != null) {
                timing.woken(current, p);
            }
        }
        record(current, "wakes " + p.name(), TraceEvent.Level.INFO);
        return true;
    }

    @Override
    public void spinLock(Spinlock lock) {
        Task me = current;
        if (running && lock.owner() == me) {
            throw new Violation(ViolationKind.BUG_ON, "recursive spin_lock(" + lock + "): AA deadlock", me.name());
        }
        // A task is not scheduled at spin_lock while the lock is held (see enabled()): a failed
        // attempt would be a step of its own, and every contended attempt an interleaving (and,
        // for partial-order reduction, a Mazurkiewicz trace) of its own, for nothing anyone can
        // observe. The loop below is left for a lock taken between the point and the acquire,
        // which one-task-at-a-time execution never does.
        me.pendingLock = running ? lock : null;
        point("spin_lock", lock, ACQUIRE);
        me.pendingLock = null;
        while (lock.owner() != null) {
            if (!running) {
                if (aborting) {
                    throw ABORT;
                }
                throw new Violation(ViolationKind.BUG_ON, "spin_lock(" + lock + ") held during boot", null);
            }
            if (lock.owner() == me) {
                throw new Violation(ViolationKind.BUG_ON, "recursive spin_lock(" + lock + "): AA deadlock", me.name());
            }
            me.runState = Task.RunState.SPINNING;
            me.spinningOn = lock;
            if (observe) {
                me.pendingUid = uidOf(lock) << 2 | ACQUIRE;
            }
            Task next = pickNext(null);
            if (next == null) {
                transfer(workers.get(me.id()), controller);
                throw ABORT;
            }
            switchTo(me, next);
            me.runState = Task.RunState.RUNNABLE;
            me.spinningOn = null;
        }
        lock.acquiredBy(me);
        if (mem != null && running) {
            // spin_lock(): an ACQUIRE RMW of the lock word, which reads the last unlock (the
            // handoff joins the last holder's released view: LkmmMemory.lock)
            int loc = location(lock, 0, null);
            mem.lock(me.lkmm, mem.last(loc), me.id(), ++storeEvents);
        }
        me.locksHeld++;
        if (timing != null && running) {
            timing.lockAcquired(me, lock);
        }
    }

    @Override
    public void spinUnlock(Spinlock lock) {
        point("spin_unlock", lock);
        Task me = current;
        if (lock.owner() != me) {
            throw new Violation(ViolationKind.BUG_ON, "spin_unlock(" + lock + ") by " + me.name() + ", which does not hold it",
                    me.name());
        }
        lock.acquiredBy(null);
        if (mem != null && running) {
            // spin_unlock(): a RELEASE store of 0
            mem.unlock(me.lkmm, location(lock, 1, null), me.id(), ++storeEvents);
        }
        me.locksHeld--;
        if (timing != null && running) {
            timing.lockReleased(me, lock);
        }
    }

    // ------------------------------------------------------------------ memory model (lkmm)

    /** The location of {@code o} in this execution's memory, added with {@code initial}/{@code ref} on first touch. */
    private int location(Object o, long initial, Object ref) {
        Integer loc = locations.get(o);
        if (loc == null) {
            loc = mem.location(String.valueOf(o), initial, ref);
            locations.put(o, loc);
        }
        return loc;
    }

    /** Whether the running task's accesses go through the LKMM memory. */
    private boolean weak() {
        return mem != null && running;
    }

    /**
     * A plain access that is not a scheduling point ({@code Shared.plain()}, {@code setPlain()}):
     * under lkmm its read is a choice, so its step must name the object for the reduction. (A
     * {@code Plain<T>} field is not footprinted: its accesses are ordered by the lock that protects
     * them, whose acquire is in the footprint, so its view leaves one store to read; an access the
     * lock does not order is a data race, which the data-race check reports.)
     */
    private void plainFootprint(Object o, Order order, boolean write) {
        if (observe && order == Order.PLAIN && o instanceof Footprinted) {
            accessUid(uidOf(o) << 2 | (write ? WRITE : READ));
        }
    }

    /**
     * A strong fence's footprint: it reads the global fence view ({@link #FENCE_ORDER}), and writes
     * it when it publishes something the view does not cover yet ({@link LkmmMemory#fencePublishes}).
     */
    private void strongFence(boolean alone) {
        if (observe) {
            // a fully ordered access fences after its own access too, which publishes that access:
            // only a fence standing alone may be a read
            accessUid(uidOf(FENCE_ORDER) << 2 | (!alone || mem.fencePublishes(current.lkmm) ? WRITE : READ));
        }
    }

    /**
     * The store a load by the running task of {@code loc} reads: a data choice among the stores
     * its view allows, newest first (option 0 is what SC reads).
     */
    private Message pickRead(Object o, int loc, Order order) {
        LkmmTask t = current.lkmm;
        if (current.spinLoads.size() < 64 && !current.spinLoads.contains(o)) {
            current.spinLoads.add(o);
        }
        List<Message> readable = mem.readable(t, loc, null);
        int n = readable.size();
        Message m = readable.get(n - 1);
        if (n > 1) {
            int v = strategy.pickValue(n);
            m = readable.get(n - 1 - v);
            if (trace != null) {
                Message last = readable.get(n - 1);
                // the diagram shows which store each load read where it had a choice
                record(current, "reads " + o + " = " + describe(m) + (m == last ? ", the latest of " + n
                        : ", stale: the latest is " + describe(last)), TraceEvent.Level.INFO);
            }
        }
        if (order == Order.FULL) {
            strongFence(false);
        }
        mem.read(t, m, order == Order.PLAIN ? Order.ONCE : order);
        return m;
    }

    /** A store for diagrams: its value and who wrote it. */
    private String describe(Message m) {
        Object v = m.ref != null ? m.ref : (Object) m.value;
        String by = m.task < 0 ? "init" : m.task < tasks.size() ? tasks.get(m.task).name() : "task " + m.task;
        return v + " (" + by + ")";
    }

    /** The latest store the memory holds must be the Java field's value: every store goes through it. */
    private void checkLatest(Object o, int loc, long latest, Object ref, boolean isRef) {
        Message last = mem.last(loc);
        if (isRef ? last.ref != ref : last.value != latest) {
            throw new IllegalStateException("--memory-model lkmm: " + o + " was changed without going through the "
                    + "memory model (its field holds " + (isRef ? ref : latest) + ", its latest store " + describe(last)
                    + "): a store path that does not call Runtime.store*/rmw*");
        }
    }

    @Override
    public long loadLong(Object o, long latest, Order order) {
        if (!weak()) {
            return latest;
        }
        plainFootprint(o, order, false);
        int loc = location(o, latest, null);
        checkLatest(o, loc, latest, null, false);
        return pickRead(o, loc, order).value;
    }

    @Override
    public Object loadRef(Object o, Object latest, Order order) {
        if (!weak()) {
            return latest;
        }
        plainFootprint(o, order, false);
        int loc = location(o, 0, latest);
        checkLatest(o, loc, 0, latest, true);
        return pickRead(o, loc, order).ref;
    }

    @Override
    public void storeLong(Object o, long old, long value, Order order) {
        if (!weak()) {
            return;
        }
        plainFootprint(o, order, true);
        int loc = location(o, old, null);
        checkLatest(o, loc, old, null, false);
        if (order == Order.FULL) {
            strongFence(false);
        }
        mem.write(current.lkmm, loc, mem.last(loc).ts + 1, value, null, order, current.id(), ++storeEvents);
    }

    @Override
    public void storeRef(Object o, Object old, Object value, Order order) {
        if (!weak()) {
            return;
        }
        plainFootprint(o, order, true);
        int loc = location(o, 0, old);
        checkLatest(o, loc, 0, old, true);
        if (order == Order.FULL) {
            strongFence(false);
        }
        mem.write(current.lkmm, loc, mem.last(loc).ts + 1, 0, value, order, current.id(), ++storeEvents);
    }

    @Override
    public void rmwLong(Object o, long old, long value, Order order, boolean success) {
        if (!weak()) {
            return;
        }
        int loc = location(o, old, null);
        checkLatest(o, loc, old, null, false);
        Message last = mem.last(loc);
        if (!success) {
            mem.read(current.lkmm, last, Order.ONCE);
            return;
        }
        if (order == Order.FULL) {
            strongFence(false);
        }
        mem.rmw(current.lkmm, last, value, order, current.id(), ++storeEvents);
    }

    @Override
    public void lockAcquired(Object lock) {
        if (!weak()) {
            return;
        }
        if (observe && lock instanceof Footprinted) {
            // reads the lock word's last release: named even where the step's point did not name
            // the lock (a rw_semaphore waiter resuming after the grant)
            accessUid(uidOf(lock) << 2 | READ);
        }
        int loc = location(lock, 0, null);
        mem.read(current.lkmm, mem.last(loc), Order.ACQUIRE);
    }

    @Override
    public void lockReleased(Object lock) {
        if (!weak()) {
            return;
        }
        if (observe && lock instanceof Footprinted) {
            accessUid(uidOf(lock) << 2 | WRITE);
        }
        mem.releaseLock(current.lkmm, location(lock, 0, null), current.id(), ++storeEvents);
    }

    /**
     * The barrier sites ({@link Fence#siteKey}) that any deterministic runtime has executed under
     * {@code --memory-model lkmm} since the set was last cleared: how {@code ./kmodel barriers}
     * finds which scenarios reach a site. A diagnostic across executions, never read by the model.
     */
    public static final java.util.Set<String> FENCE_SITES_REACHED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @Override
    public void fence(Fence f, String site) {
        if (!weak()) {
            return;
        }
        String key = f.siteKey(site);
        FENCE_SITES_REACHED.add(key);
        if (config.bug(Fence.ABLATE_PREFIX + key)) {
            if (detail) {
                record(current, "no " + key + " (ablated)", TraceEvent.Level.DETAIL);
            }
            return;
        }
        switch (f) {
            case MB:
            case MB_BEFORE_ATOMIC:
            case MB_AFTER_ATOMIC:
            case MB_AFTER_SPINLOCK:
                strongFence(true);
                break;
            default:
                break;
        }
        mem.fence(current.lkmm, f);
        if (detail) {
            record(current, f.name().toLowerCase(java.util.Locale.ROOT) + " in " + site, TraceEvent.Level.DETAIL);
        }
    }

    /** Under lkmm: each task's pseudo-location for its plain accesses ({@link LkmmTask#stamp}), in this execution. */
    private final IdentityHashMap<Task, Integer> plainLocs = new IdentityHashMap<>();
    /** Under lkmm: each task's plain accesses so far in this execution. */
    private final IdentityHashMap<Task, double[]> plainStamps = new IdentityHashMap<>();

    /**
     * Whether the data-race check orders plain accesses by the LKMM views ({@code --memory-model
     * lkmm}, a task running) rather than by its own vector clocks.
     */
    public boolean viewsOrderPlainAccesses() {
        return weak();
    }

    private int plainLoc(Task t) {
        Integer loc = plainLocs.get(t);
        if (loc == null) {
            loc = mem.location("plain accesses of " + t.name(), 0, null);
            plainLocs.put(t, loc);
        }
        return loc;
    }

    /**
     * Under lkmm: the running task makes a plain access; returns its stamp (its number among the
     * task's plain accesses), which enters the task's view ({@link LkmmTask#stamp}).
     */
    public double plainAccess(boolean write) {
        Task t = current;
        double[] n = plainStamps.computeIfAbsent(t, k -> new double[1]);
        n[0]++;
        t.lkmm.stamp(plainLoc(t), n[0], write);
        return n[0];
    }

    /** Under lkmm: whether the running task is ordered after {@code other}'s plain access numbered {@code stamp}. */
    public boolean orderedAfter(Task other, double stamp) {
        return current.lkmm.sees(plainLoc(other), stamp);
    }

    /** The memory of the current (or last) execution under {@code --memory-model lkmm}, else null. */
    public LkmmMemory memory() {
        return mem;
    }

    @Override
    public int choose(int n, String why) {
        if (!running || n <= 1) {
            return 0;
        }
        int v = strategy.pickValue(n);
        record(current, "chooses " + why + " = " + v, TraceEvent.Level.DETAIL);
        return v;
    }

    @Override
    public Task spawn(String name, String column, boolean irq, boolean daemon, Runnable body) {
        Task t = new Task(tasks.size(), name, column != null ? column : name, irq, daemon, body);
        if (mem != null) {
            t.lkmm = running ? LkmmTask.forkedFrom(current.lkmm) : new LkmmTask();
        }
        tasks.add(t);
        live.add(t);
        if (timing != null) {
            timing.spawned(running ? current : null, t);
        }
        if (observe && running) {
            accessUid(TASK_LIST_UID << 2 | WRITE);
            accessUid((TASK_UID_BASE - t.id()) << 2 | WRITE);
        }
        if (running) {
            record(current, "starts " + name, TraceEvent.Level.DETAIL);
        }
        return t;
    }

    @Override
    public boolean tracing() {
        return trace != null;
    }

    @Override
    public void event(String text) {
        if (trace != null && running) {
            Task t = current;
            trace.add(new TraceEvent(steps, t.name(), t.column(), text, TraceEvent.Level.INFO,
                    KernelFunctions.ofCurrentStack()));
        }
    }

    /**
     * Sets the virtual-time simulation's hooks for the executions that follow (null: none, the
     * default). Called between executions, from the controller thread.
     */
    public void setTiming(Timing timing) {
        this.timing = timing;
    }

    @Override
    public void work(Work work, long units) {
        if (timing != null && running) {
            timing.work(current, work, units);
        }
    }

    @Override
    public void deviceIo(Task irq, Object device, long bytes, boolean write) {
        if (timing != null && running) {
            timing.deviceIo(current, irq, device, bytes, write);
        }
    }

    @Override
    public long now() {
        return timing != null && running ? timing.now(current) : 0;
    }

    /** The tasks of the current (or last) execution. */
    public List<Task> tasks() {
        return Collections.unmodifiableList(tasks);
    }
}
