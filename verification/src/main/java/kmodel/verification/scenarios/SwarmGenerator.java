package kmodel.verification.scenarios;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Generates well-formed {@link SwarmRecipe}s from a seed, in the manner of swarm testing (Groce,
 * Zhang, Eide, Chen and Regehr, "Swarm testing", ISSTA 2012): each recipe first switches a random
 * subset of operation families on ({@link Family}), then composes two tasks of 1-3 operations or
 * (without writeback, and without truncation together with reads) three of 1-2 from those families only (then the unlocks each task owes), over 1-2 pages in a 1-2 head wait table. Leaving families out
 * is the point: a recipe without reads leaves room for more lock traffic, and so on.
 *
 * <p>Deterministic: {@link #generate(long)} depends on its seed only ({@link java.util.Random}'s
 * algorithm is specified). Every recipe is well-formed by construction (the constructor would
 * refuse it otherwise): lock acquisitions ascend, waits and reads run holding nothing, a task
 * ends by unlocking what it may hold, SIGKILL goes only to a task that does not wait for
 * task_work. A quarter of the recipes without SIGKILL run v5.7's page wait protocol ({@code proto=57}).
 */
public final class SwarmGenerator {
    /** Operation families switched on or off per recipe. */
    enum Family {
        /** {@code lock}, {@code trylock}, {@code unlock}. */
        LOCKING,
        /** {@code killable}, and a {@code kill} of such a task by another. */
        KILLABLE,
        /** {@code alock}, {@code await}: io_uring-style page waits with task_work. */
        ASYNC,
        /** {@code waitlocked}. */
        WAITS,
        /** Pages under writeback at the start, {@code waitwb}, and the irq task's {@code endwb}. */
        WRITEBACK,
        /** {@code read}. */
        READS,
        /** {@code readq}: IOCB_WAITQ reads. */
        WAITQ_READS,
        /** {@code nowait} reads, and read-ahead. */
        NOWAIT,
        /** {@code trunc}. */
        TRUNCATION,
        /** A page that fails to read. */
        ERRORS
    }

    private SwarmGenerator() {
    }

    /** The recipe of {@code seed}. */
    public static SwarmRecipe generate(long seed) {
        Random rnd = new Random(seed);
        List<Family> on = new ArrayList<>();
        for (Family f : Family.values()) {
            if (rnd.nextBoolean()) {
                on.add(f);
            }
        }
        if (on.isEmpty()) {
            on.add(Family.LOCKING);
        }
        int pages = 1 + rnd.nextInt(2);
        int table = 1 + rnd.nextInt(2);
        int walk = rnd.nextInt(3) == 0 ? 64 : 1;
        int ra = on.contains(Family.NOWAIT) && rnd.nextBoolean() ? 2 : 0;

        List<Integer> cached = new ArrayList<>();
        for (int p = 0; p < pages; p++) {
            if (rnd.nextInt(3) != 0) {
                cached.add(p);
            }
        }
        boolean pageOps = on.contains(Family.LOCKING) || on.contains(Family.KILLABLE) || on.contains(Family.ASYNC)
                || on.contains(Family.WAITS) || on.contains(Family.WRITEBACK);
        if (cached.isEmpty() && pageOps) {
            cached.add(rnd.nextInt(pages));
        }
        List<Integer> wb = new ArrayList<>();
        if (on.contains(Family.WRITEBACK)) {
            for (int p : cached) {
                if (rnd.nextBoolean()) {
                    wb.add(p);
                }
            }
            if (wb.isEmpty()) {
                wb.add(cached.get(rnd.nextInt(cached.size())));
            }
        }
        List<Integer> fail = new ArrayList<>();
        if (on.contains(Family.ERRORS)) {
            fail.add(rnd.nextInt(pages));
        }

        /*
         * Three tasks only when there is no irq task: more actors than that rarely finish at bound
         * 2. Nor with truncation and reads together: each read's bio completes in an irq task of
         * its own, and a freed page may be reused by the next allocation (a data choice when two
         * are free), so three such tasks overrun the budget.
         */
        boolean io = on.contains(Family.READS) || on.contains(Family.WAITQ_READS) || on.contains(Family.NOWAIT)
                || on.contains(Family.ERRORS);
        boolean truncIo = on.contains(Family.TRUNCATION) && io;
        int nTasks = wb.isEmpty() && !truncIo ? 2 + rnd.nextInt(2) : 2;
        int maxOps = nTasks == 2 ? 3 : 2;
        List<List<SwarmOp>> tasks = new ArrayList<>();
        for (int i = 0; i < nTasks; i++) {
            tasks.add(task(rnd, on, pages, cached, wb, maxOps));
        }
        if (on.contains(Family.KILLABLE)) {
            addKill(rnd, tasks);
        }
        List<SwarmOp> irq = new ArrayList<>();
        List<Integer> order = new ArrayList<>(wb);
        Collections.shuffle(order, rnd);
        for (int p : order) {
            irq.add(new SwarmOp(SwarmOp.Kind.ENDWB, p));
        }
        /*
         * The v5.7 page wait protocol for a quarter of the recipes without SIGKILL, drawn from a
         * stream of its own so that every other choice is the same as before the protocol was
         * drawn. Recipes with a kill stay on v5.10: they are set up around v5.9's page lock
         * unfairness (PAGE_LOCK_UNFAIRNESS, laid back with --set to find the killed-locker finding).
         */
        SwarmRecipe r = new SwarmRecipe(pages, table, walk, ra, cached, wb, fail, tasks, irq);
        boolean v57 = new Random(seed ^ 0x5757_5757_5757_5757L).nextInt(4) == 0 && !r.hasKill();
        return v57 ? r.withV57(true) : r;
    }

    /** One task: 1-{@code maxOps} operations from the families switched on, then unlocks of what it may hold. */
    private static List<SwarmOp> task(Random rnd, List<Family> on, int pages, List<Integer> cached, List<Integer> wb,
            int maxOps) {
        List<SwarmOp> ops = new ArrayList<>();
        List<Integer> held = new ArrayList<>();
        int n = 1 + rnd.nextInt(maxOps);
        for (int k = 0; k < n; k++) {
            List<SwarmOp> choices = new ArrayList<>();
            int lockPage = cached.isEmpty() ? rnd.nextInt(pages) : cached.get(rnd.nextInt(cached.size()));
            int anyPage = rnd.nextInt(pages);
            boolean ascending = held.isEmpty() || held.get(held.size() - 1) < lockPage;
            boolean free = !held.contains(lockPage);
            if (on.contains(Family.LOCKING)) {
                if (free && ascending) {
                    choices.add(new SwarmOp(SwarmOp.Kind.LOCK, lockPage));
                }
                if (free) {
                    choices.add(new SwarmOp(SwarmOp.Kind.TRYLOCK, lockPage));
                }
            }
            if (on.contains(Family.KILLABLE) && free && ascending) {
                choices.add(new SwarmOp(SwarmOp.Kind.KILLABLE, lockPage));
            }
            if (on.contains(Family.ASYNC)) {
                if (free && ascending) {
                    choices.add(new SwarmOp(SwarmOp.Kind.ALOCK, lockPage));
                }
                if (held.isEmpty()) {
                    choices.add(new SwarmOp(SwarmOp.Kind.AWAIT, lockPage));
                }
            }
            if (on.contains(Family.WAITS) && held.isEmpty()) {
                choices.add(new SwarmOp(SwarmOp.Kind.WAITLOCKED, lockPage));
            }
            if (on.contains(Family.WRITEBACK) && !wb.isEmpty()) {
                choices.add(new SwarmOp(SwarmOp.Kind.WAITWB, wb.get(rnd.nextInt(wb.size()))));
            }
            if (held.isEmpty()) {
                if (on.contains(Family.READS) || on.contains(Family.ERRORS)) {
                    choices.add(new SwarmOp(SwarmOp.Kind.READ, anyPage));
                }
                if (on.contains(Family.WAITQ_READS)) {
                    choices.add(new SwarmOp(SwarmOp.Kind.READQ, anyPage));
                }
                if (on.contains(Family.NOWAIT)) {
                    choices.add(new SwarmOp(SwarmOp.Kind.NOWAIT, anyPage));
                }
                if (on.contains(Family.TRUNCATION)) {
                    choices.add(new SwarmOp(SwarmOp.Kind.TRUNC, anyPage));
                }
            }
            if (!held.isEmpty()) {
                choices.add(new SwarmOp(SwarmOp.Kind.UNLOCK, held.get(rnd.nextInt(held.size()))));
            }
            if (choices.isEmpty()) {
                break;
            }
            SwarmOp op = choices.get(rnd.nextInt(choices.size()));
            ops.add(op);
            if (op.kind().acquires()) {
                held.add(op.arg());
                Collections.sort(held);
            } else if (op.kind() == SwarmOp.Kind.UNLOCK) {
                held.remove((Integer) op.arg());
            }
        }
        for (int i = held.size() - 1; i >= 0; i--) {
            ops.add(new SwarmOp(SwarmOp.Kind.UNLOCK, held.get(i)));
        }
        if (ops.isEmpty()) {
            /* Only families that need a free hand were on, and none fitted: a lone lock and unlock. */
            int p = cached.isEmpty() ? 0 : cached.get(0);
            ops.add(new SwarmOp(SwarmOp.Kind.TRYLOCK, p));
            ops.add(new SwarmOp(SwarmOp.Kind.UNLOCK, p));
        }
        return ops;
    }

    /**
     * A {@code kill} of a task that does not wait for task_work, preferring one with a
     * {@code killable}, inserted at a random place in another task.
     */
    private static void addKill(Random rnd, List<List<SwarmOp>> tasks) {
        List<Integer> targets = new ArrayList<>();
        List<Integer> killable = new ArrayList<>();
        for (int t = 0; t < tasks.size(); t++) {
            boolean ok = true;
            boolean hasKillable = false;
            for (SwarmOp op : tasks.get(t)) {
                ok &= !op.kind().waitsForTaskWork();
                hasKillable |= op.kind() == SwarmOp.Kind.KILLABLE;
            }
            if (ok) {
                targets.add(t);
                if (hasKillable) {
                    killable.add(t);
                }
            }
        }
        List<Integer> pick = killable.isEmpty() ? targets : killable;
        if (pick.isEmpty()) {
            return;
        }
        int target = pick.get(rnd.nextInt(pick.size()));
        int killer = rnd.nextInt(tasks.size() - 1);
        if (killer >= target) {
            killer++;
        }
        List<SwarmOp> ops = tasks.get(killer);
        if (ops.size() < SwarmRecipe.MAX_OPS) {
            ops.add(rnd.nextInt(ops.size() + 1), new SwarmOp(SwarmOp.Kind.KILL, target));
        }
    }
}
