package kmodel.tools.xref;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a provenance line: the first line of a Javadoc comment that names the kernel code a class,
 * method or field mirrors, as the model writes them:
 *
 * <pre>
 * mm/filemap.c: {&#64;code wake_page_function()} (v5.10). Called under ...
 * include/linux/bio.h: {&#64;code BIO_MAX_PAGES} (v5.10).
 * fs/io_uring.c: {&#64;code io_free_req()} -&gt; {&#64;code __io_free_req()} (v5.10, no links): ...
 * kernel/sched/core.c: the dequeue half of {&#64;code __schedule()}: ...
 * A mutation of mm/filemap.c: {&#64;code end_page_writeback()} (v5.10): ...
 * include/linux/fs.h (v5.10): {&#64;code struct kiocb}: one read or write request ...
 * include/asm-generic/bitops/atomic.h, lock.h, non-atomic.h: bit operations on a ...
 * </pre>
 *
 * <p>The grammar: an optional {@code A mutation of }, one or more kernel files from the top of a
 * kernel tree (separated by {@code ,} or {@code and}; a later file without a directory is in the
 * directory of the one before it), an optional version note in parentheses, then {@code :} (or
 * {@code ,} after a version note). What follows names the symbols: a {@code {@code ...}} tag at
 * once, and more tags joined to it by {@code /}, {@code ->}, {@code +}, {@code ,}, {@code and},
 * {@code or}, {@code then}; each tag holds {@code name()}, {@code name(args)}, {@code struct name},
 * {@code enum name}, {@code typedef ... (name) ...}, {@code name[...]} or a bare {@code name}.
 * When the text does not start with a tag: a field or enum constant with a kernel-style name is
 * that name; another member takes the first tag that holds a symbol ({@code the part of {@code
 * do_exit()}}); a class mirrors the file(s) as a whole. A line that starts like a provenance line
 * but gives none of these (or whose first file has no directory) is an error.
 *
 * <p>The version note: a {@code (v...)} right after the symbols, else the one after the files,
 * else the first {@code vN.M} in the line; only its first clause ({@code (v5.10, no SQPOLL)} is
 * {@code v5.10}).
 */
final class Provenance {
    /** A kernel source file: {@code mm/filemap.c}, {@code include/linux/bio.h}, {@code inode.c}. */
    static final String PATH = "[A-Za-z0-9_][A-Za-z0-9_.+-]*(?:/[A-Za-z0-9_.+-]+)*\\.[ch]";
    private static final String PATH_SEPARATOR = "(?:,\\s*(?:and\\s+)?|\\s+and\\s+)";
    /** The start of a provenance line, up to and including its {@code :}. */
    static final Pattern HEAD = Pattern.compile("(A mutation of )?(" + PATH + "(?:" + PATH_SEPARATOR + PATH
            + ")*)(?:\\s*\\(([^()]*)\\))?\\s*([:,])(?=\\s|$)");
    private static final Pattern SEPARATOR = Pattern.compile(PATH_SEPARATOR);
    private static final Pattern CONNECTOR = Pattern.compile("\\s*(?:/|->|-&gt;|\\+|,|and|or|then)\\s*(?=\\{@code\\s)");
    private static final Pattern VERSION_AFTER = Pattern.compile("\\s*\\(\\s*((?:Linux\\s+)?v\\d[^,;)]*)");
    private static final Pattern VERSION_NOTE = Pattern.compile("(?:Linux\\s+)?v\\d[^,;)]*");
    private static final Pattern VERSION_ANYWHERE = Pattern.compile(
            "\\bv\\d+\\.\\d+(?:\\.\\d+)?\\+?(?:\\s+to\\s+v\\d+\\.\\d+(?:\\.\\d+)?)?");
    private static final Pattern ENDS_OPEN = Pattern.compile(
            "(?:->|-&gt;|/|\\+|,|\\band|\\bor|\\bthen|\\{@code)\\s*$");
    /** Kernel-style constant names: {@code PAGE_SIZE}, {@code EIO}, {@code PG_locked}, {@code REQ_OP_READ}. */
    static final Pattern KERNEL_CONSTANT = Pattern.compile("[A-Z][A-Z0-9]*(?:_[A-Za-z0-9]+)*");

    private static final Pattern AGGREGATE = Pattern.compile("(struct|enum|union)\\s+([A-Za-z_]\\w*)\\b.*", Pattern.DOTALL);
    private static final Pattern TYPEDEF = Pattern.compile("typedef\\b.*?\\(\\s*\\*?\\s*([A-Za-z_]\\w*)\\s*\\).*",
            Pattern.DOTALL);
    private static final Pattern TYPEDEF_PLAIN = Pattern.compile("typedef\\b.*?([A-Za-z_]\\w*)\\s*;?");
    private static final Pattern CALL = Pattern.compile("([A-Za-z_]\\w*)\\s*\\(.*", Pattern.DOTALL);
    private static final Pattern ARRAY = Pattern.compile("([A-Za-z_]\\w*)\\s*\\[.*", Pattern.DOTALL);
    private static final Pattern NAME = Pattern.compile("[A-Za-z_]\\w*");
    /** Lines joined to the provenance line at most (a tag or a chain cut by a line break). */
    private static final int MAX_JOINED = 4;

    final List<String> files;
    final List<String> symbols;
    final String version;
    final boolean mutation;
    /** The version note after the files ({@code mm/filemap.c (v5.10): ...}), or empty. */
    final String fileVersion;

    private Provenance(List<String> files, List<String> symbols, String version, boolean mutation,
            String fileVersion) {
        this.files = files;
        this.symbols = symbols;
        this.version = version;
        this.mutation = mutation;
        this.fileVersion = fileVersion;
    }

    /**
     * The provenance line starting at {@code lines.get(first)} (Javadoc text without the leading
     * {@code *}), or null if that line does not start like one. {@code isType}: the comment is a
     * class's; {@code kernelName}: the member is a field or enum constant with a kernel-style name
     * (or null).
     *
     * @throws IllegalArgumentException what is wrong with a line that starts like a provenance
     *     line
     */
    static Provenance parse(List<String> lines, int first, boolean isType, String kernelName) {
        String head = lines.get(first).strip();
        Matcher m = HEAD.matcher(head);
        if (!m.lookingAt()) {
            return null;
        }
        String paren = m.group(3);
        if (m.group(4).equals(",") && paren == null) {
            return null;
        }
        boolean mutation = m.group(1) != null;
        List<String> files = files(m.group(2));
        String fileVersion = "";
        if (paren != null) {
            Matcher v = VERSION_NOTE.matcher(paren.strip());
            if (v.lookingAt()) {
                fileVersion = v.group().strip();
            }
        }
        String text = head.substring(m.end());
        for (int i = first + 1; i < lines.size() && i <= first + MAX_JOINED && needsMore(text); i++) {
            String next = lines.get(i).strip();
            if (next.isEmpty() || next.startsWith("@")) {
                break;
            }
            text = text + " " + next;
        }
        text = text.strip();

        List<String> symbols = new ArrayList<>();
        int end = -1;
        if (text.startsWith("{@code")) {
            int at = 0;
            while (true) {
                int[] span = tag(text, at);
                String content = text.substring(span[0], span[1]);
                String symbol = symbol(content);
                if (symbol == null) {
                    throw new IllegalArgumentException("provenance line: cannot read a kernel symbol from {@code "
                            + content.strip() + "} (expected name(), struct name, NAME, ...)");
                }
                symbols.add(symbol);
                end = span[2];
                Matcher c = CONNECTOR.matcher(text).region(end, text.length());
                if (!c.lookingAt()) {
                    break;
                }
                at = c.end();
            }
        } else if (kernelName != null) {
            symbols.add(kernelName);
        } else if (!isType) {
            for (int at = text.indexOf("{@code"); at >= 0; at = text.indexOf("{@code", at + 1)) {
                int[] span = tag(text, at);
                String symbol = symbol(text.substring(span[0], span[1]));
                if (symbol != null) {
                    symbols.add(symbol);
                    end = span[2];
                    break;
                }
            }
            if (symbols.isEmpty()) {
                throw new IllegalArgumentException("provenance line names no kernel symbol: write {@code name()} "
                        + "(or {@code struct name}, {@code NAME}) after '" + m.group(2) + ":'");
            }
        }
        String version = "";
        if (end >= 0) {
            Matcher v = VERSION_AFTER.matcher(text).region(end, text.length());
            if (v.lookingAt()) {
                version = v.group(1).strip();
            }
        }
        if (version.isEmpty()) {
            version = fileVersion;
        }
        if (version.isEmpty()) {
            Matcher v = VERSION_ANYWHERE.matcher(text);
            if (v.find()) {
                version = v.group();
            }
        }
        return new Provenance(files, symbols, version, mutation, fileVersion);
    }

    private static final Pattern CONTEXT = Pattern.compile("(" + PATH + "(?:" + PATH_SEPARATOR + PATH
            + ")*)\\s*\\(\\s*((?:Linux\\s+)?v\\d[^,;)]*)");

    /**
     * For a class whose first Javadoc line is not a provenance line but starts with its kernel
     * files and a version ({@code block/bio.c (v5.10, with {@code bio_clone_bioset()} ...} or
     * {@code mm/readahead.c (v5.10) and the ...}): those files and that version, which its
     * members inherit; else null. Never an entry of its own.
     */
    static Provenance context(List<String> lines, int first) {
        Matcher m = CONTEXT.matcher(lines.get(first).strip());
        if (!m.lookingAt()) {
            return null;
        }
        List<String> files;
        try {
            files = files(m.group(1));
        } catch (IllegalArgumentException e) {
            return null;
        }
        String version = m.group(2).strip();
        return new Provenance(files, List.of(), version, false, version);
    }

    /** Whether the text so far ends inside a tag or on a connector: the next line belongs to it. */
    private static boolean needsMore(String text) {
        int depth = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}') {
                depth--;
            }
        }
        return depth > 0 || text.isBlank() || ENDS_OPEN.matcher(text).find();
    }

    /** The kernel files of a file list; a file without a directory takes the previous one's. */
    static List<String> files(String list) {
        List<String> files = new ArrayList<>();
        String dir = null;
        for (String f : SEPARATOR.split(list)) {
            String file = f.strip();
            int slash = file.lastIndexOf('/');
            if (slash < 0) {
                if (dir == null) {
                    throw new IllegalArgumentException("provenance line: kernel file '" + file
                            + "' has no directory (name it from the top of the kernel tree, e.g. fs/btrfs/" + file + ")");
                }
                file = dir + file;
            } else {
                dir = file.substring(0, slash + 1);
            }
            files.add(file);
        }
        return files;
    }

    /**
     * The {@code {@code ...}} tag at {@code at}: {start of content, end of content, index after
     * the tag}. An unclosed tag runs to the end of the text.
     */
    private static int[] tag(String text, int at) {
        int start = at + "{@code".length();
        if (start < text.length() && Character.isWhitespace(text.charAt(start))) {
            start++;
        }
        int depth = 1;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return new int[] {start, i, i + 1};
            }
        }
        return new int[] {start, text.length(), text.length()};
    }

    /**
     * The kernel symbol a tag's content names ({@code wake_page_function()}, {@code struct page},
     * {@code PG_locked}, {@code bio_end_io_t}), or null when it names none ({@code confused:},
     * {@code unsigned long}, {@code p->state & state}).
     */
    static String symbol(String content) {
        String s = content.replace("&gt;", ">").replace("&lt;", "<").replace("&amp;", "&").strip();
        Matcher m = AGGREGATE.matcher(s);
        if (m.matches()) {
            return m.group(1) + " " + m.group(2);
        }
        m = TYPEDEF.matcher(s);
        if (m.matches()) {
            return m.group(1);
        }
        m = TYPEDEF_PLAIN.matcher(s);
        if (m.matches()) {
            return m.group(1);
        }
        m = CALL.matcher(s);
        if (m.matches()) {
            return m.group(1) + "()";
        }
        m = ARRAY.matcher(s);
        if (m.matches()) {
            return m.group(1);
        }
        if (NAME.matcher(s).matches()) {
            return s;
        }
        return null;
    }
}
