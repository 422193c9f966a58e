package kmodel.tools.litmus;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import kmodel.kernel.lkmm.Fence;
import kmodel.kernel.lkmm.Order;
import kmodel.tools.litmus.Litmus.Cond;
import kmodel.tools.litmus.Litmus.Expr;
import kmodel.tools.litmus.Litmus.Instr;
import kmodel.tools.litmus.Litmus.Kind;
import kmodel.tools.litmus.Litmus.Op;
import kmodel.tools.litmus.Litmus.Proc;

/**
 * Reads the LKMM's C litmus format (as in tools/memory-model/litmus-tests): {@code C name}, an
 * optional {@code (* Result: ... *)} comment, the initial state in braces, processes {@code
 * P0(...) { ... }}, an optional {@code locations [...]}, and {@code exists}, {@code ~exists} or
 * {@code forall} over registers and locations. Anything else is a {@link LitmusException} naming
 * its line; the parser allocates in proportion to its input only and bounds every count.
 */
public final class LitmusParser {
    /** The most processes, registers per process, instructions per process, locations. */
    static final int MAX_PROCS = 8;
    static final int MAX_REGS = 64;
    static final int MAX_INSTRS = 256;
    static final int MAX_LOCS = 64;
    static final int MAX_DEPTH = 64;

    private static final Pattern RESULT = Pattern.compile("Result:\\s*(\\w+)");

    private final String s;
    private int pos;
    private int line = 1;
    private boolean code;
    private int depth;
    private final Litmus t = new Litmus();
    private Proc proc;

    private LitmusParser(String s) {
        this.s = s;
    }

    /** Parses {@code text}: the test, or a {@link LitmusException} naming the line at fault. */
    public static Litmus parse(String text) throws LitmusException {
        return new LitmusParser(text).test();
    }

    // ---- lexical ----

    private LitmusException syntax(String what) {
        return LitmusException.syntax(line, what);
    }

    private LitmusException unsupported(String what) {
        return LitmusException.unsupported(line, what);
    }

    private void skip() throws LitmusException {
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c == '\n') {
                line++;
                pos++;
            } else if (Character.isWhitespace(c)) {
                pos++;
            } else if (s.startsWith("//", pos)) {
                while (pos < s.length() && s.charAt(pos) != '\n') {
                    pos++;
                }
            } else if (s.startsWith("/*", pos)) {
                comment("/*", "*/", false);
            } else if (!code && s.startsWith("(*", pos)) {
                comment("(*", "*)", true);
            } else {
                return;
            }
        }
    }

    private void comment(String open, String close, boolean nests) throws LitmusException {
        int start = line;
        int startPos = pos;
        int level = 0;
        while (pos < s.length()) {
            if (s.startsWith(close, pos)) {
                pos += close.length();
                if (--level == 0) {
                    Matcher m = RESULT.matcher(s.substring(startPos, pos));
                    if (m.find() && t.expected == null && t.name != null && t.procs.isEmpty()) {
                        t.expected = m.group(1);
                    }
                    return;
                }
            } else if ((level == 0 || nests) && s.startsWith(open, pos)) {
                pos += open.length();
                level++;
            } else {
                if (s.charAt(pos) == '\n') {
                    line++;
                }
                pos++;
            }
        }
        throw LitmusException.syntax(start, "comment never closed");
    }

    private boolean at(String tok) throws LitmusException {
        skip();
        return s.startsWith(tok, pos);
    }

    private boolean eat(String tok) throws LitmusException {
        if (at(tok)) {
            pos += tok.length();
            return true;
        }
        return false;
    }

    private void expect(String tok) throws LitmusException {
        if (!eat(tok)) {
            throw syntax("expected '" + tok + "' but found " + found());
        }
    }

    private String found() {
        if (pos >= s.length()) {
            return "the end of the file";
        }
        int end = pos;
        while (end < s.length() && end - pos < 20 && !Character.isWhitespace(s.charAt(end))) {
            end++;
        }
        return "'" + s.substring(pos, Math.max(end, pos + 1)) + "'";
    }

    private boolean atIdent() throws LitmusException {
        skip();
        return pos < s.length() && (Character.isLetter(s.charAt(pos)) || s.charAt(pos) == '_');
    }

    private String ident() throws LitmusException {
        if (!atIdent()) {
            throw syntax("expected a name but found " + found());
        }
        int start = pos;
        while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_')) {
            pos++;
        }
        return s.substring(start, pos);
    }

    private String peekIdent() throws LitmusException {
        int p = pos;
        int l = line;
        String id = atIdent() ? ident() : null;
        pos = p;
        line = l;
        return id;
    }

    private long number() throws LitmusException {
        skip();
        boolean neg = eat("-");
        skip();
        int start = pos;
        int radix = 10;
        if (s.startsWith("0x", pos) || s.startsWith("0X", pos)) {
            pos += 2;
            start = pos;
            radix = 16;
        }
        while (pos < s.length() && Character.digit(s.charAt(pos), radix) >= 0) {
            pos++;
        }
        if (start == pos || pos - start > 15) {
            throw syntax("expected a number but found " + found());
        }
        long v = Long.parseLong(s.substring(start, pos), radix);
        return neg ? -v : v;
    }

    private boolean atNumber() throws LitmusException {
        skip();
        int p = pos;
        if (p < s.length() && s.charAt(p) == '-') {
            p++;
        }
        return p < s.length() && Character.isDigit(s.charAt(p));
    }

    // ---- the test ----

    private Litmus test() throws LitmusException {
        skip();
        if (!eat("C")) {
            throw syntax("a C litmus test starts with 'C NAME' (found " + found() + ")");
        }
        skip();
        int start = pos;
        while (pos < s.length() && s.charAt(pos) != '\n' && s.charAt(pos) != '\r') {
            pos++;
        }
        t.name = s.substring(start, pos).trim();
        if (t.name.isEmpty() || t.name.length() > 200) {
            throw syntax("expected the test's name after 'C'");
        }
        skip();
        if (at("{")) {
            init();
        }
        while (true) {
            skip();
            String id = peekIdent();
            if (id != null && id.matches("P[0-9]{1,3}")) {
                process();
            } else {
                break;
            }
        }
        if (t.procs.isEmpty()) {
            throw syntax("expected a process 'P0(...) { ... }' but found " + found());
        }
        String id = peekIdent();
        if ("locations".equals(id)) {
            ident();
            expect("[");
            while (!eat("]")) {
                t.shown.add(atom(false));
                eat(";");
                if (t.shown.size() > MAX_LOCS) {
                    throw unsupported("more than " + MAX_LOCS + " locations shown");
                }
            }
        }
        if ("filter".equals(peekIdent())) {
            throw unsupported("filter");
        }
        if (eat("~")) {
            String q = ident();
            if (!q.equals("exists")) {
                throw syntax("expected 'exists' after '~'");
            }
            t.quantifier = "~exists";
        } else {
            String q = atIdent() ? ident() : "";
            if (!q.equals("exists") && !q.equals("forall")) {
                throw syntax("expected exists, ~exists or forall but found " + (q.isEmpty() ? found() : "'" + q + "'"));
            }
            t.quantifier = q;
        }
        t.cond = or();
        skip();
        if (pos < s.length()) {
            throw syntax("unexpected text after the condition: " + found());
        }
        for (java.util.Map.Entry<String, String> e : t.pointerInits.entrySet()) {
            int target = t.locIndex(e.getValue());
            if (target < 0) {
                throw syntax("initial value of " + e.getKey() + " names no location: " + e.getValue());
            }
            t.locations.put(e.getKey(), Litmus.PTR + target);
        }
        return t;
    }

    private void addLocation(String n) throws LitmusException {
        if (!t.locations.containsKey(n)) {
            if (t.locations.size() >= MAX_LOCS) {
                throw unsupported("more than " + MAX_LOCS + " locations");
            }
            t.locations.put(n, 0L);
        }
    }

    private void init() throws LitmusException {
        expect("{");
        while (!eat("}")) {
            if (pos >= s.length()) {
                throw syntax("initial state never closed");
            }
            // [type] [*]name [= value] ;   or   P:reg = value ;
            if (atNumber()) {
                throw unsupported("initial register value");
            }
            String n = ident();
            while (isType(n) || n.equals("const") || n.equals("unsigned") || n.equals("volatile")) {
                while (eat("*")) {
                    // pointer type
                }
                n = ident();
            }
            if (eat("[")) {
                throw unsupported("array in the initial state");
            }
            addLocation(n);
            if (eat("=")) {
                eat("&");
                if ("ATOMIC_INIT".equals(peekIdent())) {
                    ident();
                    expect("(");
                    t.locations.put(n, number());
                    expect(")");
                } else if (atNumber()) {
                    t.locations.put(n, number());
                } else {
                    String target = ident();
                    addLocation(target);
                    t.pointerInits.put(n, target);
                }
            }
            if (!eat(";")) {
                if (!at("}")) {
                    throw syntax("expected ';' in the initial state but found " + found());
                }
            }
        }
    }

    private static boolean isType(String n) {
        switch (n) {
            case "int":
            case "long":
            case "spinlock_t":
            case "atomic_t":
            case "atomic_long_t":
            case "u32":
            case "u64":
            case "unsigned":
            case "intptr_t":
            case "bool":
                return true;
            default:
                return false;
        }
    }

    private void process() throws LitmusException {
        String p = ident();
        int id = Integer.parseInt(p.substring(1));
        if (id != t.procs.size()) {
            throw syntax("expected P" + t.procs.size() + " but found " + p);
        }
        if (t.procs.size() >= MAX_PROCS) {
            throw unsupported("more than " + MAX_PROCS + " processes");
        }
        proc = new Proc(id);
        t.procs.add(proc);
        expect("(");
        if (!eat(")")) {
            do {
                String ty = ident();
                if (ty.equals("struct") || ty.equals("union")) {
                    throw unsupported(ty + " parameter");
                }
                if (!isType(ty)) {
                    throw unsupported("parameter type " + ty);
                }
                while (eat("*")) {
                    // pointer
                }
                String n = ident();
                if (eat("[")) {
                    throw unsupported("array parameter");
                }
                addLocation(n);
            } while (eat(","));
            expect(")");
        }
        code = true;
        expect("{");
        while (!eat("}")) {
            statement();
        }
        code = false;
    }

    private int emit(Instr i) throws LitmusException {
        if (proc.code.size() >= MAX_INSTRS) {
            throw unsupported("more than " + MAX_INSTRS + " instructions in one process");
        }
        proc.code.add(i);
        return proc.code.size() - 1;
    }

    private int declareReg(String n) throws LitmusException {
        if (t.locations.containsKey(n)) {
            throw unsupported("register " + n + " named like a location");
        }
        int r = proc.reg(n);
        if (r < 0) {
            if (proc.regs.size() >= MAX_REGS) {
                throw unsupported("more than " + MAX_REGS + " registers");
            }
            proc.regs.add(n);
            r = proc.regs.size() - 1;
        }
        return r;
    }

    private void statement() throws LitmusException {
        if (pos >= s.length()) {
            throw syntax("process P" + proc.id + " never closed");
        }
        if (++depth > MAX_DEPTH) {
            throw unsupported("statements nested deeper than " + MAX_DEPTH);
        }
        try {
            statement0();
        } finally {
            depth--;
        }
    }

    private void statement0() throws LitmusException {
        skip();
        int start = pos;
        int before = proc.code.size();
        statement1();
        if (proc.code.size() == before + 1 && proc.code.get(before).kind != Kind.BRANCH) {
            String text = s.substring(start, pos).trim();
            if (text.endsWith(";")) {
                text = text.substring(0, text.length() - 1).trim();
            }
            proc.code.get(before).text = text.replaceAll("\\s+", " ");
        }
    }

    private void statement1() throws LitmusException {
        if (eat(";")) {
            return;
        }
        if (eat("{")) {
            while (!eat("}")) {
                statement();
            }
            return;
        }
        int ln = line;
        String id = peekIdent();
        if (id == null && at("(")) {
            int p = pos;
            int l = line;
            expect("(");
            if ("void".equals(peekIdent())) {
                ident();
                expect(")");
                String fn = ident();
                if (!at("(")) {
                    throw unsupported("(void) before something other than a call");
                }
                call(fn, declareReg("(void)"), ln);
                expect(";");
                return;
            }
            pos = p;
            line = l;
        }
        if (id == null) {
            if (at("*")) {
                // *x = e;  (a plain store)
                expect("*");
                Expr addr = primary();
                expect("=");
                Instr i = new Instr(Kind.STORE, ln);
                i.addr = addr;
                i.value = expr();
                i.order = Order.PLAIN;
                i.text = "*" + "store";
                emit(i);
                expect(";");
                return;
            }
            throw syntax("expected a statement but found " + found());
        }
        if (isType(id)) {
            ident();
            do {
                while (eat("*")) {
                    // pointer
                }
                int r = declareReg(ident());
                if (eat("=")) {
                    assign(r, ln);
                }
            } while (eat(","));
            expect(";");
            return;
        }
        switch (id) {
            case "if": {
                ident();
                expect("(");
                Expr c = expr();
                expect(")");
                Instr br = new Instr(Kind.BRANCH, ln);
                br.value = c;
                emit(br);
                statement();
                if ("else".equals(peekIdent())) {
                    ident();
                    Instr j = new Instr(Kind.JUMP, line);
                    int ji = emit(j);
                    br.target = proc.code.size();
                    statement();
                    j.target = proc.code.size();
                    assert ji >= 0;
                } else {
                    br.target = proc.code.size();
                }
                return;
            }
            case "while":
            case "for":
            case "do":
            case "goto":
            case "switch":
            case "return":
                throw unsupported(id);
            default:
                break;
        }
        ident();
        if (at("(")) {
            call(id, -1, ln);
            expect(";");
            return;
        }
        int r = proc.reg(id);
        if (r < 0) {
            if (t.locations.containsKey(id)) {
                throw unsupported("assignment to the pointer parameter " + id);
            }
            throw syntax("undeclared register " + id);
        }
        if (at("++") || at("--") || at("+=") || at("-=")) {
            throw unsupported("compound assignment");
        }
        expect("=");
        assign(r, ln);
        expect(";");
    }

    private void assign(int r, int ln) throws LitmusException {
        String id = peekIdent();
        if (at("*")) {
            expect("*");
            Instr i = new Instr(Kind.LOAD, ln);
            i.reg = r;
            i.addr = primary();
            i.order = Order.PLAIN;
            i.text = proc.regs.get(r) + " = *" + "load";
            emit(i);
            return;
        }
        if (id != null && proc.reg(id) < 0 && !t.locations.containsKey(id)) {
            int p = pos;
            int l = line;
            ident();
            if (at("(")) {
                call(id, r, ln);
                return;
            }
            pos = p;
            line = l;
        }
        Instr i = new Instr(Kind.ASSIGN, ln);
        i.reg = r;
        i.value = expr();
        emit(i);
    }

    /** The ordering a name's suffix gives ({@code _relaxed}, {@code _acquire}, {@code _release}). */
    private static Order suffix(String name, Order dflt) {
        if (name.endsWith("_relaxed")) {
            return Order.ONCE;
        }
        if (name.endsWith("_acquire")) {
            return Order.ACQUIRE;
        }
        if (name.endsWith("_release")) {
            return Order.RELEASE;
        }
        return dflt;
    }

    private static String base(String name) {
        return name.replaceAll("_(relaxed|acquire|release)$", "");
    }

    private List<Expr> args() throws LitmusException {
        expect("(");
        List<Expr> a = new ArrayList<>();
        if (!eat(")")) {
            do {
                if (a.size() > 8) {
                    throw unsupported("a call with more than 8 arguments");
                }
                a.add(expr());
            } while (eat(","));
            expect(")");
        }
        return a;
    }

    /** An argument that must be {@code *E}: E, the address. */
    private Expr derefArg() throws LitmusException {
        if (!eat("*")) {
            throw syntax("expected '*' (an lvalue such as *x) but found " + found());
        }
        return primary();
    }

    private void arity(String name, List<Expr> a, int n) throws LitmusException {
        if (a.size() != n) {
            throw syntax(name + "() takes " + n + " argument" + (n == 1 ? "" : "s") + ", not " + a.size());
        }
    }

    private void call(String name, int reg, int ln) throws LitmusException {
        Instr i;
        String text = name + "(...)";
        Fence f = fence(name);
        if (f != null) {
            if (reg >= 0) {
                throw syntax(name + "() has no value");
            }
            arity(name, args(), 0);
            i = new Instr(Kind.FENCE, ln);
            i.fence = f;
            i.text = name + "()";
            emit(i);
            return;
        }
        switch (name) {
            case "READ_ONCE":
            case "rcu_dereference":
            case "srcu_dereference": {
                expect("(");
                i = new Instr(Kind.LOAD, ln);
                i.addr = derefArg();
                if (name.equals("srcu_dereference")) {
                    throw unsupported("srcu_dereference");
                }
                expect(")");
                i.order = Order.ONCE;
                needValue(name, reg);
                break;
            }
            case "WRITE_ONCE":
            case "rcu_assign_pointer": {
                expect("(");
                i = new Instr(Kind.STORE, ln);
                i.addr = derefArg();
                expect(",");
                i.value = expr();
                expect(")");
                i.order = name.equals("WRITE_ONCE") ? Order.ONCE : Order.RELEASE;
                noValue(name, reg);
                break;
            }
            case "smp_load_acquire":
            case "atomic_read":
            case "atomic_read_acquire": {
                List<Expr> a = args();
                arity(name, a, 1);
                i = new Instr(Kind.LOAD, ln);
                i.addr = a.get(0);
                i.order = name.equals("atomic_read") ? Order.ONCE : Order.ACQUIRE;
                needValue(name, reg);
                break;
            }
            case "smp_store_release":
            case "atomic_set":
            case "atomic_set_release": {
                List<Expr> a = args();
                arity(name, a, 2);
                i = new Instr(Kind.STORE, ln);
                i.addr = a.get(0);
                i.value = a.get(1);
                i.order = name.equals("atomic_set") ? Order.ONCE : Order.RELEASE;
                noValue(name, reg);
                break;
            }
            case "spin_lock":
            case "spin_unlock": {
                List<Expr> a = args();
                arity(name, a, 1);
                i = new Instr(name.equals("spin_lock") ? Kind.LOCK : Kind.UNLOCK, ln);
                i.addr = a.get(0);
                noValue(name, reg);
                break;
            }
            case "spin_is_locked": {
                List<Expr> a = args();
                arity(name, a, 1);
                i = new Instr(Kind.ISLOCKED, ln);
                i.addr = a.get(0);
                i.order = Order.ONCE;
                needValue(name, reg);
                break;
            }
            case "rcu_read_lock":
            case "rcu_read_unlock": {
                // Without a grace period (synchronize_rcu() is unsupported) these order nothing.
                arity(name, args(), 0);
                return;
            }
            default:
                i = atomic(name, reg, ln);
                break;
        }
        i.reg = reg;
        i.text = text;
        emit(i);
    }

    private void needValue(String name, int reg) throws LitmusException {
        if (reg < 0) {
            throw unsupported(name + "() whose value is not assigned to a register");
        }
    }

    private void noValue(String name, int reg) throws LitmusException {
        if (reg >= 0) {
            throw syntax(name + "() has no value");
        }
    }

    private Instr atomic(String name, int reg, int ln) throws LitmusException {
        String b = base(name);
        boolean isVoid;
        Op op;
        long sign = 1;
        int nargs;
        boolean deltaFirst = false;
        long fixed = 0;
        boolean hasFixed = false;
        switch (b) {
            case "xchg":
            case "atomic_xchg":
                op = Op.XCHG;
                nargs = 2;
                isVoid = false;
                break;
            case "cmpxchg":
            case "atomic_cmpxchg":
                op = Op.CMPXCHG;
                nargs = 3;
                isVoid = false;
                break;
            case "atomic_add_unless":
                op = Op.ADD_UNLESS;
                nargs = 3;
                isVoid = false;
                break;
            case "atomic_add":
            case "atomic_sub":
                op = Op.ADD;
                nargs = 2;
                deltaFirst = true;
                sign = b.endsWith("sub") ? -1 : 1;
                isVoid = true;
                break;
            case "atomic_inc":
            case "atomic_dec":
                op = Op.ADD;
                nargs = 1;
                hasFixed = true;
                fixed = b.endsWith("dec") ? -1 : 1;
                isVoid = true;
                break;
            case "atomic_add_return":
            case "atomic_sub_return":
                op = Op.ADD_RETURN;
                nargs = 2;
                deltaFirst = true;
                sign = b.contains("sub") ? -1 : 1;
                isVoid = false;
                break;
            case "atomic_inc_return":
            case "atomic_dec_return":
                op = Op.ADD_RETURN;
                nargs = 1;
                hasFixed = true;
                fixed = b.contains("dec") ? -1 : 1;
                isVoid = false;
                break;
            case "atomic_fetch_add":
            case "atomic_fetch_sub":
                op = Op.FETCH_ADD;
                nargs = 2;
                deltaFirst = true;
                sign = b.contains("sub") ? -1 : 1;
                isVoid = false;
                break;
            case "atomic_fetch_inc":
            case "atomic_fetch_dec":
                op = Op.FETCH_ADD;
                nargs = 1;
                hasFixed = true;
                fixed = b.contains("dec") ? -1 : 1;
                isVoid = false;
                break;
            default:
                throw unsupported(name + "()");
        }
        if (isVoid && !b.equals(name)) {
            throw unsupported(name + "()");
        }
        List<Expr> a = args();
        arity(name, a, nargs);
        Instr i = new Instr(Kind.RMW, ln);
        i.op = op;
        i.order = suffix(name, isVoid ? Order.ONCE : Order.FULL);
        if (hasFixed) {
            i.addr = a.get(0);
            i.value = Expr.constant(fixed);
        } else if (deltaFirst) {
            i.addr = a.get(1);
            i.value = sign < 0 ? Expr.unary("-", a.get(0)) : a.get(0);
        } else {
            i.addr = a.get(0);
            i.value = a.get(1);
            if (op == Op.CMPXCHG || op == Op.ADD_UNLESS) {
                i.value2 = a.get(2);
            }
        }
        if (isVoid) {
            noValue(name, reg);
        } else {
            needValue(name, reg);
        }
        return i;
    }

    private static Fence fence(String name) {
        switch (name) {
            case "smp_mb":
                return Fence.MB;
            case "smp_rmb":
                return Fence.RMB;
            case "smp_wmb":
                return Fence.WMB;
            case "smp_mb__before_atomic":
                return Fence.MB_BEFORE_ATOMIC;
            case "smp_mb__after_atomic":
                return Fence.MB_AFTER_ATOMIC;
            case "smp_mb__after_spinlock":
                return Fence.MB_AFTER_SPINLOCK;
            case "barrier":
                return Fence.BARRIER;
            default:
                return null;
        }
    }

    // ---- expressions (pure: registers, constants, location names as pointers) ----

    private static final String[][] LEVELS = {
        {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"+", "-"}, {"*", "/", "%"}
    };

    private Expr expr() throws LitmusException {
        if (++depth > MAX_DEPTH) {
            throw unsupported("an expression nested deeper than " + MAX_DEPTH);
        }
        try {
            return level(0);
        } finally {
            depth--;
        }
    }

    private Expr level(int k) throws LitmusException {
        if (k == LEVELS.length) {
            return unary();
        }
        Expr e = level(k + 1);
        while (true) {
            String op = null;
            for (String o : LEVELS[k]) {
                if (at(o) && !(o.equals("|") && at("||")) && !(o.equals("&") && at("&&"))
                        && !(o.length() == 1 && (o.equals("<") || o.equals(">")) && at(o + "="))) {
                    op = o;
                    break;
                }
            }
            if (op == null) {
                return e;
            }
            pos += op.length();
            e = Expr.binary(op, e, level(k + 1));
        }
    }

    private Expr unary() throws LitmusException {
        if (eat("!")) {
            return Expr.unary("!", unaryNested());
        }
        if (eat("~")) {
            return Expr.unary("~", unaryNested());
        }
        if (at("-") && !atNumber()) {
            eat("-");
            return Expr.unary("-", unaryNested());
        }
        if (at("*")) {
            throw unsupported("a memory access (*) inside an expression");
        }
        if (eat("&")) {
            String n = ident();
            if (!t.locations.containsKey(n)) {
                throw syntax("&" + n + ": no such location");
            }
            return Expr.constant(Litmus.PTR + t.locIndex(n));
        }
        return primary();
    }

    private Expr unaryNested() throws LitmusException {
        if (++depth > MAX_DEPTH) {
            throw unsupported("an expression nested deeper than " + MAX_DEPTH);
        }
        try {
            return unary();
        } finally {
            depth--;
        }
    }

    private Expr primary() throws LitmusException {
        if (eat("(")) {
            if (atIdent() && isType(peekIdent())) {
                throw unsupported("a cast");
            }
            Expr e = expr();
            expect(")");
            return e;
        }
        if (atNumber()) {
            return Expr.constant(number());
        }
        String n = ident();
        if (at("(")) {
            throw unsupported(n + "() inside an expression");
        }
        if (n.equals("true")) {
            return Expr.constant(1);
        }
        if (n.equals("false") || n.equals("NULL")) {
            return Expr.constant(0);
        }
        int r = proc == null ? -1 : proc.reg(n);
        if (r >= 0) {
            return Expr.reg(r);
        }
        if (t.locations.containsKey(n)) {
            return Expr.constant(Litmus.PTR + t.locIndex(n));
        }
        throw syntax("unknown name " + n);
    }

    // ---- the condition ----

    private Cond or() throws LitmusException {
        if (++depth > MAX_DEPTH) {
            throw unsupported("a condition nested deeper than " + MAX_DEPTH);
        }
        try {
            Cond c = and();
            while (eat("\\/")) {
                c = new Cond('|', null, c, and());
            }
            return c;
        } finally {
            depth--;
        }
    }

    private Cond and() throws LitmusException {
        Cond c = not();
        while (eat("/\\")) {
            c = new Cond('&', null, c, not());
        }
        return c;
    }

    private Cond not() throws LitmusException {
        if (eat("~")) {
            if (++depth > MAX_DEPTH) {
                throw unsupported("a condition nested deeper than " + MAX_DEPTH);
            }
            try {
                return new Cond('n', null, not(), null);
            } finally {
                depth--;
            }
        }
        if (eat("(")) {
            Cond c = or();
            expect(")");
            return c;
        }
        String id = peekIdent();
        if ("true".equals(id) || "false".equals(id)) {
            ident();
            return new Cond(id.equals("true") ? 't' : 'f', null, null, null);
        }
        return new Cond('a', atom(true), null, null);
    }

    private Cond.Atom atom(boolean withValue) throws LitmusException {
        int p = -1;
        String name;
        if (atNumber()) {
            long n = number();
            if (n < 0 || n >= t.procs.size()) {
                throw syntax("no process " + n);
            }
            p = (int) n;
            expect(":");
            name = ident();
            if (t.procs.get(p).reg(name) < 0) {
                throw syntax("P" + p + " has no register " + name);
            }
        } else {
            name = ident();
            if (name.equals("int") || name.equals("atomic_t")) {
                name = ident();
            }
            if (!t.locations.containsKey(name)) {
                throw syntax("no location " + name);
            }
        }
        if (!withValue) {
            return new Cond.Atom(p, name, 0, false);
        }
        boolean negated = false;
        if (eat("!=")) {
            negated = true;
        } else {
            expect("=");
        }
        long v;
        if (atNumber()) {
            v = number();
        } else {
            String target = ident();
            if (!t.locations.containsKey(target)) {
                throw syntax("no location " + target);
            }
            v = Litmus.PTR + t.locIndex(target);
        }
        return new Cond.Atom(p, name, v, negated);
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
