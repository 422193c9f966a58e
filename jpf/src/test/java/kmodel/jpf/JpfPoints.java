package kmodel.jpf;

import kmodel.kernel.sched.FreeRunningRuntime;

/** Runs under JPF: the free-running runtime's hooks for Java PathFinder ({@link FreeRunningRuntime.Points}). */
final class JpfPoints {
    private JpfPoints() {
    }

    /**
     * Every scheduling point of the model is a JPF choice ({@code Thread.yield()}; at
     * {@link JpfSettings.Granularity#PRIMITIVE} {@link PointSyncPolicy} makes no other), and the
     * tasks' threads are no daemons (JPF would end a path silently where one ends while the main
     * thread waits).
     */
    static final FreeRunningRuntime.Points YIELD = new FreeRunningRuntime.Points() {
        @Override
        public void point() {
            Thread.yield();
        }

        @Override
        public boolean daemonThreads() {
            return false;
        }
    };

    /**
     * {@link #YIELD} with the tasks on daemon threads, as on plain threads: JPF then ends a path
     * silently where a task's thread ends while the main thread waits for the others, since
     * jpf-core sets a scheduling choice at a thread's end only if another non-daemon thread is
     * runnable ({@code ThreadInfo.exit}). For {@link JpfGuardTest} only.
     */
    static final FreeRunningRuntime.Points YIELD_DAEMONS = Thread::yield;

    /** No choice at the model's scheduling points (JPF chooses at its own granularity), no daemons. */
    static final FreeRunningRuntime.Points NO_DAEMONS = new FreeRunningRuntime.Points() {
        @Override
        public void point() {
        }

        @Override
        public boolean daemonThreads() {
            return false;
        }
    };
}
