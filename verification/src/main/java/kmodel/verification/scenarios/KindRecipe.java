package kmodel.verification.scenarios;

import kmodel.sim.world.Texts;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A recipe of a subsystem swarm ({@link SwarmWorlds}): its kind word, head fields in the kind's
 * order, and tasks of operations. One-line text form, e.g.
 *
 * <pre>
 * uring file=btrfs dev=nowait pages=1 tags=1 ra=0 cached=- path=510 plug=0 series=1 t0=read(0),exit
 * </pre>
 *
 * A field's value is a small number, a word, or a list of small numbers ({@code 0,1}, {@code -}
 * for none); an operation is {@code name} or {@code name(n)}. The kind ({@link SwarmKind}) says
 * which fields, words, ranges and operations exist and what is well-formed; a recipe exists only
 * well-formed ({@link SwarmKind#validate} runs in {@link #parse} and in every generator), and
 * {@code parse(r.toString()).equals(r)}.
 */
public final class KindRecipe {
    /** Most tasks of a kind recipe. */
    public static final int MAX_TASKS = 4;
    /** Most operations of one task. */
    public static final int MAX_OPS = 8;

    /** One operation: {@code name} ({@code arg} -1) or {@code name(arg)}. */
    public static final class Op {
        public final String name;
        public final int arg;

        public Op(String name, int arg) {
            this.name = name;
            this.arg = arg;
        }

        @Override
        public String toString() {
            return arg < 0 ? name : name + "(" + arg + ")";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Op && ((Op) o).name.equals(name) && ((Op) o).arg == arg;
        }

        @Override
        public int hashCode() {
            return name.hashCode() * 31 + arg;
        }
    }

    private final SwarmKind kind;
    private final Map<String, String> head;
    private final List<List<Op>> tasks;

    /** A recipe of {@code kind}; IllegalArgumentException (one line) when it is not well-formed. */
    public KindRecipe(SwarmKind kind, Map<String, String> head, List<List<Op>> tasks) {
        this.kind = kind;
        this.head = Collections.unmodifiableMap(new LinkedHashMap<>(head));
        List<List<Op>> t = new ArrayList<>();
        for (List<Op> ops : tasks) {
            t.add(Collections.unmodifiableList(new ArrayList<>(ops)));
        }
        this.tasks = Collections.unmodifiableList(t);
        if (tasks.isEmpty() || tasks.size() > MAX_TASKS) {
            throw bad("tasks must be 1-" + MAX_TASKS + ", got " + tasks.size());
        }
        for (int i = 0; i < tasks.size(); i++) {
            if (tasks.get(i).isEmpty() || tasks.get(i).size() > MAX_OPS) {
                throw bad("t" + i + " operations must be 1-" + MAX_OPS + ", got " + tasks.get(i).size());
            }
        }
        kind.validate(this);
    }

    public SwarmKind kind() {
        return kind;
    }

    /** A number field. */
    public int num(String name) {
        return Integer.parseInt(head.get(name));
    }

    /** A word field. */
    public String word(String name) {
        return head.get(name);
    }

    /** A list field. */
    public List<Integer> list(String name) {
        String v = head.get(name);
        List<Integer> l = new ArrayList<>();
        if (!v.equals("-")) {
            for (String p : v.split(",")) {
                l.add(Integer.parseInt(p));
            }
        }
        return l;
    }

    public List<List<Op>> tasks() {
        return tasks;
    }

    /** Whether some task has an operation called {@code name}. */
    public boolean has(String name) {
        for (List<Op> ops : tasks) {
            for (Op op : ops) {
                if (op.name.equals(name)) {
                    return true;
                }
            }
        }
        return false;
    }

    static IllegalArgumentException bad(String what) {
        return new IllegalArgumentException("swarm recipe: " + what);
    }

    /** The list text of {@code l}: {@code 0,1} or {@code -}. */
    public static String listText(List<Integer> l) {
        if (l.isEmpty()) {
            return "-";
        }
        StringBuilder sb = new StringBuilder();
        for (int p : l) {
            sb.append(sb.length() > 0 ? "," : "").append(p);
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(kind.name());
        head.forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
        for (int i = 0; i < tasks.size(); i++) {
            sb.append(" t").append(i).append('=');
            for (int j = 0; j < tasks.get(i).size(); j++) {
                sb.append(j > 0 ? "," : "").append(tasks.get(i).get(j));
            }
        }
        return sb.toString();
    }

    /**
     * Parses the text of a recipe of {@code kind} (whose first word is the kind's name);
     * IllegalArgumentException with one line ({@code swarm recipe: ...}) on anything else.
     */
    static KindRecipe parse(SwarmKind kind, String text) {
        if (text.length() > SwarmRecipe.MAX_TEXT) {
            throw bad("longer than " + SwarmRecipe.MAX_TEXT + " characters");
        }
        String[] fields = text.strip().split(" +");
        List<SwarmKind.Field> schema = kind.fields();
        if (fields.length < schema.size() + 2) {
            StringBuilder want = new StringBuilder();
            for (SwarmKind.Field f : schema) {
                want.append(f.name).append("=, ");
            }
            throw bad("a " + kind.name() + " recipe needs " + want + "then t0=..., got '"
                    + SwarmRecipe.abbreviate(text) + "'");
        }
        Map<String, String> head = new LinkedHashMap<>();
        for (int i = 0; i < schema.size(); i++) {
            SwarmKind.Field f = schema.get(i);
            String field = fields[i + 1];
            if (!field.startsWith(f.name + "=")) {
                throw bad("expected " + f.name + "=..., got '" + SwarmRecipe.abbreviate(field) + "'");
            }
            head.put(f.name, f.check(field.substring(f.name.length() + 1)));
        }
        List<List<Op>> tasks = new ArrayList<>();
        for (int i = schema.size() + 1; i < fields.length; i++) {
            String name = "t" + tasks.size();
            if (tasks.size() >= MAX_TASKS) {
                throw bad("more than " + MAX_TASKS + " tasks, or an unexpected field '"
                        + SwarmRecipe.abbreviate(fields[i]) + "'");
            }
            if (!fields[i].startsWith(name + "=")) {
                throw bad("expected " + name + "=..., got '" + SwarmRecipe.abbreviate(fields[i]) + "'");
            }
            String[] parts = fields[i].substring(name.length() + 1).split(",", -1);
            if (parts.length > MAX_OPS) {
                throw bad(name + " has more than " + MAX_OPS + " operations");
            }
            List<Op> ops = new ArrayList<>();
            for (String p : parts) {
                ops.add(parseOp(kind, p));
            }
            tasks.add(ops);
        }
        return new KindRecipe(kind, head, tasks);
    }

    private static Op parseOp(SwarmKind kind, String text) {
        String name = text;
        int arg = -1;
        int open = text.indexOf('(');
        if (open >= 0) {
            if (open == 0 || !text.endsWith(")")) {
                throw bad("expected an operation like " + kind.exampleOp() + ", got '" + SwarmRecipe.abbreviate(text) + "'");
            }
            name = text.substring(0, open);
            arg = SwarmRecipe.parseSmall(text.substring(open + 1, text.length() - 1), "argument of " + name);
        }
        Boolean takesArg = kind.ops().get(name);
        if (takesArg == null) {
            throw bad("unknown " + kind.name() + " operation '" + SwarmRecipe.abbreviate(name) + "' (known: "
                    + Texts.join(", ", kind.ops().keySet()) + ")");
        }
        if (takesArg != (arg >= 0)) {
            throw bad(takesArg ? name + " takes an argument, like " + name + "(0)" : name + " takes no argument");
        }
        return new Op(name, arg);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KindRecipe && ((KindRecipe) o).kind == kind && ((KindRecipe) o).head.equals(head)
                && ((KindRecipe) o).tasks.equals(tasks);
    }

    @Override
    public int hashCode() {
        return toString().hashCode();
    }
}
