package kmodel.kernel.sched;

import java.util.ArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Kernel;
import kmodel.kernel.Violation;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.lifetime.KObject;
import kmodel.kernel.lifetime.Lifetimes;
import kmodel.kernel.locking.Spinlock;

/**
 * The free-running runtime: the same primitives mapped onto real Java threads and real
 * synchronisation, for checkers that explore interleavings themselves (Java PathFinder,
 * Lincheck) and for plain unit tests of sequential code. Scheduling points are no-ops; each
 * primitive's atomic step is made atomic by {@code synchronized} on its object. It uses only what
 * JPF handles: threads, {@code synchronized}, {@code wait/notifyAll}, {@code Thread.join},
 * {@code AtomicInteger}, {@code ThreadLocal}.
 *
 * <p>{@link #execute} runs a {@link Program} the way {@link DeterministicRuntime#execute} does:
 * boot on the calling thread, every task on a thread of its own, then, once every non-daemon task
 * has exited, the program's end checks, the lifetime tracker's leak check, and, at each task's
 * exit, the check that it holds no lock (the same messages as the deterministic runtime).
 *
 * <h2>What a free run cannot see</h2>
 * <ul>
 *   <li>Quiescence: a task that sleeps with nobody left to wake it (a missed wake-up) simply
 *       never returns, and {@link #execute} waits for it forever. Run on real threads that is a
 *       hang; Java PathFinder and Lincheck, which control every thread, report it as a deadlock
 *       (every thread waiting; Lincheck: "Concurrent test has hung"), not as
 *       {@code missed-wakeup}. Likewise a task spinning on a
 *       spinlock whose holder exited spins forever (a livelock to the checkers).</li>
 *   <li>Interleavings: on real threads a run is one schedule the JVM happened to pick; only a
 *       checker that controls the threads explores them. There is no step bound, no trace and no
 *       replay token.</li>
 *   <li>The memory model: model code touches task state and some fields between the
 *       primitives' monitors without {@code volatile}. The checkers explore sequentially
 *       consistent executions (as the deterministic runtime does); a run on real hardware may
 *       not be, so a free run on real threads proves nothing about a weak memory model.</li>
 *   <li>Data choices ({@link #choose}) go to a {@link Chooser}: by default always 0; Java
 *       PathFinder plugs in {@code Verify.getInt} to explore them.</li>
 *   <li>Scheduling points do nothing by default; a checker that controls the threads can plug in
 *       a {@link Points} hook that makes each of them a choice of its own (Java PathFinder:
 *       {@code Thread.yield()}), so that it switches tasks exactly where the explorer does.</li>
 *   <li>Daemon tasks (io-wq workers) are not waited for: the end checks run once every other
 *       task has exited, whatever the daemons do.</li>
 *   <li>After the first violation the other tasks are stopped at their next primitive (sleepers
 *       are woken to unwind), so that no thread of a finished run touches the next run's runtime;
 *       only the first violation is reported.</li>
 * </ul>
 */
public final class FreeRunningRuntime implements Runtime {
    /** Picks data choices ({@link Runtime#choose}): the checker's own nondeterminism. */
    public interface Chooser {
        /** A value in {@code [0, n)} for the choice {@code why}; called only when {@code n > 1}. */
        int choose(int n, String why);
    }

    /** The default chooser: always the first alternative. */
    public static final Chooser FIRST = (n, why) -> 0;

    /**
     * Called at each of the model's scheduling points, where the deterministic runtime may switch
     * tasks: every {@link #point}/{@link #pointRead}, {@code spin_lock} (and each failed attempt
     * of its spin), {@code spin_unlock}, {@code try_to_wake_up}; before the step's atomic action.
     * Java PathFinder plugs in {@code Thread.yield()}, a scheduling choice of JPF's, and makes no
     * other choice in the model's code (kmodel.jpf.PointSyncPolicy): its interleavings are then
     * those of the explorer, step for step. Only the task's own thread calls it.
     */
    public interface Points {
        /** A scheduling point of the running task. */
        void point();

        /**
         * Whether the tasks' threads are daemon threads (the default): a run left hanging by a
         * missed wake-up then does not keep the JVM alive. Java PathFinder needs them not to be:
         * when a daemon thread ends while no non-daemon thread is runnable (the main thread
         * waits for the tasks), JPF sets no scheduling choice and silently explores nothing
         * further on that path ({@code ThreadInfo.exit} in jpf-core).
         */
        default boolean daemonThreads() {
            return true;
        }
    }

    /** The default: a scheduling point does nothing (real threads interleave on their own). */
    public static final Points NO_POINTS = () -> { };

    /**
     * Unwinds a task once the run is over (a violation elsewhere). Stackless by overriding
     * {@link #fillInStackTrace()}: Java PathFinder's {@code Throwable} has no four-argument
     * constructor (calling it is a {@code NoSuchMethodException} under JPF).
     */
    static final class Stop extends Error {
        private static final long serialVersionUID = 1L;

        Stop() {
            super("free run stopped");
        }

        @Override
        public Throwable fillInStackTrace() {
            return this;
        }
    }

    private final Kconfig config;
    private final Chooser chooser;
    private final Points points;
    /** The objects each task creates go to a list of the task's own (Lifetimes#threadList). */
    private final Lifetimes lifetimes = Lifetimes.perThread();
    private final ThreadLocal<Task> currentTask = new ThreadLocal<>();
    /** Every task, in spawn order (for the stop after a violation). Guarded by {@code tasks}. */
    private final ArrayList<Task> tasks = new ArrayList<>();
    /** The threads spawned before {@link #runAll()} started them. Guarded by {@code tasks}. */
    private final ArrayList<TaskThread> unstarted = new ArrayList<>();
    private final AtomicInteger nextId = new AtomicInteger();
    /**
     * Non-daemon tasks spawned and not yet exited. {@link #runAll()} waits on {@link #allExited}
     * until it is 0 (one wait, rather than a join per task: a waiting main thread is no runnable
     * thread for a checker to interleave); the task that takes it to 0 notifies.
     */
    private final AtomicInteger live = new AtomicInteger();
    private final Object allExited = new Object();
    /** {@link #runAll()} has started the tasks: a task spawned from now on starts at once. */
    private volatile boolean started;
    private volatile Violation violation;
    /**
     * Set once a task hit a violation: every task still running then unwinds at its next
     * primitive ({@link Stop}) instead of running on, so that no thread of this run touches the
     * runtime installed after it.
     */
    private volatile boolean stopped;
    /**
     * The program being executed, kept in a field of this (shared) runtime for Lincheck's sake:
     * Lincheck inserts switch points only at accesses to objects it has seen shared, and it cannot
     * follow references held by lambdas (the captured fields of JDK hidden classes), so a world
     * reachable only through the tasks' lambdas would look thread-local and its races would go
     * unexplored (measured: a lost update on such a world passed 1,000 invocations). Stored here
     * before boot, the program's world is published by an ordinary field write.
     */
    private volatile Program program;
    /**
     * The object of the last scheduling point ({@link #point}), written by every point: no use to
     * the model, but it shows Lincheck that the object is shared (an object written into a field
     * of a shared object is), and the write is a switch point of Lincheck's where the model has a
     * scheduling point; a second guard, with {@link #program}, against Lincheck taking objects the
     * tasks reach only through their lambdas for thread-local.
     */
    private Object pointObject;

    /** A runtime whose data choices always take 0. */
    public FreeRunningRuntime(Kconfig config) {
        this(config, FIRST);
    }

    /** A runtime whose data choices {@code chooser} makes. */
    public FreeRunningRuntime(Kconfig config, Chooser chooser) {
        this(config, chooser, NO_POINTS);
    }

    /** A runtime whose data choices {@code chooser} makes and whose scheduling points call {@code points}. */
    public FreeRunningRuntime(Kconfig config, Chooser chooser, Points points) {
        this.config = config;
        this.chooser = chooser;
        this.points = points;
    }

    /**
     * A task's own thread. Which task it runs is a final field of the thread (no lookup in a
     * shared table), and a thread of this class is how {@link #block()} knows that the calling
     * task has a thread of its own.
     */
    private static final class TaskThread extends Thread {
        private final FreeRunningRuntime rt;
        private final Task task;
        private final ArrayList<KObject> objects;

        TaskThread(FreeRunningRuntime rt, Task task) {
            super("kmodel-" + task.name());
            this.rt = rt;
            this.task = task;
            // created by the spawning thread, in spawn order (see Lifetimes#threadList)
            this.objects = rt.lifetimes.threadList();
            // a daemon task (an io-wq worker) is not waited for, and may sleep for ever: its
            // thread is a daemon in any case, so that nobody (JPF included) waits for it either
            setDaemon(rt.points.daemonThreads() || task.daemon());
        }

        @Override
        public void run() {
            rt.lifetimes.registerInto(objects);
            rt.runTask(task);
        }
    }

    /**
     * Installs a free-running runtime with the calling thread as its only task ("main"), for
     * unit tests of sequential model code. Returns it; {@link #uninstall()} when done.
     */
    public static FreeRunningRuntime install(Kconfig config) {
        return install(config, NO_POINTS);
    }

    /** {@link #install(Kconfig)}, with {@code points} called at every scheduling point. */
    public static FreeRunningRuntime install(Kconfig config, Points points) {
        FreeRunningRuntime rt = new FreeRunningRuntime(config, FIRST, points);
        Kernel.install(rt);
        rt.lifetimes.activate();
        rt.adoptCurrentThread("main");
        return rt;
    }

    /** Removes this runtime. */
    public void uninstall() {
        lifetimes.deactivate();
        Kernel.install(null);
    }

    /** Makes the calling thread a task of this runtime (with no thread of its own to wake). */
    public Task adoptCurrentThread(String name) {
        Task t = new Task(nextId.getAndIncrement(), name, name, false, false, null);
        t.runState = Task.RunState.RUNNABLE;
        currentTask.set(t);
        synchronized (tasks) {
            tasks.add(t);
        }
        return t;
    }

    /**
     * Runs {@code program} once on real threads and returns its first violation, or null: installs
     * this runtime, boots the program on the calling thread (as task {@code boot}), starts every
     * task it spawned, waits until every non-daemon task has exited or one of them hit a
     * violation, then runs the program's end checks and the lifetime tracker's leak check (as
     * {@link DeterministicRuntime#execute} does at the end of an execution). A runtime executes
     * one program once. A missed wake-up never returns (see the class comment).
     */
    public Violation execute(Program program) {
        Task boot = new Task(-1, "boot", "boot", false, false, null);
        boot.runState = Task.RunState.RUNNABLE;
        Runtime prev = Kernel.install(this);
        lifetimes.activate();
        currentTask.set(boot);
        this.program = program;
        try {
            try {
                program.boot(this);
            } catch (Violation v) {
                return v;
            }
            Violation v = runAll();
            if (v != null) {
                return v;
            }
            try {
                program.finish();
                lifetimes.checkLeaks();
            } catch (Violation end) {
                return end;
            }
            return null;
        } finally {
            currentTask.remove();
            lifetimes.deactivate();
            Kernel.install(prev);
        }
    }

    /**
     * Starts every spawned task on its own thread and waits until every non-daemon task (those
     * spawned while running too) has exited; returns the first violation. Once a task hits a
     * violation the others are stopped: each unwinds at its next primitive (a sleeper is woken
     * to do so).
     */
    public Violation runAll() {
        ArrayList<TaskThread> toStart;
        synchronized (tasks) {
            started = true;
            toStart = new ArrayList<>(unstarted);
            unstarted.clear();
        }
        for (int i = 0; i < toStart.size(); i++) {
            toStart.get(i).start();
        }
        synchronized (allExited) {
            while (live.get() > 0) {
                try {
                    allExited.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the tasks", e);
                }
            }
        }
        return violation;
    }

    /** The first violation any task hit, or null. */
    public Violation violation() {
        return violation;
    }

    /** Records the first violation and stops the run: every sleeper is woken to unwind. */
    private void setViolation(Violation v) {
        ArrayList<Task> all;
        synchronized (tasks) {
            if (violation != null) {
                return;
            }
            violation = v;
            stopped = true;
            all = new ArrayList<>(tasks);
        }
        for (int i = 0; i < all.size(); i++) {
            Task t = all.get(i);
            synchronized (t) {
                t.notifyAll();
            }
        }
    }

    @Override
    public Task current() {
        return currentTask.get();
    }

    @Override
    public Kconfig config() {
        return config;
    }

    @Override
    public Lifetimes lifetimes() {
        return lifetimes;
    }

    @Override
    public void point(String what, Object obj) {
        // Real threads interleave on their own; a checker's hook may make this a choice.
        if (stopped) {
            throw new Stop();
        }
        points.point();
        pointObject = obj;
    }

    /**
     * Sleeps on the task's own monitor ({@code wait}) until {@link #tryToWakeUp} set it running
     * ({@code notifyAll}): a monitor, not {@code LockSupport.park}, because Lincheck lets a park
     * return spuriously and takes the re-parking loop for a livelock (measured on
     * {@code textbook-waitqueue}: 300 invocations in 90 s with park, 52 s with the monitor, and its
     * lost wake-up found after 182 invocations with park, 34 with the monitor). JPF handles both.
     */
    @Override
    public void block() {
        Task me = current();
        if (!(Thread.currentThread() instanceof TaskThread)) {
            throw new Violation(ViolationKind.MISSED_WAKEUP, me.name() + " would sleep forever: it is the only task",
                    me.name());
        }
        synchronized (me) {
            me.runState = Task.RunState.SLEEPING;
            while (me.state != Task.TASK_RUNNING) {
                if (stopped) {
                    throw new Stop();
                }
                try {
                    me.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(me.name() + " interrupted in schedule()", e);
                }
            }
            me.runState = Task.RunState.RUNNABLE;
        }
    }

    @Override
    public boolean tryToWakeUp(Task p, int mask) {
        points.point(); // the explorer's try_to_wake_up point
        synchronized (p) {
            if ((p.state & mask) == 0) {
                return false;
            }
            p.state = Task.TASK_RUNNING;
            p.notifyAll();
        }
        return true;
    }

    /** Takes {@code lock}, spinning while another task holds it (each attempt under the lock's monitor). */
    @Override
    public void spinLock(Spinlock lock) {
        Task me = current();
        points.point(); // the explorer's spin_lock point
        for (;;) {
            synchronized (lock) {
                if (lock.owner() == null) {
                    lock.acquiredBy(me);
                    me.locksHeld++;
                    return;
                }
                if (lock.owner() == me) {
                    throw new Violation(ViolationKind.BUG_ON, "recursive spin_lock(" + lock + "): AA deadlock", me.name());
                }
            }
            if (stopped) {
                throw new Stop();
            }
            // a failed attempt: another scheduling point (the explorer does not run a task
            // whose lock is held; here it spins, and a checker may switch at each attempt)
            points.point();
            // No Thread.yield(): with it, Lincheck 3.7 on JDK 17 reported the first invocation of
            // every harness as hung in our runs (perhaps its 30 s invocation limit on a loaded
            // machine; not settled). The monitor above is Lincheck's switch point, the hook JPF's.
        }
    }

    @Override
    public void spinUnlock(Spinlock lock) {
        Task me = current();
        points.point(); // the explorer's spin_unlock point
        synchronized (lock) {
            if (lock.owner() != me) {
                throw new Violation(ViolationKind.BUG_ON, "spin_unlock(" + lock + ") by " + me.name()
                        + ", which does not hold it", me.name());
            }
            lock.acquiredBy(null);
            me.locksHeld--;
        }
    }

    @Override
    public int choose(int n, String why) {
        return n <= 1 ? 0 : chooser.choose(n, why);
    }

    @Override
    public Task spawn(String name, String column, boolean irq, boolean daemon, Runnable body) {
        Task t = new Task(nextId.getAndIncrement(), name, column != null ? column : name, irq, daemon, body);
        TaskThread th = new TaskThread(this, t);
        if (!daemon) {
            live.incrementAndGet();
        }
        boolean startNow;
        synchronized (tasks) {
            tasks.add(t);
            startNow = started;
            if (!startNow) {
                unstarted.add(th);
            }
        }
        if (startNow) {
            // spawned while running (an interrupt-context completion): start it at once
            th.start();
        }
        return t;
    }

    /**
     * A task's thread: its body, then the exit checks {@link DeterministicRuntime} makes (no
     * spinlock or sleeping lock held). A {@link Violation} is recorded; any other exception is the
     * model crashing, an {@code oops} (an {@link Error} is recorded and rethrown, so that a checker
     * that controls the thread sees it too).
     */
    private void runTask(Task t) {
        currentTask.set(t);
        t.runState = Task.RunState.RUNNABLE;
        try {
            t.body.run();
            Violation leak = TaskExit.lockLeak(t);
            if (leak != null) {
                setViolation(leak);
            }
        } catch (Stop s) {
            // unwound: the run is over
        } catch (Violation v) {
            setViolation(v);
        } catch (RuntimeException e) {
            setViolation(new Violation(ViolationKind.OOPS, TaskExit.oopsMessage(t.name(), e), t.name()));
        } catch (Error e) {
            setViolation(new Violation(ViolationKind.OOPS, TaskExit.oopsMessage(t.name(), e), t.name()));
            throw e;
        } finally {
            t.runState = Task.RunState.EXITED;
            if (!t.daemon() && live.decrementAndGet() == 0) {
                synchronized (allExited) {
                    allExited.notifyAll();
                }
            }
        }
    }

    @Override
    public boolean tracing() {
        return false;
    }

    @Override
    public void event(String text) {
    }
}
