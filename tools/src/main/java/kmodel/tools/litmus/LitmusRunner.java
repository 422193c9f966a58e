package kmodel.tools.litmus;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import kmodel.kernel.lkmm.LkmmMemory;
import kmodel.kernel.lkmm.LkmmTask;
import kmodel.kernel.lkmm.Message;
import kmodel.kernel.lkmm.Order;
import kmodel.kernel.lkmm.View;
import kmodel.tools.litmus.Litmus.Cond;
import kmodel.tools.litmus.Litmus.Instr;
import kmodel.tools.litmus.Litmus.Kind;
import kmodel.tools.litmus.Litmus.Op;
import kmodel.tools.litmus.Litmus.Proc;

/**
 * Runs a litmus test under the LKMM approximation of {@code kmodel.kernel.lkmm}: an exhaustive
 * depth-first search over which process steps next, which store each load reads and where each
 * store goes in its location's modification order, with states already seen (same memory, views,
 * registers and reads-from so far) cut. Executions are counted once per candidate execution
 * (reads-from plus coherence order), as herd7 counts them, so Positive/Negative are comparable
 * with herd7's where both models allow the same executions.
 *
 * <p>Complete under the approximation: every execution the approximation allows is visited,
 * unless the state budget runs out ({@link Budget}). Not explored: loads reading stores that are
 * later in another process's program order than what it has executed (load buffering).
 */
public final class LitmusRunner {
    /** The search visited more states than it may. */
    public static final class Budget extends Exception {
        private static final long serialVersionUID = 1L;

        Budget(long n) {
            super("more than " + n + " states; the test is too large for this search", null, false, false);
        }
    }

    /** What one run found. */
    public static final class Outcome {
        public final String name;
        public final String quantifier;
        public final String expected;
        /** Final states (observed values) in order, with whether each satisfies the proposition. */
        public final Map<String, Boolean> states = new TreeMap<>();
        public int positive;
        public int negative;
        public int blocked;
        public long visited;
        /** A witness diagram, or null. */
        public String witness;

        Outcome(Litmus t) {
            this.name = t.name;
            this.quantifier = t.quantifier;
            this.expected = t.expected;
        }

        /** herd7's observation: Never, Sometimes or Always. */
        public String observation() {
            return positive == 0 ? "Never" : negative == 0 ? "Always" : "Sometimes";
        }

        /** Whether the condition is validated (herd7's Ok / No). */
        public boolean ok() {
            switch (quantifier) {
                case "exists":
                    return positive > 0;
                case "~exists":
                    return positive == 0;
                default:
                    return negative == 0;
            }
        }

        /** Whether the {@code Result:} comment disagrees (false when there is none). */
        public boolean disagrees() {
            return expected != null && !expected.equals(observation());
        }
    }

    /**
     * What the search explores: {@link #LKMM}, the approximation; {@link #SC}, sequential
     * consistency through the same memory (every load reads the coherence-last store, every store
     * goes last), the reference the equivalence property compares with; {@link #BROKEN_OLDEST_READ}
     * a deliberately broken model (a load reads only the oldest store it may), for that property's
     * test to fail on.
     */
    public enum Mode { LKMM, SC, BROKEN_OLDEST_READ }

    private final Litmus t;
    private final long maxStates;
    private Mode mode = Mode.LKMM;
    private final Set<String> seen = new HashSet<>();
    private final Map<String, Boolean> executions = new LinkedHashMap<>();
    private final List<Cond.Atom> observed = new ArrayList<>();
    private final Outcome out;
    private final int nprocs;

    private LitmusRunner(Litmus t, long maxStates) {
        this.t = t;
        this.maxStates = maxStates;
        this.out = new Outcome(t);
        this.nprocs = t.procs.size();
        List<Cond.Atom> all = new ArrayList<>(t.shown);
        t.cond.atoms(all);
        Map<String, Cond.Atom> byLabel = new TreeMap<>((a, b) -> order(a).compareTo(order(b)));
        for (Cond.Atom a : all) {
            byLabel.putIfAbsent(a.label(), a);
        }
        observed.addAll(byLabel.values());
    }

    private static String order(String label) {
        int c = label.indexOf(':');
        return c < 0 ? "~" + label : String.format("%03d", Integer.parseInt(label.substring(0, c))) + label.substring(c);
    }

    /** Runs {@code t}: its outcome, or {@link Budget} past {@code maxStates} states. */
    public static Outcome run(Litmus t, long maxStates) throws Budget, LitmusException {
        return run(t, maxStates, java.util.EnumSet.noneOf(kmodel.kernel.lkmm.Fence.class));
    }

    /** Runs {@code t} with the fences in {@code ablated} made no-ops (a deliberate break). */
    public static Outcome run(Litmus t, long maxStates, Set<kmodel.kernel.lkmm.Fence> ablated)
            throws Budget, LitmusException {
        return run(t, maxStates, ablated, Mode.LKMM);
    }

    /** Runs {@code t} in {@code mode}. */
    public static Outcome run(Litmus t, long maxStates, Set<kmodel.kernel.lkmm.Fence> ablated, Mode mode)
            throws Budget, LitmusException {
        LitmusRunner r = new LitmusRunner(t, maxStates);
        r.mode = mode;
        State s = new State(t, new LkmmMemory(ablated));
        r.dfs(s);
        for (boolean pos : r.executions.values()) {
            if (pos) {
                r.out.positive++;
            } else {
                r.out.negative++;
            }
        }
        r.out.visited = r.seen.size();
        return r.out;
    }

    /** One point of the search: memory, and per process its pc, registers and views. */
    private static final class State {
        final LkmmMemory mem;
        final int[] pc;
        final long[][] regs;
        final View[][] dep;
        final LkmmTask[] task;
        final int[] events;
        final int[][] rf;
        final Step trace;

        State(Litmus t, LkmmMemory empty) {
            mem = empty;
            for (Map.Entry<String, Long> e : t.locations.entrySet()) {
                mem.location(e.getKey(), e.getValue());
            }
            int n = t.procs.size();
            pc = new int[n];
            regs = new long[n][];
            dep = new View[n][];
            task = new LkmmTask[n];
            events = new int[n];
            rf = new int[n][];
            for (int i = 0; i < n; i++) {
                int nr = t.procs.get(i).regs.size();
                regs[i] = new long[nr];
                dep[i] = new View[nr];
                for (int r = 0; r < nr; r++) {
                    dep[i][r] = new View();
                }
                task[i] = new LkmmTask();
                rf[i] = new int[0];
            }
            trace = null;
        }

        State(State o, Step trace) {
            mem = o.mem.copy();
            pc = o.pc.clone();
            int n = pc.length;
            regs = new long[n][];
            dep = new View[n][];
            task = new LkmmTask[n];
            rf = new int[n][];
            for (int i = 0; i < n; i++) {
                regs[i] = o.regs[i].clone();
                dep[i] = o.dep[i].clone();
                task[i] = o.task[i].copy();
                rf[i] = o.rf[i];
            }
            events = o.events.clone();
            this.trace = trace;
        }

        String key() {
            StringBuilder sb = new StringBuilder(256);
            mem.key(sb);
            for (int i = 0; i < pc.length; i++) {
                sb.append("#P").append(pc[i]).append(':');
                for (long v : regs[i]) {
                    sb.append(v).append(',');
                }
                for (View v : dep[i]) {
                    mem.key(v, sb);
                    sb.append('/');
                }
                mem.key(task[i], sb);
                for (int e : rf[i]) {
                    sb.append('<').append(e);
                }
            }
            return sb.toString();
        }
    }

    /** One executed access, for the witness: a persistent list, newest first. */
    private static final class Step {
        final Step prev;
        final int proc;
        final String text;

        Step(Step prev, int proc, String text) {
            this.prev = prev;
            this.proc = proc;
            this.text = text;
        }
    }

    private void local(State s) {
        for (int p = 0; p < nprocs; p++) {
            List<Instr> code = t.procs.get(p).code;
            while (s.pc[p] < code.size()) {
                Instr i = code.get(s.pc[p]);
                if (i.kind == Kind.ASSIGN) {
                    s.regs[p][i.reg] = i.value.eval(s.regs[p]);
                    s.dep[p][i.reg] = depOf(s, p, i.value);
                    s.pc[p]++;
                } else if (i.kind == Kind.BRANCH) {
                    s.pc[p] = i.value.eval(s.regs[p]) != 0 ? s.pc[p] + 1 : i.target;
                } else if (i.kind == Kind.JUMP) {
                    s.pc[p] = i.target;
                } else {
                    break;
                }
            }
        }
    }

    private static View depOf(State s, int p, Litmus.Expr e) {
        List<Integer> rs = new ArrayList<>();
        e.regs(rs);
        View v = new View();
        for (int r : rs) {
            v.join(s.dep[p][r]);
        }
        return v;
    }

    private void dfs(State s) throws Budget, LitmusException {
        local(s);
        if (!seen.add(s.key())) {
            return;
        }
        if (seen.size() > maxStates) {
            throw new Budget(maxStates);
        }
        boolean done = true;
        boolean moved = false;
        for (int p = 0; p < nprocs; p++) {
            Proc proc = t.procs.get(p);
            if (s.pc[p] >= proc.code.size()) {
                continue;
            }
            done = false;
            moved |= steps(s, p, proc.code.get(s.pc[p]));
        }
        if (done) {
            terminal(s);
        } else if (!moved) {
            out.blocked++;
        }
    }

    /** The stores a load may read in this mode. */
    private List<Message> restrict(List<Message> ms) {
        if (ms.isEmpty() || mode == Mode.LKMM) {
            return ms;
        }
        return List.of(mode == Mode.SC ? ms.get(ms.size() - 1) : ms.get(0));
    }

    /** The places a store may go in this mode. */
    private List<Double> restrictSlots(List<Double> slots) {
        if (slots.isEmpty() || mode != Mode.SC) {
            return slots;
        }
        return List.of(slots.get(slots.size() - 1));
    }

    private int loc(State s, int p, Instr i) throws LitmusException {
        long a = i.addr.eval(s.regs[p]);
        if (a < Litmus.PTR || a >= Litmus.PTR + t.locations.size()) {
            throw LitmusException.syntax(i.line, "P" + p + " accesses address " + a + ", which is no location");
        }
        return (int) (a - Litmus.PTR);
    }

    private int event(State s, int p) {
        return p * 1000 + s.events[p]++;
    }

    private static int[] append(int[] a, int e) {
        int[] b = java.util.Arrays.copyOf(a, a.length + 1);
        b[a.length] = e;
        return b;
    }

    private String from(Message m) {
        return m.task < 0 ? "init" : "P" + m.task;
    }

    /** Tries every choice of {@code p}'s next access; whether it could move at all. */
    private boolean steps(State s, int p, Instr i) throws Budget, LitmusException {
        if (i.kind == Kind.FENCE) {
            State n = new State(s, new Step(s.trace, p, i.text));
            n.mem.fence(n.task[p], i.fence);
            n.pc[p]++;
            dfs(n);
            return true;
        }
        int loc = loc(s, p, i);
        View dep = depOf(s, p, i.addr);
        LkmmMemory mem = s.mem;
        LkmmTask task = s.task[p];
        boolean moved = false;
        switch (i.kind) {
            case LOAD:
            case ISLOCKED:
                for (Message m : restrict(mem.readable(task, loc, dep))) {
                    long v = i.kind == Kind.ISLOCKED ? (m.value != 0 ? 1 : 0) : m.value;
                    State n = new State(s, new Step(s.trace, p, i.text + "  = " + t.show(v) + " (" + from(m) + ")"));
                    n.mem.read(n.task[p], m, i.order);
                    n.regs[p][i.reg] = v;
                    View d = m.view.copy();
                    d.join(dep);
                    n.dep[p][i.reg] = d;
                    n.rf[p] = append(n.rf[p], m.event);
                    event(n, p);
                    n.pc[p]++;
                    dfs(n);
                    moved = true;
                }
                return moved;
            case STORE: {
                long v = i.value.eval(s.regs[p]);
                for (double ts : restrictSlots(mem.storeSlots(task, loc))) {
                    State n = new State(s, new Step(s.trace, p, i.text));
                    n.mem.write(n.task[p], loc, ts, v, i.order, p, event(n, p));
                    n.pc[p]++;
                    dfs(n);
                    moved = true;
                }
                return moved;
            }
            case LOCK:
                for (Message m : restrict(mem.rmwReadable(task, loc, dep))) {
                    if (m.value != 0) {
                        continue;
                    }
                    State n = new State(s, new Step(s.trace, p, i.text + "  (after " + from(m) + ")"));
                    n.rf[p] = append(n.rf[p], m.event);
                    n.mem.lock(n.task[p], m, p, event(n, p));
                    n.pc[p]++;
                    dfs(n);
                    moved = true;
                }
                return moved;
            case UNLOCK: {
                State n = new State(s, new Step(s.trace, p, i.text));
                n.mem.unlock(n.task[p], loc, p, event(n, p));
                n.pc[p]++;
                dfs(n);
                return true;
            }
            case RMW:
                return rmw(s, p, i, loc, dep);
            default:
                throw LitmusException.syntax(i.line, "internal: unexpected instruction " + i.kind);
        }
    }

    private boolean rmw(State s, int p, Instr i, int loc, View dep) throws Budget, LitmusException {
        LkmmMemory mem = s.mem;
        LkmmTask task = s.task[p];
        long arg = i.value.eval(s.regs[p]);
        boolean moved = false;
        List<Message> atomicReads = mem.rmwReadable(task, loc, dep);
        boolean conditional = i.op == Op.CMPXCHG || i.op == Op.ADD_UNLESS;
        List<Message> candidates = restrict(conditional ? mem.readable(task, loc, dep) : atomicReads);
        for (Message m : candidates) {
            long old = m.value;
            State n;
            long ret;
            boolean fails = i.op == Op.CMPXCHG ? old != arg
                    : i.op == Op.ADD_UNLESS && old == i.value2.eval(s.regs[p]);
            if (fails) {
                // A failed cmpxchg() or atomic_add_unless() is an unordered read (Documentation/atomic_t.txt).
                ret = i.op == Op.ADD_UNLESS ? 0 : old;
                n = new State(s, new Step(s.trace, p, i.text + "  = " + t.show(ret) + " (" + from(m) + ", fails)"));
                n.mem.read(n.task[p], m, Order.ONCE);
                n.rf[p] = append(n.rf[p], m.event);
                event(n, p);
            } else {
                if (!atomicReads.contains(m)) {
                    continue;
                }
                long nv;
                switch (i.op) {
                    case XCHG:
                        nv = arg;
                        break;
                    case CMPXCHG:
                        nv = i.value2.eval(s.regs[p]);
                        break;
                    default:
                        nv = old + arg;
                        break;
                }
                ret = i.op == Op.ADD_RETURN ? nv : i.op == Op.ADD_UNLESS ? 1 : old;
                n = new State(s, new Step(s.trace, p, i.text + (i.reg >= 0 ? "  = " + t.show(ret) : "")
                        + " (" + from(m) + ")"));
                n.rf[p] = append(n.rf[p], m.event);
                n.mem.rmw(n.task[p], m, nv, i.order, p, event(n, p));
            }
            if (i.reg >= 0) {
                n.regs[p][i.reg] = ret;
                View d = m.view.copy();
                d.join(dep);
                n.dep[p][i.reg] = d;
            }
            n.pc[p]++;
            dfs(n);
            moved = true;
        }
        return moved;
    }

    private long value(State s, Cond.Atom a) {
        if (a.proc >= 0) {
            return s.regs[a.proc][t.procs.get(a.proc).reg(a.name)];
        }
        return s.mem.last(t.locIndex(a.name)).value;
    }

    private boolean holds(State s, Cond c) {
        switch (c.kind) {
            case 'a':
                return (value(s, c.atom) == c.atom.value) != c.atom.negated;
            case 'n':
                return !holds(s, c.a);
            case '&':
                return holds(s, c.a) && holds(s, c.b);
            case '|':
                return holds(s, c.a) || holds(s, c.b);
            case 't':
                return true;
            default:
                return false;
        }
    }

    private void terminal(State s) {
        StringBuilder sig = new StringBuilder();
        for (int[] r : s.rf) {
            sig.append(java.util.Arrays.toString(r));
        }
        for (int l = 0; l < s.mem.locations(); l++) {
            sig.append('|');
            for (Message m : s.mem.stores(l)) {
                sig.append(m.event).append(',');
            }
        }
        StringBuilder st = new StringBuilder();
        for (Cond.Atom a : observed) {
            st.append(a.label()).append('=').append(t.show(value(s, a))).append("; ");
        }
        boolean pos = holds(s, t.cond);
        String state = st.toString().trim();
        out.states.put(state, pos);
        if (executions.put(sig.toString(), pos) == null && out.witness == null
                && (t.quantifier.equals("forall") ? !pos : pos)) {
            out.witness = diagram(s, state);
        }
    }

    private String diagram(State s, String state) {
        List<Step> steps = new ArrayList<>();
        for (Step x = s.trace; x != null; x = x.prev) {
            steps.add(0, x);
        }
        int[] width = new int[nprocs];
        for (int p = 0; p < nprocs; p++) {
            width[p] = ("P" + p).length();
        }
        for (Step x : steps) {
            width[x.proc] = Math.max(width[x.proc], x.text.length());
        }
        StringBuilder sb = new StringBuilder();
        row(sb, width, -1, null);
        for (Step x : steps) {
            row(sb, width, x.proc, x.text);
        }
        sb.append("Final: ").append(state).append('\n');
        sb.append("Coherence order:");
        for (int l = 0; l < s.mem.locations(); l++) {
            List<Message> ms = s.mem.stores(l);
            if (ms.size() < 2) {
                continue;
            }
            sb.append(' ').append(t.locName(l)).append(':');
            String sep = " ";
            for (Message m : ms) {
                sb.append(sep).append(t.show(m.value)).append(" (").append(from(m)).append(')');
                sep = " -> ";
            }
            sb.append(';');
        }
        return sb.append('\n').toString();
    }

    private void row(StringBuilder sb, int[] width, int proc, String text) {
        StringBuilder line = new StringBuilder("  ");
        for (int p = 0; p < nprocs; p++) {
            String cell = proc < 0 ? "P" + p : p == proc ? text : "";
            line.append(cell);
            if (p + 1 < nprocs) {
                for (int k = cell.length(); k < width[p]; k++) {
                    line.append(' ');
                }
                line.append(" | ");
            }
        }
        int end = line.length();
        while (end > 0 && line.charAt(end - 1) == ' ') {
            end--;
        }
        sb.append(line, 0, end).append('\n');
    }
}
