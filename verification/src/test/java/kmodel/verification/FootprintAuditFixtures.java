package kmodel.verification;

import kmodel.verification.world.Scenario;
import kmodel.kernel.Kernel;
import kmodel.kernel.atomic.Shared;
import kmodel.kernel.sched.Footprinted;

/**
 * Programs for the footprint audit's tests ({@link FootprintAuditModelCheck}), reached by name
 * ({@code FootprintAuditFixtures#lostUpdate}) so that the audit loads them in its own class loader.
 * Each keeps shared state in a plain Java field; the buggy ones forget to report it.
 */
final class FootprintAuditFixtures {
    private FootprintAuditFixtures() {
    }

    /** A counter in a plain field, and one private word per task to give each a scheduling point. */
    static final class Counter extends Footprinted {
        int count;
        final Shared<Integer> own0 = new Shared<>("own0", 0);
        final Shared<Integer> own1 = new Shared<>("own1", 0);
        /** Report the plain accesses ({@link Kernel#accessRead} and {@link Kernel#access}). */
        final boolean reported;

        Counter(boolean reported) {
            this.reported = reported;
        }

        /** {@code count++} split by a scheduling point on a word of this task's own. */
        void increment(Shared<Integer> own) {
            if (reported) {
                Kernel.accessRead(this);
            }
            int v = count;
            own.writeOnce(1);
            if (reported) {
                Kernel.access(this);
            }
            count = v + 1;
        }
    }

    /**
     * The deliberate bug: a lost update in a counter kept in a plain field whose accesses are not
     * reported. Plain DFS finds it; the reduced search sees two tasks with nothing in common and
     * says "complete" after one execution.
     */
    static Scenario<Counter> lostUpdate() {
        return counter("audit-lost-update", false);
    }

    /** The same program with the accesses reported: the reduced search finds the lost update. */
    static Scenario<Counter> lostUpdateReported() {
        return counter("audit-lost-update-reported", true);
    }

    private static Scenario<Counter> counter(String name, boolean reported) {
        return Scenario.<Counter>named(name, "two tasks increment a counter in a plain field")
                .setup(() -> new Counter(reported))
                .tasks((c, sc) -> {
                    sc.task("inc0", () -> c.increment(c.own0));
                    sc.task("inc1", () -> c.increment(c.own1));
                })
                .atEnd(c -> Kernel.BUG_ON(c.count != 2, "lost update: count " + c.count))
                .outcome(c -> "count=" + c.count)
                .build();
    }

    /** A "done" flag in a plain field, which main reads assuming the worker has not finished. */
    static final class Flag {
        boolean done;
        final Shared<Integer> a = new Shared<>("a", 0);
        final Shared<Integer> b = new Shared<>("b", 0);
    }

    /**
     * The example: a "done" bit in a plain field. Main asserts the worker has not
     * finished when it looks, which holds in the first order run and fails when the worker runs
     * first; nothing reports the flag, so the reduced search never runs the worker first.
     */
    static Scenario<Flag> doneFlag() {
        return Scenario.<Flag>named("audit-done-flag", "main reads a done flag kept in a plain field")
                .setup(Flag::new)
                .tasks((f, sc) -> {
                    sc.task("main", () -> {
                        f.b.writeOnce(1);
                        Kernel.BUG_ON(f.done, "the worker finished before main looked");
                    });
                    sc.task("worker", () -> {
                        f.done = true;
                        f.a.writeOnce(1);
                    });
                })
                .build();
    }

    /** A word two tasks only read: with {@link Kernel#accessRead} the reads commute. */
    static final class Word extends Footprinted {
        int value = 7;
        int seen0;
        int seen1;
    }

    /** Two readers of one plain word, reported as reads ({@code write}: as writes). */
    static Scenario<Word> readers(boolean write) {
        return Scenario.<Word>named(write ? "audit-readers-as-writes" : "audit-readers",
                "two tasks read one word, reporting it")
                .setup(Word::new)
                .tasks((w, sc) -> {
                    sc.task("r0", () -> {
                        if (write) {
                            Kernel.access(w);
                        } else {
                            Kernel.accessRead(w);
                        }
                        w.seen0 = w.value;
                    });
                    sc.task("r1", () -> {
                        if (write) {
                            Kernel.access(w);
                        } else {
                            Kernel.accessRead(w);
                        }
                        w.seen1 = w.value;
                    });
                })
                .outcome(w -> w.seen0 + "," + w.seen1)
                .build();
    }

    static Scenario<Word> readersReportingReads() {
        return readers(false);
    }

    static Scenario<Word> readersReportingWrites() {
        return readers(true);
    }

    /**
     * A table filled by its class's static initialiser, which the JVM runs on the first task that
     * uses it, under the class-initialisation lock (as javac 17 fills an enum switch's
     * {@code $SwitchMap}): the write is ordered before every other task's read.
     */
    static final class Table {
        static final int[] T = fill();
        /** Written outside any initialiser: a plain shared static, which the audit must report. */
        static final int[] LATE = new int[1];

        private static int[] fill() {
            int[] t = new int[2];
            t[0] = 3;
            return t;
        }
    }

    /** Two private words, one per task, to give each task a scheduling point. */
    static final class Words {
        final Shared<Integer> own0 = new Shared<>("own0", 0);
        final Shared<Integer> own1 = new Shared<>("own1", 0);
        int seen0;
        int seen1;
    }

    /**
     * Two tasks read a table whose class the first of them initialises ({@code late}: and each
     * also writes {@link Table#LATE} outside the initialiser, unreported).
     */
    static Scenario<Words> tables(boolean late) {
        return Scenario.<Words>named(late ? "audit-static-late-write" : "audit-class-init",
                "two tasks read a table their class's static initialiser fills")
                .setup(Words::new)
                .tasks((w, sc) -> {
                    sc.task("t0", () -> {
                        w.own0.writeOnce(1);
                        w.seen0 = Table.T[0];
                        if (late) {
                            Table.LATE[0] = 1;
                        }
                    });
                    sc.task("t1", () -> {
                        w.own1.writeOnce(1);
                        w.seen1 = Table.T[0];
                        if (late) {
                            Table.LATE[0] = 2;
                        }
                    });
                })
                .outcome(w -> w.seen0 + "," + w.seen1)
                .build();
    }

    static Scenario<Words> classInit() {
        return tables(false);
    }

    static Scenario<Words> staticLateWrite() {
        return tables(true);
    }
}
