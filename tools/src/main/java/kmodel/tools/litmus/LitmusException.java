package kmodel.tools.litmus;

/**
 * Why a litmus file cannot be run: a syntax error or a construct this reader does not support,
 * with its line. The message is one line: {@code LINE: unsupported: CONSTRUCT} or {@code LINE:
 * WHAT IS WRONG}.
 */
public final class LitmusException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The 1-based line, 0 when the file as a whole is at fault. */
    public final int line;
    /** Whether the file is well formed but uses something this reader does not support. */
    public final boolean unsupported;

    LitmusException(int line, boolean unsupported, String message) {
        super(message, null, false, false);
        this.line = line;
        this.unsupported = unsupported;
    }

    static LitmusException unsupported(int line, String construct) {
        return new LitmusException(line, true, "unsupported: " + construct);
    }

    static LitmusException syntax(int line, String what) {
        return new LitmusException(line, false, what);
    }
}
