package kmodel.tools.litmus;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import kmodel.kernel.lkmm.Fence;
import kmodel.kernel.lkmm.Order;

/** A parsed C litmus test (the LKMM's format): locations, processes, and the final condition. */
public final class Litmus {
    /** A pointer to location {@code i} is the value {@code PTR + i}. */
    static final long PTR = 1L << 48;

    String name;
    /** The {@code Result:} comment's verdict (Never, Sometimes, Always), or null. */
    String expected;
    /** Location names in order of first mention, with their initial values. */
    final Map<String, Long> locations = new LinkedHashMap<>();
    /** Initial values given as another location's name ({@code p=y}), resolved after parsing. */
    final Map<String, String> pointerInits = new LinkedHashMap<>();
    final List<Proc> procs = new ArrayList<>();
    /** {@code exists}, {@code ~exists} or {@code forall}. */
    String quantifier;
    Cond cond;
    /** Things to show in the states besides the condition's ({@code locations [...]}). */
    final List<Cond.Atom> shown = new ArrayList<>();

    /** The test's name (after {@code C}). */
    public String name() {
        return name;
    }

    int locIndex(String n) {
        int i = 0;
        for (String k : locations.keySet()) {
            if (k.equals(n)) {
                return i;
            }
            i++;
        }
        return -1;
    }

    String locName(int i) {
        int j = 0;
        for (String k : locations.keySet()) {
            if (j++ == i) {
                return k;
            }
        }
        return "?";
    }

    String show(long v) {
        if (v >= PTR && v < PTR + locations.size()) {
            return locName((int) (v - PTR));
        }
        return Long.toString(v);
    }

    /** One process {@code Pn}: its registers and its code. */
    static final class Proc {
        final int id;
        final List<String> regs = new ArrayList<>();
        final List<Instr> code = new ArrayList<>();

        Proc(int id) {
            this.id = id;
        }

        int reg(String n) {
            return regs.indexOf(n);
        }
    }

    /** What an instruction does. */
    enum Kind { LOAD, STORE, RMW, FENCE, LOCK, UNLOCK, ISLOCKED, ASSIGN, BRANCH, JUMP }

    /** Read-modify-write operations. */
    enum Op { XCHG, CMPXCHG, ADD_RETURN, FETCH_ADD, ADD, ADD_UNLESS }

    /** One instruction; {@code text} is how the source wrote it (for witnesses). */
    static final class Instr {
        final Kind kind;
        final int line;
        String text;
        int reg = -1;
        Expr addr;
        Expr value;
        Expr value2;
        Order order;
        Fence fence;
        Op op;
        int target;

        Instr(Kind kind, int line) {
            this.kind = kind;
            this.line = line;
        }
    }

    /** A pure expression over registers and constants (location names are pointers). */
    static final class Expr {
        final char kind; // c const, r register, u unary, b binary
        final long value;
        final int reg;
        final String op;
        final Expr a;
        final Expr b;

        private Expr(char kind, long value, int reg, String op, Expr a, Expr b) {
            this.kind = kind;
            this.value = value;
            this.reg = reg;
            this.op = op;
            this.a = a;
            this.b = b;
        }

        static Expr constant(long v) {
            return new Expr('c', v, -1, null, null, null);
        }

        static Expr reg(int r) {
            return new Expr('r', 0, r, null, null, null);
        }

        static Expr unary(String op, Expr a) {
            return new Expr('u', 0, -1, op, a, null);
        }

        static Expr binary(String op, Expr a, Expr b) {
            return new Expr('b', 0, -1, op, a, b);
        }

        long eval(long[] regs) {
            switch (kind) {
                case 'c':
                    return value;
                case 'r':
                    return regs[reg];
                case 'u': {
                    long x = a.eval(regs);
                    switch (op) {
                        case "!":
                            return x == 0 ? 1 : 0;
                        case "-":
                            return -x;
                        default:
                            return ~x;
                    }
                }
                default: {
                    long x = a.eval(regs);
                    if (op.equals("&&")) {
                        return x != 0 && b.eval(regs) != 0 ? 1 : 0;
                    }
                    if (op.equals("||")) {
                        return x != 0 || b.eval(regs) != 0 ? 1 : 0;
                    }
                    long y = b.eval(regs);
                    switch (op) {
                        case "+":
                            return x + y;
                        case "-":
                            return x - y;
                        case "*":
                            return x * y;
                        case "/":
                            return y == 0 ? 0 : x / y;
                        case "%":
                            return y == 0 ? 0 : x % y;
                        case "&":
                            return x & y;
                        case "|":
                            return x | y;
                        case "^":
                            return x ^ y;
                        case "==":
                            return x == y ? 1 : 0;
                        case "!=":
                            return x != y ? 1 : 0;
                        case "<":
                            return x < y ? 1 : 0;
                        case "<=":
                            return x <= y ? 1 : 0;
                        case ">":
                            return x > y ? 1 : 0;
                        default:
                            return x >= y ? 1 : 0;
                    }
                }
            }
        }

        /** Adds the registers this expression reads to {@code out}. */
        void regs(List<Integer> out) {
            if (kind == 'r') {
                out.add(reg);
            }
            if (a != null) {
                a.regs(out);
            }
            if (b != null) {
                b.regs(out);
            }
        }
    }

    /** The final condition: atoms {@code P:r=v} or {@code x=v} joined by {@code /\ \/ ~}. */
    static final class Cond {
        final char kind; // a atom, n not, & and, | or, t true, f false
        final Atom atom;
        final Cond a;
        final Cond b;

        Cond(char kind, Atom atom, Cond a, Cond b) {
            this.kind = kind;
            this.atom = atom;
            this.a = a;
            this.b = b;
        }

        /** {@code proc:reg} (proc >= 0) or a location (proc = -1); {@code value} when compared. */
        static final class Atom {
            final int proc;
            final String name;
            final long value;
            final boolean negated;

            Atom(int proc, String name, long value, boolean negated) {
                this.proc = proc;
                this.name = name;
                this.value = value;
                this.negated = negated;
            }

            String label() {
                return proc >= 0 ? proc + ":" + name : name;
            }
        }

        void atoms(List<Atom> out) {
            if (atom != null) {
                out.add(atom);
            }
            if (a != null) {
                a.atoms(out);
            }
            if (b != null) {
                b.atoms(out);
            }
        }
    }
}
