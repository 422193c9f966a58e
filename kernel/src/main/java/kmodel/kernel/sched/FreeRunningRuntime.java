package kmodel.kernel.sched;

import java.util.ArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Kernel;
import kmodel.kernel.Violation;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.lifetime.Lifetimes;
import kmodel.kernel.locking.Spinlock;

/**
 * The free-running runtime: the same primitives mapped onto real Java threads and real
 * synchronisation, for checkers that explore interleavings themselves (Java PathFinder,
 * Lincheck) and for plain unit tests of sequential code. Scheduling points are no-ops; each
 * primitive's atomic step is made atomic by {@code synchronized} on its object.
 *
 * <p>Minimal on purpose (limitations): it has no quiescence detection (a missed wake-up is a hang,
 * which JPF reports as a deadlock), no step bound and no trace. Data choices always take 0.
 * It uses only what JPF handles: threads, {@code synchronized}, {@code LockSupport},
 * {@code AtomicInteger}.
 */
public final class FreeRunningRuntime implements Runtime {
    private final Kconfig config;
    private final Lifetimes lifetimes = new Lifetimes();
    private final ThreadLocal<Task> currentTask = new ThreadLocal<>();
    private final ArrayList<Thread> threads = new ArrayList<>();
    private final ArrayList<Task> tasks = new ArrayList<>();
    private final AtomicInteger nextId = new AtomicInteger();
    private volatile Violation violation;

    public FreeRunningRuntime(Kconfig config) {
        this.config = config;
    }

    /**
     * Installs a free-running runtime with the calling thread as its only task ("main"), for
     * unit tests of sequential model code. Returns it; {@link #uninstall()} when done.
     */
    public static FreeRunningRuntime install(Kconfig config) {
        FreeRunningRuntime rt = new FreeRunningRuntime(config);
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

    /** Makes the calling thread a task of this runtime. */
    public Task adoptCurrentThread(String name) {
        Task t = new Task(nextId.getAndIncrement(), name, name, false, false, null);
        t.runState = Task.RunState.RUNNABLE;
        currentTask.set(t);
        synchronized (tasks) {
            tasks.add(t);
        }
        return t;
    }

    /** Starts every spawned task on its own thread and waits for all of them; returns the first violation. */
    public Violation runAll() {
        ArrayList<Thread> toStart;
        synchronized (threads) {
            toStart = new ArrayList<>(threads);
        }
        for (Thread th : toStart) {
            th.start();
        }
        for (Thread th : toStart) {
            try {
                th.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return violation;
    }

    /** The first violation any task hit, or null. */
    public Violation violation() {
        return violation;
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
        // Real threads interleave on their own.
    }

    @Override
    public void block() {
        Task me = current();
        synchronized (me) {
            me.runState = Task.RunState.SLEEPING;
        }
        for (;;) {
            synchronized (me) {
                if (me.state == Task.TASK_RUNNING) {
                    me.runState = Task.RunState.RUNNABLE;
                    return;
                }
            }
            if (threadOf(me) == null) {
                throw new Violation(ViolationKind.MISSED_WAKEUP, me.name() + " would sleep forever: it is the only task", me.name());
            }
            LockSupport.park(me);
        }
    }

    private Thread threadOf(Task t) {
        synchronized (threads) {
            for (Thread th : threads) {
                if (th.getName().equals("kmodel-" + t.name())) {
                    return th;
                }
            }
        }
        return null;
    }

    @Override
    public boolean tryToWakeUp(Task p, int mask) {
        synchronized (p) {
            if ((p.state & mask) == 0) {
                return false;
            }
            p.state = Task.TASK_RUNNING;
        }
        Thread th = threadOf(p);
        if (th != null) {
            LockSupport.unpark(th);
        }
        return true;
    }

    @Override
    public void spinLock(Spinlock lock) {
        Task me = current();
        for (;;) {
            synchronized (lock) {
                if (lock.owner() == null) {
                    lock.acquiredBy(me);
                    me.locksHeld++;
                    return;
                }
                if (lock.owner() == me) {
                    throw new Violation(ViolationKind.BUG_ON, "recursive spin_lock(" + lock + ")", me.name());
                }
            }
            Thread.yield();
        }
    }

    @Override
    public void spinUnlock(Spinlock lock) {
        Task me = current();
        synchronized (lock) {
            if (lock.owner() != me) {
                throw new Violation(ViolationKind.BUG_ON, "spin_unlock(" + lock + ") by a task that does not hold it", me.name());
            }
            lock.acquiredBy(null);
            me.locksHeld--;
        }
    }

    @Override
    public int choose(int n, String why) {
        return 0;
    }

    @Override
    public Task spawn(String name, String column, boolean irq, boolean daemon, Runnable body) {
        Task t = new Task(nextId.getAndIncrement(), name, column != null ? column : name, irq, daemon, body);
        synchronized (tasks) {
            tasks.add(t);
        }
        Thread th = new Thread(() -> {
            currentTask.set(t);
            t.runState = Task.RunState.RUNNABLE;
            try {
                body.run();
            } catch (Violation v) {
                if (violation == null) {
                    violation = v;
                }
            } finally {
                t.runState = Task.RunState.EXITED;
            }
        }, "kmodel-" + name);
        th.setDaemon(true);
        synchronized (threads) {
            threads.add(th);
        }
        return t;
    }

    @Override
    public boolean tracing() {
        return false;
    }

    @Override
    public void event(String text) {
    }
}
