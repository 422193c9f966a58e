package kmodel.tools.xref;

/**
 * A provenance line that starts like one ({@code <path>.c:}) but cannot be read, or a Java source
 * that does not parse: the message is {@code <file>:<line>: <what is wrong>}, the file relative to
 * the repository root.
 */
public final class ProvenanceException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final int line;
    private final String what;
    private final int count;

    ProvenanceException(String file, int line, String what) {
        this(file, line, what, 1);
    }

    ProvenanceException(String file, int line, String what, int count) {
        super(file + ":" + line + ": " + what);
        this.file = file;
        this.line = line;
        this.what = what;
        this.count = count;
    }

    /** What is wrong, without the file and line. */
    public String what() {
        return what;
    }

    /** How many provenance lines (or sources) failed: this one and the ones after it. */
    public int count() {
        return count;
    }

    /** The Java source file, relative to the repository root. */
    public String file() {
        return file;
    }

    /** The line of the provenance line (or of the parse error). */
    public int line() {
        return line;
    }
}
