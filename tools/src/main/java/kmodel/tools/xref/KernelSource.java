package kmodel.tools.xref;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Finds a symbol's definition in a kernel source file by a few regular expressions, one line at a
 * time: a function definition ({@code <type...> name(} at column 0, not ending in {@code ;}), a
 * {@code #define NAME}, an enum member ({@code NAME,} or {@code NAME =}, indented), a {@code
 * struct}/{@code enum}/{@code union name {}, a typedef, or a file-scope variable. Good enough to
 * put an editor on the right line; not a C parser (a function made by a macro, such as the page
 * flag helpers of page-flags.h, is not found).
 */
public final class KernelSource {
    /** Kernel source files larger than this are refused (the largest .c file of v5.10 is under 1 MiB). */
    public static final long MAX_FILE_BYTES = 16L << 20;

    private KernelSource() {
    }

    /**
     * The 1-based line of {@code symbol}'s definition in {@code file}, or 0 when none of the
     * patterns matches. {@code symbol} as an entry holds it: {@code name()}, {@code struct name},
     * {@code NAME}.
     *
     * @throws IOException when the file cannot be read, or is larger than {@link #MAX_FILE_BYTES}
     */
    public static int definitionLine(Path file, String symbol) throws IOException {
        if (Files.size(file) > MAX_FILE_BYTES) {
            throw new IOException("larger than " + (MAX_FILE_BYTES >> 20) + " MiB: not a kernel source file");
        }
        String name = XrefEntry.key(symbol);
        if (!name.matches("[A-Za-z_]\\w*")) {
            return 0;
        }
        String q = Pattern.quote(name);
        boolean function = symbol.strip().endsWith("()");
        boolean aggregate = symbol.strip().matches("(struct|enum|union)\\s+.*");
        Pattern define = Pattern.compile("^\\s*#\\s*define\\s+" + q + "\\b.*");
        Pattern functionDef = Pattern.compile("^(?:[A-Za-z_][\\w\\s*,()]*?[\\s*])?" + q + "\\s*\\(.*");
        Pattern enumMember = Pattern.compile("^\\s+" + q + "\\s*(?:[,=].*|/[*/].*|$)");
        Pattern aggregateDef = Pattern.compile("^(?:typedef\\s+)?(?:struct|enum|union)\\s+" + q + "\\s*\\{?\\s*$");
        Pattern typedef = Pattern.compile("^typedef\\b.*\\b" + q + "\\b.*");
        Pattern variable = Pattern.compile("^[A-Za-z_][^(;=]*[\\s*]" + q + "\\s*(?:\\[.*|=.*|;.*|__\\w+.*)");
        // Priority: what the symbol looks like first, then the other forms.
        Pattern[] order = function
                ? new Pattern[] {functionDef, define}
                : aggregate
                        ? new Pattern[] {aggregateDef, typedef}
                        : new Pattern[] {define, enumMember, typedef, aggregateDef, variable, functionDef};
        int[] found = new int[order.length];
        // Each line is at most the file's size, which is capped above.
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            String line;
            int n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                if (!line.contains(name)) {
                    continue;
                }
                for (int i = 0; i < order.length; i++) {
                    if (found[i] != 0 || !order[i].matcher(line).matches()) {
                        continue;
                    }
                    boolean prototype = order[i] == functionDef
                            && (line.stripTrailing().endsWith(";") || line.startsWith("extern "));
                    if (!prototype) {
                        found[i] = n;
                    }
                }
                if (found[0] != 0) {
                    break;
                }
            }
        }
        for (int f : found) {
            if (f != 0) {
                return f;
            }
        }
        return 0;
    }
}
