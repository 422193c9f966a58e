package kmodel.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The repository's Markdown documents (README.md and docs/**&#47;*.md) as {@link DocsTest} and
 * {@link FiguresTest} read them: their headings as GitHub turns them into anchors, their relative
 * links, and their figure markers. Lines inside fenced code blocks, and inline code spans, hold
 * neither links nor markers.
 */
final class Docs {
    private Docs() {
    }

    /** A link of a document: where it is, and its target as written. */
    static final class Link {
        final String file;
        final int line;
        final String target;

        Link(String file, int line, String target) {
            this.file = file;
            this.line = line;
            this.target = target;
        }

        @Override
        public String toString() {
            return file + ":" + line + ": (" + target + ")";
        }
    }

    /** The end of an inline link or image, {@code ](target)} or {@code ](target "title")}: its text may start on an earlier line. */
    private static final Pattern INLINE_LINK = Pattern.compile("\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE_DEFINITION = Pattern.compile("^ {0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s.*)?$");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}|~{3,})");

    /** The repository root: the working directory, or its parent when the tests run in a module. */
    static Path root() {
        for (Path p : new Path[] {Paths.get(".."), Paths.get(".")}) {
            if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("docs"))) {
                return p.toAbsolutePath().normalize();
            }
        }
        throw new IllegalStateException("no README.md beside a docs/ in " + Paths.get("").toAbsolutePath() + " or its parent");
    }

    /** README.md and every docs/**&#47;*.md, relative to {@code root}, in a fixed order. */
    static List<String> documents(Path root) {
        List<String> out = new ArrayList<>();
        out.add("README.md");
        try (Stream<Path> s = Files.walk(root.resolve("docs"))) {
            out.addAll(s.filter(p -> p.toString().endsWith(".md") && Files.isRegularFile(p))
                    .map(p -> root.relativize(p).toString().replace('\\', '/')).sorted().collect(Collectors.toList()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    static String read(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The lines of {@code markdown} with fenced code blocks blanked and inline code spans removed,
     * so that what is left is prose, tables, headings and HTML comments (line numbers kept).
     */
    static List<String> proseLines(String markdown) {
        List<String> out = new ArrayList<>();
        String fence = null;
        for (String line : markdown.split("\n", -1)) {
            Matcher f = FENCE.matcher(line);
            if (fence == null && f.find()) {
                fence = f.group(1).substring(0, 3);
                out.add("");
            } else if (fence != null) {
                if (line.trim().startsWith(fence)) {
                    fence = null;
                }
                out.add("");
            } else {
                out.add(withoutCodeSpans(line));
            }
        }
        return out;
    }

    /** {@code line} without its inline code spans ({@code `...`}, {@code ``...``}). */
    static String withoutCodeSpans(String line) {
        StringBuilder b = new StringBuilder();
        int i = 0;
        while (i < line.length()) {
            if (line.charAt(i) == '`') {
                int n = 0;
                while (i + n < line.length() && line.charAt(i + n) == '`') {
                    n++;
                }
                String ticks = line.substring(i, i + n);
                int close = line.indexOf(ticks, i + n);
                if (close < 0) {
                    b.append(ticks);
                    i += n;
                } else {
                    b.append(' ');
                    i = close + n;
                }
            } else {
                b.append(line.charAt(i++));
            }
        }
        return b.toString();
    }

    /** Every link of {@code markdown} (inline links, images, reference definitions), with its line. */
    static List<Link> links(String file, String markdown) {
        List<Link> out = new ArrayList<>();
        List<String> lines = proseLines(markdown);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).replaceAll("<!--.*?-->", " ");
            Matcher m = INLINE_LINK.matcher(line);
            while (m.find()) {
                out.add(new Link(file, i + 1, m.group(1)));
            }
            Matcher d = REFERENCE_DEFINITION.matcher(line);
            if (d.matches()) {
                out.add(new Link(file, i + 1, d.group(1)));
            }
        }
        return out;
    }

    /**
     * The anchors GitHub gives the headings of {@code markdown}: the heading's text as rendered
     * (code spans' content kept, emphasis, links and HTML dropped to their text), lower-cased,
     * every character that is not a letter, mark, digit, connector ({@code _}), space or hyphen
     * removed, spaces turned into hyphens; a repeated anchor gets {@code -1}, {@code -2}, ...
     */
    static Set<String> anchors(String markdown) {
        Set<String> out = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        String fence = null;
        for (String line : markdown.split("\n", -1)) {
            Matcher f = FENCE.matcher(line);
            if (fence == null && f.find()) {
                fence = f.group(1).substring(0, 3);
                continue;
            } else if (fence != null) {
                if (line.trim().startsWith(fence)) {
                    fence = null;
                }
                continue;
            }
            Matcher h = HEADING.matcher(line);
            if (!h.matches()) {
                continue;
            }
            String base = slug(h.group(2));
            Integer n = seen.get(base);
            seen.put(base, n == null ? 1 : n + 1);
            out.add(n == null ? base : base + "-" + n);
        }
        return out;
    }

    /** The GitHub anchor of one heading's Markdown text (see {@link #anchors}). */
    static String slug(String headingMarkdown) {
        String text = headingMarkdown
                .replaceAll("<!--.*?-->", "")
                .replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1")
                .replaceAll("<[^>]+>", "")
                .replace("`", "")
                .replace("*", "");
        StringBuilder b = new StringBuilder();
        text.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
            int type = Character.getType(c);
            if (Character.isLetterOrDigit(c) || type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK
                    || type == Character.ENCLOSING_MARK || type == Character.CONNECTOR_PUNCTUATION || c == '-') {
                b.appendCodePoint(c);
            } else if (c == ' ') {
                b.append('-');
            }
        });
        return b.toString();
    }
}
