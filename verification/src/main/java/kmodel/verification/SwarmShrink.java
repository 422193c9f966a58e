package kmodel.verification;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import kmodel.explorer.CheckResult;
import kmodel.kernel.ViolationKind;
import kmodel.verification.scenarios.SwarmWorlds;

/**
 * Shrinks a failing swarm recipe of any swarm to a smallest one that still fails with the same
 * violation kind, greedily on its text: drop a task (later tasks renumbered, {@code kill(tN)}
 * following), drop an operation, lower a number by one, drop a page from a list. A candidate
 * counts only if it is a well-formed recipe ({@link SwarmWorlds#canonical}) and its check fails
 * with the same kind; the first such candidate is taken and the search starts again from it,
 * until no candidate fails or {@code maxChecks} checks have run. Deterministic: candidates are
 * tried in text order, and each check is the exhaustive bounded search of {@link SwarmCheck#check}.
 */
public final class SwarmShrink {
    private static final Pattern KILL = Pattern.compile("kill\\(t(\\d+)\\)");

    /** The outcome: the smallest failing recipe found, its result, and the checks run. */
    public static final class Result {
        public final String recipe;
        public final CheckResult result;
        public final int checks;
        /** Whether the search stopped at {@code maxChecks} rather than at a recipe with no failing candidate. */
        public final boolean cut;

        Result(String recipe, CheckResult result, int checks, boolean cut) {
            this.recipe = recipe;
            this.result = result;
            this.checks = checks;
            this.cut = cut;
        }
    }

    private SwarmShrink() {
    }

    /**
     * Shrinks {@code failing} (whose check is {@code first}, a failure) with {@code check}, at most
     * {@code maxChecks} checks.
     */
    public static Result shrink(String failing, CheckResult first, Function<String, CheckResult> check, int maxChecks) {
        ViolationKind kind = first.kind();
        String best = SwarmWorlds.canonical(failing);
        CheckResult bestResult = first;
        int checks = 0;
        boolean progress = true;
        while (progress) {
            progress = false;
            for (String c : candidates(best)) {
                String canon;
                try {
                    canon = SwarmWorlds.canonical(c);
                } catch (IllegalArgumentException notWellFormed) {
                    continue;
                }
                if (checks >= maxChecks) {
                    return new Result(best, bestResult, checks, true);
                }
                checks++;
                CheckResult r = check.apply(canon);
                if (r.violation() != null && r.kind() == kind) {
                    best = canon;
                    bestResult = r;
                    progress = true;
                    break;
                }
            }
        }
        return new Result(best, bestResult, checks, false);
    }

    /** The one-step smaller texts of {@code text}, in order. */
    static List<String> candidates(String text) {
        String[] tok = text.split(" ");
        List<String> out = new ArrayList<>();
        List<Integer> taskAt = new ArrayList<>();
        for (int i = 0; i < tok.length; i++) {
            if (tok[i].matches("t\\d+=.*")) {
                taskAt.add(i);
            }
        }
        /* drop a task */
        if (taskAt.size() > 1) {
            for (int k = 0; k < taskAt.size(); k++) {
                List<String> l = new ArrayList<>();
                for (int i = 0; i < tok.length; i++) {
                    if (i == taskAt.get(k)) {
                        continue;
                    }
                    String t = tok[i];
                    int at = taskAt.indexOf(i);
                    if (at > k) {
                        t = "t" + (at - 1) + t.substring(t.indexOf('='));
                    }
                    l.add(renumberKills(t, k));
                }
                out.add(String.join(" ", l));
            }
        }
        /* drop an operation */
        for (int i : taskAt) {
            String[] ops = tok[i].substring(tok[i].indexOf('=') + 1).split(",");
            if (ops.length > 1) {
                for (int j = 0; j < ops.length; j++) {
                    List<String> rest = new ArrayList<>();
                    for (int m = 0; m < ops.length; m++) {
                        if (m != j) {
                            rest.add(ops[m]);
                        }
                    }
                    out.add(replace(tok, i, tok[i].substring(0, tok[i].indexOf('=') + 1) + String.join(",", rest)));
                }
            }
        }
        /* lower a number, drop a page from a list */
        for (int i = 0; i < tok.length; i++) {
            int eq = tok[i].indexOf('=');
            if (eq < 0 || taskAt.contains(i) || tok[i].startsWith("irq=")) {
                continue;
            }
            String name = tok[i].substring(0, eq + 1);
            String v = tok[i].substring(eq + 1);
            if (v.matches("\\d+")) {
                int n = Integer.parseInt(v);
                if (n > 0) {
                    out.add(replace(tok, i, name + (n - 1)));
                }
            } else if (v.matches("\\d+(,\\d+)*")) {
                String[] ps = v.split(",");
                for (int j = 0; j < ps.length; j++) {
                    List<String> rest = new ArrayList<>();
                    for (int m = 0; m < ps.length; m++) {
                        if (m != j) {
                            rest.add(ps[m]);
                        }
                    }
                    out.add(replace(tok, i, name + (rest.isEmpty() ? "-" : String.join(",", rest))));
                }
            }
        }
        return out;
    }

    private static String renumberKills(String t, int dropped) {
        Matcher m = KILL.matcher(t);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            int n = Integer.parseInt(m.group(1));
            m.appendReplacement(sb, "kill(t" + (n > dropped ? n - 1 : n) + ")");
        }
        m.appendTail(sb);
        return sb.toString();
    }

    private static String replace(String[] tok, int i, String with) {
        String[] t = tok.clone();
        t[i] = with;
        return String.join(" ", t);
    }
}
