package kmodel.tools.xref;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import kmodel.kernel.KernelProfile;
import kmodel.verification.Profiles;

/**
 * Elixir references ({@code https://elixir.bootlin.com/linux/<version>/source/<file>#L<line>}),
 * the links a kernel developer opens beside the model. The version is the entry's: the version
 * its provenance line names (the newest, for a range such as {@code v4.14 to v5.7}: the profile
 * that has that form), else the release of the default kernel profile. A line number needs the
 * kernel's text: with {@code --kernel DIR} it is the tree's (and the version the tree's own, from
 * its Makefile); without one, a symbol's reference is Elixir's identifier page, which lists its
 * definition with its line.
 */
public final class Elixir {
    /** Elixir's address of the Linux sources. */
    public static final String BASE = "https://elixir.bootlin.com/linux/";

    private static final Pattern VERSION = Pattern.compile("v\\d+\\.\\d+(?:\\.\\d+)?(?:-rc\\d+)?");

    private Elixir() {
    }

    /**
     * The Elixir version of {@code e}: the last version its note names, mapped through a
     * profile's name to its release ({@code v5.10.y} to {@code v5.10.13}); the default profile's
     * release when the note names none.
     */
    public static String version(XrefEntry e) {
        return version(e.version());
    }

    /** {@link #version(XrefEntry)} of a version note. */
    public static String version(String note) {
        Matcher m = VERSION.matcher(note);
        String last = null;
        while (m.find()) {
            last = m.group();
        }
        if (last == null) {
            return Profiles.defaultProfile().release();
        }
        KernelProfile p = Profiles.find(last);
        return p != null ? p.release() : last;
    }

    /** {@code https://elixir.bootlin.com/linux/<version>/source/<file>}, with {@code #L<line>} when line > 0. */
    public static String source(String version, String file, int line) {
        return BASE + version + "/source/" + file + (line > 0 ? "#L" + line : "");
    }

    /** Elixir's page of a C identifier: its definitions and references, each with file and line. */
    public static String ident(String version, String symbol) {
        return BASE + version + "/C/ident/" + XrefEntry.key(symbol);
    }

    /**
     * The references of {@code e} without a kernel tree: each symbol's identifier page, or each
     * file's source page for an entry that mirrors files as a whole.
     */
    public static List<String> references(XrefEntry e) {
        String v = version(e);
        if (e.symbols().isEmpty()) {
            return e.kernelFiles().stream().map(f -> source(v, f, 0)).toList();
        }
        return e.symbols().stream().map(s -> ident(v, s)).distinct().toList();
    }

    /**
     * The version of the kernel tree at {@code tree}, from its top Makefile ({@code VERSION},
     * {@code PATCHLEVEL}, {@code SUBLEVEL}, {@code EXTRAVERSION}) as Elixir names tags
     * ({@code v5.10} for sublevel 0, {@code v5.10.13}, {@code v5.11-rc5}), or null when the
     * Makefile is missing or does not say.
     */
    public static String treeVersion(Path tree) {
        Path mk = tree.resolve("Makefile");
        String version = null;
        String patch = null;
        String sub = null;
        String extra = "";
        try {
            if (!Files.isRegularFile(mk) || Files.size(mk) > KernelSource.MAX_FILE_BYTES) {
                return null;
            }
            int n = 0;
            for (String line : Files.readAllLines(mk)) {
                if (++n > 20) {
                    break;
                }
                String[] kv = line.split("=", 2);
                if (kv.length != 2) {
                    continue;
                }
                String k = kv[0].strip();
                String v = kv[1].strip();
                switch (k) {
                    case "VERSION": version = v; break;
                    case "PATCHLEVEL": patch = v; break;
                    case "SUBLEVEL": sub = v; break;
                    case "EXTRAVERSION": extra = v; break;
                    default: break;
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        if (version == null || patch == null || !version.matches("\\d+") || !patch.matches("\\d+")) {
            return null;
        }
        String s = "v" + version + "." + patch + (sub != null && sub.matches("[1-9]\\d*") ? "." + sub : "");
        return extra.matches("-rc\\d+") ? s + extra : s;
    }
}
