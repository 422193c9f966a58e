package kmodel.tools;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The figures the README and docs/ state, pinned to the commands that print them.
 *
 * <p>In a document, a figure is pinned by an HTML comment right before it, which GitHub does not
 * show: {@code <!-- figure: ID -->1,628 executions}. The figure is the word right after the marker
 * (a number such as {@code 1,628}, {@code 7.237}, {@code +0.2%} or {@code 220%}, or a word such as
 * {@code complete}); trailing {@code .} and {@code ,} are punctuation, and thousands separators
 * do not count in the comparison. {@code docs/figures.txt} defines each ID, one line each:
 *
 * <pre>
 * ID: COMMAND ~ REGEX           fast: FiguresTest, in every mvn verify
 * ID (full): COMMAND ~ REGEX    expensive: FiguresFullTest, tag full
 * </pre>
 *
 * COMMAND is the arguments of {@code ./kmodel} (blanks separate, single quotes group), run
 * in-process through picocli as {@link CliRun} runs it; REGEX is a Java regular expression
 * (multi-line: {@code ^} and {@code $} match at line ends) whose first group, at its first match
 * in the command's stdout, is the figure. Each command runs once however many figures it prints.
 * The ID lives in the marker, the command in figures.txt, because a marker cannot hold the
 * command itself: GitHub's Markdown ends an HTML comment at the first {@code --}, which every
 * option has.
 *
 * <p>A figure that no cheap command prints (a timing, a total of the whole default check, a
 * JPF state count on a machine without JPF) is stamped instead, in the text, with the commit it
 * was measured at ({@code measured at e42dec0}).
 */
final class Figures {
    private Figures() {
    }

    static final String FILE = "docs/figures.txt";
    static final Pattern MARKER = Pattern.compile("<!--\\s*figure:\\s*([^\\s>]*)\\s*-->");
    private static final Pattern WORD = Pattern.compile("\\G[\\s`*]*([+-]?[0-9A-Za-z][0-9A-Za-z,.%_-]*)");
    private static final Pattern DEFINITION = Pattern.compile("([A-Za-z0-9_.-]+)( \\(full\\))?:\\s+(.*?)\\s+~\\s+(.*)");

    /** One line of figures.txt. */
    static final class Definition {
        final String id;
        final boolean full;
        final List<String> args;
        final Pattern regex;
        final int line;

        Definition(String id, boolean full, List<String> args, Pattern regex, int line) {
            this.id = id;
            this.full = full;
            this.args = args;
            this.regex = regex;
            this.line = line;
        }
    }

    /** A marked figure in a document: where, which ID, and the word the text states. */
    static final class Stated {
        final String where;
        final String id;
        final String text;

        Stated(String where, String id, String text) {
            this.where = where;
            this.id = id;
            this.text = text;
        }
    }

    /** The definitions of figures.txt's {@code text}, by ID; IllegalArgumentException naming the line that is wrong. */
    static Map<String, Definition> definitions(String text) {
        Map<String, Definition> out = new LinkedHashMap<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            Matcher m = DEFINITION.matcher(line);
            if (!m.matches()) {
                throw new IllegalArgumentException(FILE + ":" + (i + 1) + ": not ID: COMMAND ~ REGEX: " + line);
            }
            Pattern regex;
            try {
                regex = Pattern.compile(m.group(4), Pattern.MULTILINE);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException(FILE + ":" + (i + 1) + ": bad regex: " + e.getMessage());
            }
            if (regex.matcher("").groupCount() < 1) {
                throw new IllegalArgumentException(FILE + ":" + (i + 1) + ": the regex has no group");
            }
            Definition d = new Definition(m.group(1), m.group(2) != null, words(m.group(3)), regex, i + 1);
            if (out.put(d.id, d) != null) {
                throw new IllegalArgumentException(FILE + ":" + (i + 1) + ": " + d.id + " defined twice");
            }
        }
        return out;
    }

    /** The words of a command: blanks separate, single quotes group. */
    static List<String> words(String command) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        boolean any = false;
        for (char c : command.toCharArray()) {
            if (c == '\'') {
                quoted = !quoted;
                any = true;
            } else if (!quoted && Character.isWhitespace(c)) {
                if (any) {
                    out.add(cur.toString());
                    cur.setLength(0);
                    any = false;
                }
            } else {
                cur.append(c);
                any = true;
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("unbalanced quote in: " + command);
        }
        if (any) {
            out.add(cur.toString());
        }
        return out;
    }

    /** The marked figures of the document {@code file} (text {@code markdown}). */
    static List<Stated> stated(String file, String markdown) {
        List<Stated> out = new ArrayList<>();
        List<String> lines = Docs.proseLines(markdown);
        for (int i = 0; i < lines.size(); i++) {
            String rest = String.join("\n", lines.subList(i, Math.min(lines.size(), i + 2)));
            Matcher m = MARKER.matcher(lines.get(i));
            while (m.find()) {
                Matcher w = WORD.matcher(rest);
                w.region(m.end(), rest.length());
                String word = w.lookingAt() ? w.group(1).replaceAll("[.,]+$", "") : "";
                out.add(new Stated(file + ":" + (i + 1), m.group(1), word));
            }
        }
        return out;
    }

    /** Every marked figure of README.md and docs/ under {@code root}. */
    static List<Stated> stated(Path root) {
        List<Stated> out = new ArrayList<>();
        for (String doc : Docs.documents(root)) {
            out.addAll(stated(doc, Docs.read(root.resolve(doc))));
        }
        return out;
    }

    /**
     * What is wrong with the marked figures {@code stated} against {@code defs}, one line each:
     * a marker whose ID is not defined or states no figure, a definition no document uses, and,
     * for the definitions of the tier {@code full}, a figure that differs from what its command
     * prints ({@code run} runs a command and returns its stdout, or throws when it failed).
     */
    static List<String> problems(Map<String, Definition> defs, List<Stated> stated, boolean full,
            Function<List<String>, String> run) {
        List<String> problems = new ArrayList<>();
        Map<String, Boolean> used = new LinkedHashMap<>();
        for (Stated s : stated) {
            Definition d = defs.get(s.id);
            if (d == null) {
                problems.add(s.where + ": figure " + s.id + " is not defined in " + FILE);
                continue;
            }
            used.put(s.id, true);
            if (s.text.isEmpty()) {
                problems.add(s.where + ": figure " + s.id + ": no figure after the marker");
            }
        }
        for (Definition d : defs.values()) {
            if (!used.containsKey(d.id)) {
                problems.add(FILE + ":" + d.line + ": figure " + d.id + " is stated nowhere");
            }
        }
        Map<List<String>, String> outputs = new LinkedHashMap<>();
        for (Stated s : stated) {
            Definition d = defs.get(s.id);
            if (d == null || d.full != full || s.text.isEmpty()) {
                continue;
            }
            String out;
            try {
                out = outputs.computeIfAbsent(d.args, run);
            } catch (RuntimeException e) {
                problems.add(s.where + ": figure " + s.id + ": kmodel " + String.join(" ", d.args) + " failed: " + e.getMessage());
                continue;
            }
            Matcher m = d.regex.matcher(out);
            if (!m.find()) {
                problems.add(s.where + ": figure " + s.id + ": kmodel " + String.join(" ", d.args)
                        + " printed nothing that matches " + d.regex.pattern());
                continue;
            }
            String printed = m.group(1);
            if (!normal(printed).equals(normal(s.text))) {
                problems.add(s.where + ": figure " + s.id + ": the text says " + s.text + ", kmodel "
                        + String.join(" ", d.args) + " prints " + printed);
            }
        }
        return problems;
    }

    private static String normal(String figure) {
        return figure.replace(",", "");
    }
}
