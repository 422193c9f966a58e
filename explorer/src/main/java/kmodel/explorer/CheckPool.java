package kmodel.explorer;

import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;
import kmodel.kernel.sched.DeterministicRuntime;

/**
 * {@code --jobs N}: N exploring threads, each with a {@link DeterministicRuntime} of its own
 * ({@link DeterministicRuntime#boundToItsThreads()}), taking work (a unit of a split exploration,
 * a unit enumeration, a counterexample replay, a whole sampled check) in the order it was
 * submitted. Model code on one job's threads reaches only that job's runtime, so the jobs share
 * nothing but the queue; what runs where never changes a result ({@link SplitExplorer} merges in
 * unit order).
 *
 * <p>Each job's loop runs on a virtual thread (JDK 21+), like the sequential explorer's. With
 * one carrier thread ({@code -Djdk.virtualThreadScheduler.parallelism=1}) the jobs take turns:
 * the results are the same, only the speed-up is lost; {@code kmodel} sets the carriers to N. (A
 * carrier of each job's own, through the JDK's non-public builder that takes a scheduler, was
 * tried and measured no better than the shared carriers.)
 */
public final class CheckPool implements AutoCloseable {
    /** A piece of work for a job, run with that job's runtime. */
    private static final class Work {
        final Function<DeterministicRuntime, ?> body;
        final CompletableFuture<Object> done = new CompletableFuture<>();

        Work(Function<DeterministicRuntime, ?> body) {
            this.body = body;
        }
    }

    private static final Work STOP = new Work(rt -> null);

    private final int jobs;
    private final LinkedBlockingQueue<Work> queue = new LinkedBlockingQueue<>();
    private final ArrayList<Thread> threads = new ArrayList<>();

    /** Starts {@code jobs} exploring threads (1 or more). */
    public CheckPool(int jobs) {
        if (jobs < 1) {
            throw new IllegalArgumentException("jobs must be 1 or more, got " + jobs);
        }
        this.jobs = jobs;
        for (int i = 0; i < jobs; i++) {
            Thread t = new Thread(() -> DeterministicRuntime.callOnRuntimeThread(this::jobLoop), "kmodel-job-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    /** How many jobs run side by side. */
    public int jobs() {
        return jobs;
    }

    private Object jobLoop() {
        try (DeterministicRuntime rt = DeterministicRuntime.boundToItsThreads()) {
            for (;;) {
                Work w;
                try {
                    w = queue.take();
                } catch (InterruptedException e) {
                    return null;
                }
                if (w == STOP) {
                    return null;
                }
                try {
                    w.done.complete(w.body.apply(rt));
                } catch (RuntimeException | Error e) {
                    w.done.completeExceptionally(e);
                }
            }
        }
    }

    /** Queues {@code body} for the next free job. */
    @SuppressWarnings("unchecked")
    public <T> CompletableFuture<T> submit(Function<DeterministicRuntime, T> body) {
        Work w = new Work(body);
        queue.add(w);
        return (CompletableFuture<T>) (CompletableFuture<?>) w.done;
    }

    /**
     * Waits for {@code f} and returns its value; an exception thrown by the work (a scenario that is
     * not deterministic, say) is rethrown as it was.
     */
    public static <T> T join(CompletableFuture<T> f) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return f.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    Throwable c = e.getCause();
                    if (c instanceof RuntimeException) {
                        throw (RuntimeException) c;
                    }
                    if (c instanceof Error) {
                        throw (Error) c;
                    }
                    throw new IllegalStateException(c);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Stops the jobs: work not started yet is cancelled (its future completes exceptionally; a
     * normal run has none left), work under way is finished.
     */
    @Override
    public void close() {
        ArrayList<Work> left = new ArrayList<>();
        queue.drainTo(left);
        for (Work w : left) {
            w.done.cancel(false);
        }
        for (int i = 0; i < jobs; i++) {
            queue.add(STOP);
        }
        for (Thread t : threads) {
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
        }
    }
}
