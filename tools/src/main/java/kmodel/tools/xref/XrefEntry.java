package kmodel.tools.xref;

import java.util.List;

/**
 * One line of the kernel index: a model class, method, field or constant and the kernel code it
 * mirrors, read from the first line of its Javadoc (its provenance line) or, for a constant that
 * keeps its kernel name, from its name and the kernel file its class mirrors.
 */
public final class XrefEntry {
    /** How the entry was found. */
    public enum Origin {
        /** The member's own provenance line. */
        PROVENANCE,
        /**
         * A {@code static final} field or enum constant named like a kernel constant
         * ({@code PG_locked}, {@code IOCB_WAITQ}) without a provenance line of its own: the kernel
         * file is the one its own Javadoc names, else its class's.
         */
        KERNEL_NAME
    }

    private final List<String> kernelFiles;
    private final List<String> symbols;
    private final String version;
    private final boolean mutation;
    private final String javaClass;
    private final String member;
    private final String kind;
    private final String sourceFile;
    private final int line;
    private final Origin origin;
    private final List<String> barriers;

    XrefEntry(List<String> kernelFiles, List<String> symbols, String version, boolean mutation, String javaClass,
            String member, String kind, String sourceFile, int line, Origin origin) {
        this(kernelFiles, symbols, version, mutation, javaClass, member, kind, sourceFile, line, origin, List.of());
    }

    XrefEntry(List<String> kernelFiles, List<String> symbols, String version, boolean mutation, String javaClass,
            String member, String kind, String sourceFile, int line, Origin origin, List<String> barriers) {
        this.kernelFiles = List.copyOf(kernelFiles);
        this.symbols = List.copyOf(symbols);
        this.version = version;
        this.mutation = mutation;
        this.javaClass = javaClass;
        this.member = member;
        this.kind = kind;
        this.sourceFile = sourceFile;
        this.line = line;
        this.origin = origin;
        this.barriers = List.copyOf(barriers);
    }

    /**
     * The kernel barriers the member calls, in source order, each once, by their kernel names
     * ({@code smp_mb__after_atomic()}): the {@code kmodel.kernel.atomic.Barriers} calls in its
     * body. Empty for fields, classes and members without one. The ordering that the model's
     * primitives carry themselves ({@code smp_store_release()}, {@code set_current_state()},
     * spinlocks, value-returning atomics) is not listed.
     */
    public List<String> barriers() {
        return barriers;
    }

    /** The kernel files, from the top of a kernel tree ({@code mm/filemap.c}); never empty. */
    public List<String> kernelFiles() {
        return kernelFiles;
    }

    /**
     * The kernel symbols as written: {@code wake_page_function()}, {@code struct page},
     * {@code PG_locked}; empty when the class mirrors a file as a whole.
     */
    public List<String> symbols() {
        return symbols;
    }

    /** The version note ({@code v5.10}, {@code v4.14 to v5.7}), or empty. */
    public String version() {
        return version;
    }

    /** Whether the provenance line reads "A mutation of ...": a deliberately broken copy (a catalog bug). */
    public boolean mutation() {
        return mutation;
    }

    /** The Java class, fully qualified ({@code kmodel.mm.Filemap}; nested classes with dots). */
    public String javaClass() {
        return javaClass;
    }

    /** The method, field or constant name; empty for the class itself. */
    public String member() {
        return member;
    }

    /** {@code class}, {@code method}, {@code constructor}, {@code field} or {@code enum constant}. */
    public String kind() {
        return kind;
    }

    /** The Java source file, relative to the repository root, with {@code /} separators. */
    public String sourceFile() {
        return sourceFile;
    }

    /** The line of the member's (or class's) name in {@link #sourceFile()}. */
    public int line() {
        return line;
    }

    /** How the entry was found. */
    public Origin origin() {
        return origin;
    }

    /** {@code kmodel.mm.Filemap#wakePageFunction}, or the class name alone for a class. */
    public String javaName() {
        return member.isEmpty() ? javaClass : javaClass + "#" + member;
    }

    /** {@code mm/filemap.c: wake_page_function() (v5.10)}: what the entry mirrors, on one line. */
    public String mirrors() {
        StringBuilder sb = new StringBuilder(String.join(", ", kernelFiles));
        if (!symbols.isEmpty()) {
            sb.append(": ").append(String.join(", ", symbols));
        }
        if (!version.isEmpty()) {
            sb.append(" (").append(version).append(')');
        }
        return sb.toString();
    }

    /**
     * A kernel name reduced to what lookups compare: no {@code ()}, no {@code struct}/{@code
     * enum}/{@code union} prefix, no surrounding blanks ({@code "struct page"} and {@code "page"}
     * are the same key).
     */
    public static String key(String symbol) {
        String s = symbol.strip();
        for (String p : new String[] {"struct ", "enum ", "union "}) {
            if (s.startsWith(p)) {
                s = s.substring(p.length()).strip();
            }
        }
        if (s.endsWith("()")) {
            s = s.substring(0, s.length() - 2).strip();
        }
        return s;
    }

    @Override
    public String toString() {
        return javaName() + " " + sourceFile + ":" + line + " -> " + mirrors();
    }
}
