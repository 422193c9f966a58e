package kmodel.verification.scenarios;

/**
 * One operation of a swarm recipe ({@link SwarmRecipe}): what a task does next, on one page index
 * (or, for {@link Kind#KILL}, on another task). Text form {@code name(arg)}, e.g. {@code lock(0)},
 * {@code kill(t1)}. Immutable; equal when kind and argument are equal.
 */
public final class SwarmOp {
    /** The operations a recipe composes; each names the modelled kernel function it runs. */
    public enum Kind {
        /** {@code find_get_page()} then {@code lock_page()}; a page not in the cache is skipped. */
        LOCK("lock"),
        /** {@code find_get_page()} then {@code trylock_page()}: holds the page only if it succeeded. */
        TRYLOCK("trylock"),
        /** {@code find_get_page()} then {@code lock_page_killable()}: holds it only if it returned 0. */
        KILLABLE("killable"),
        /** {@code lock_page_async()} with a task_work retry ({@code AsyncRetry}) until it owns the lock. */
        ALOCK("alock"),
        /** {@code unlock_page()} and {@code put_page()} of the page this task holds, if it holds it. */
        UNLOCK("unlock"),
        /** {@code wait_on_page_locked()}. */
        WAITLOCKED("waitlocked"),
        /** {@code wait_on_page_locked_async()} with a task_work retry until the page is seen unlocked. */
        AWAIT("await"),
        /** {@code wait_on_page_writeback()}. */
        WAITWB("waitwb"),
        /** A {@code read(2)} of one page: {@code generic_file_read_iter()}, flags 0. */
        READ("read"),
        /** An {@code IOCB_WAITQ} read of one page with a task_work retry ({@code ReadWorld.readAsync}). */
        READQ("readq"),
        /** An {@code IOCB_NOWAIT} read of one page (may start read-ahead and return {@code -EAGAIN}). */
        NOWAIT("nowait"),
        /** Truncation of one page: {@code find_lock_page()}, wait for writeback, delete, unlock, put. */
        TRUNC("trunc"),
        /** {@code send_sig(SIGKILL)} to task {@code t<arg>}. */
        KILL("kill"),
        /** {@code end_page_writeback()}, in interrupt context (the recipe's {@code irq} task only). */
        ENDWB("endwb");

        private final String text;

        Kind(String text) {
            this.text = text;
        }

        /** The name in recipe text. */
        public String text() {
            return text;
        }

        /** Blocking acquisitions of a page lock: allowed only above every page the task may hold. */
        boolean acquiresBlocking() {
            return this == LOCK || this == KILLABLE || this == ALOCK;
        }

        /** Operations that may leave the task holding the page lock. */
        boolean acquires() {
            return acquiresBlocking() || this == TRYLOCK;
        }

        /** Operations that sleep on something other than writeback and must run holding no page lock. */
        boolean needsNoLocksHeld() {
            return this == WAITLOCKED || this == AWAIT || this == READ || this == READQ || this == NOWAIT
                    || this == TRUNC;
        }

        /** Operations that wait for task_work in TASK_INTERRUPTIBLE: their task must not be sent SIGKILL. */
        boolean waitsForTaskWork() {
            return this == ALOCK || this == AWAIT || this == READQ;
        }

        static Kind parse(String name) {
            for (Kind k : values()) {
                if (k.text.equals(name)) {
                    return k;
                }
            }
            return null;
        }
    }

    private final Kind kind;
    private final int arg;

    /** {@code kind} on page (or, for KILL, task) {@code arg}. */
    public SwarmOp(Kind kind, int arg) {
        this.kind = kind;
        this.arg = arg;
    }

    public Kind kind() {
        return kind;
    }

    /** The page index, or for {@link Kind#KILL} the target task's index. */
    public int arg() {
        return arg;
    }

    /** Text form, e.g. {@code lock(0)} or {@code kill(t1)}. */
    @Override
    public String toString() {
        return kind.text + "(" + (kind == Kind.KILL ? "t" : "") + arg + ")";
    }

    /**
     * Parses {@code name(arg)}; IllegalArgumentException with a one-line message otherwise.
     * Ranges are checked by the recipe.
     */
    static SwarmOp parse(String text) {
        int open = text.indexOf('(');
        if (open <= 0 || !text.endsWith(")")) {
            throw new IllegalArgumentException("swarm recipe: expected an operation like lock(0), got '"
                    + SwarmRecipe.abbreviate(text) + "'");
        }
        String name = text.substring(0, open);
        Kind kind = Kind.parse(name);
        if (kind == null) {
            throw new IllegalArgumentException("swarm recipe: unknown operation '" + SwarmRecipe.abbreviate(name)
                    + "' (known: " + known() + ")");
        }
        String a = text.substring(open + 1, text.length() - 1);
        if (kind == Kind.KILL) {
            if (!a.startsWith("t")) {
                throw new IllegalArgumentException("swarm recipe: kill takes a task like kill(t1), got '"
                        + SwarmRecipe.abbreviate(text) + "'");
            }
            a = a.substring(1);
        }
        return new SwarmOp(kind, SwarmRecipe.parseSmall(a, "argument of " + name));
    }

    private static String known() {
        StringBuilder sb = new StringBuilder();
        for (Kind k : Kind.values()) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(k.text);
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SwarmOp && ((SwarmOp) o).kind == kind && ((SwarmOp) o).arg == arg;
    }

    @Override
    public int hashCode() {
        return kind.hashCode() * 31 + arg;
    }
}
