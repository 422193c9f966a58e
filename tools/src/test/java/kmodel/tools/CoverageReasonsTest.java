package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 26: no unreached branch of a modelled kernel function without a reason. Reads the
 * checked-in list of unreached branches (docs/coverage-unreached.txt, written by
 * tools/coverage/unreached.py from a tools/coverage/run) and the reasons read by hand
 * (docs/coverage-reasons.txt, keyed by the Java method and a prefix of the line's text), and
 * fails on a line no reason explains, a line the list still calls unclassified, a reason of no
 * known kind, and a reason that explains no listed line any more (stale: a scenario now reaches
 * it, or the line changed). The same rules as unreached.py's {@code reason()}: a line is explained
 * by the forms run ("reached under a switch form", measured), by an entry of the reasons file
 * (a line prefix first, then the method's {@code *}), or by being a model assertion.
 */
class CoverageReasonsTest {
    /** The kinds a hand-read reason starts with (docs/coverage.md, "Reasons"). */
    static final List<String> KINDS = List.of("error", "world", "switch", "model", "unreachable", "assert", "bug");

    static final Pattern FUNCTION = Pattern.compile("^\\s*\\d+/\\d+\\s+\\S+\\s+.*\\((\\S+#\\S+)\\)$");
    static final Pattern LINE = Pattern.compile("^\\s+(\\S+:\\d+)\\s+\\d+/\\d+ unreached\\s+\\[(.*)\\]  (.*)$");
    static final Pattern ASSERTION = Pattern.compile(
            "^(?:if \\(!?)?(?:\\w+\\.)?(?:BUG_ON|WARN_ON|WARN_ON_ONCE|VM_BUG_ON_PAGE|VM_BUG_ON|fail|lockdepAssert\\w*)\\(");
    static final String FORMS = "reached under a switch form";

    /** One entry of the reasons file. */
    static final class Entry {
        final String method;
        final String prefix;
        final String reason;
        final int line;
        boolean used;

        Entry(String method, String prefix, String reason, int line) {
            this.method = method;
            this.prefix = prefix;
            this.reason = reason;
            this.line = line;
        }
    }

    /** The reasons file's entries by method, in file order; a malformed line is a problem. */
    static Map<String, List<Entry>> parseReasons(List<String> lines, List<String> problems) {
        Map<String, List<Entry>> out = new LinkedHashMap<>();
        String method = null;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.isBlank() || l.stripLeading().startsWith("#")) {
                continue;
            }
            if (!l.startsWith(" ")) {
                method = l.strip();
                out.computeIfAbsent(method, k -> new ArrayList<>());
                continue;
            }
            int sep = l.indexOf(" => ");
            if (sep < 0 || method == null) {
                problems.add("coverage-reasons.txt:" + (i + 1) + ": expected 'LINE TEXT => REASON' under a method");
                continue;
            }
            String reason = l.substring(sep + 4).strip();
            int colon = reason.indexOf(':');
            if (colon < 0 || !KINDS.contains(reason.substring(0, colon))) {
                problems.add("coverage-reasons.txt:" + (i + 1) + ": a reason starts with one of " + KINDS + " and ':'");
            }
            out.get(method).add(new Entry(method, l.substring(0, sep).strip(), reason, i + 1));
        }
        return out;
    }

    /** Every problem of the unreached list against the reasons, one line each; none means every branch has a reason. */
    static List<String> problems(List<String> unreached, List<String> reasonsFile) {
        List<String> problems = new ArrayList<>();
        Map<String, List<Entry>> reasons = parseReasons(reasonsFile, problems);
        String method = null;
        for (String l : unreached) {
            Matcher f = FUNCTION.matcher(l);
            if (f.matches()) {
                method = f.group(1);
                continue;
            }
            Matcher m = LINE.matcher(l);
            if (!m.matches() || method == null) {
                continue;
            }
            String where = method + " " + m.group(1);
            String why = m.group(2);
            String text = m.group(3);
            if (why.contains("unclassified")) {
                problems.add(where + ": unclassified: " + text);
            }
            String rest = why;
            if (why.equals(FORMS)) {
                continue;
            }
            if (why.contains("; ") && why.contains(FORMS)) {
                rest = why.substring(why.indexOf("; ") + 2).replaceFirst("^\\d+: ", "");
            }
            if (rest.startsWith("unclassified")) {
                continue;
            }
            if (!explained(reasons.get(method), text, rest)) {
                problems.add(where + ": [" + rest + "] is not what coverage-reasons.txt or an assertion gives: " + text);
            }
        }
        for (List<Entry> es : reasons.values()) {
            for (Entry e : es) {
                if (!e.used) {
                    problems.add("coverage-reasons.txt:" + e.line + ": stale, explains no unreached line of " + e.method
                            + ": " + e.prefix);
                }
            }
        }
        return problems;
    }

    private static boolean explained(List<Entry> entries, String text, String why) {
        List<Entry> es = entries == null ? List.of() : entries;
        for (Entry e : es) {
            if (!e.prefix.equals("*") && text.startsWith(e.prefix)) {
                e.used = true;
                return e.reason.equals(why);
            }
        }
        if (ASSERTION.matcher(text).find() && why.equals("assertion that held")) {
            return true;
        }
        for (Entry e : es) {
            if (e.prefix.equals("*")) {
                e.used = true;
                return e.reason.equals(why);
            }
        }
        return false;
    }

    private static List<String> read(String doc) throws IOException {
        return Files.readAllLines(Docs.root().resolve(doc), StandardCharsets.UTF_8);
    }

    @Test
    void everyUnreachedBranchOfAModelledKernelFunctionHasAReason() throws IOException {
        assertEquals(List.of(), problems(read("docs/coverage-unreached.txt"), read("docs/coverage-reasons.txt")));
    }

    /** The check can fail: a line with no reason, a line still unclassified, a stale reason, a reason of no kind. */
    @Test
    void aLineWithoutAReasonAndAStaleReasonAreReported() {
        List<String> list = List.of(
                " 2/4   mm-filemap mm/filemap.c: f()  (kmodel.mm.X#f)",
                "      X.java:10  1/2 unreached  [error: -ENOMEM is not injected]  if (page == null) {",
                "      X.java:12  1/2 unreached  [unclassified (needs reading)]  if (x) {",
                "      X.java:14  1/2 unreached  [1: reached under a switch form; 1: world: no world]  if (y) {");
        List<String> reasons = List.of(
                "kmodel.mm.X#f",
                "    if (page == null) { => error: -ENOMEM is not injected",
                "    if (gone) { => world: a line that is no longer unreached",
                "    if (z) { => because");
        assertEquals(List.of(
                "coverage-reasons.txt:4: a reason starts with one of " + KINDS + " and ':'",
                "kmodel.mm.X#f X.java:12: unclassified: if (x) {",
                "kmodel.mm.X#f X.java:14: [world: no world] is not what coverage-reasons.txt or an assertion gives: if (y) {",
                "coverage-reasons.txt:3: stale, explains no unreached line of kmodel.mm.X#f: if (gone) {",
                "coverage-reasons.txt:4: stale, explains no unreached line of kmodel.mm.X#f: if (z) {"),
                problems(list, reasons));
        assertEquals(new TreeSet<>(List.of()), new TreeSet<>(problems(list.subList(0, 2), reasons.subList(0, 2))));
    }
}
