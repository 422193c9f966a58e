package kmodel.tools;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import kmodel.tools.xref.Elixir;
import kmodel.tools.xref.KernelIndex;
import kmodel.tools.xref.KernelSource;
import kmodel.tools.xref.ProvenanceException;
import kmodel.tools.xref.XrefEntry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kmodel xref NAME}: the kernel cross-reference. A kernel name ({@code wake_page_function},
 * {@code wake_page_function()}, {@code PG_locked}, {@code struct bio}) prints each model
 * definition that mirrors it; a Java name ({@code kmodel.mm.Filemap#wakePageFunction},
 * {@code Filemap#wakePageFunction}, {@code Filemap}) prints what it mirrors. Each definition is
 * three lines or so: the Java name and its source file:line (relative to the repository root),
 * the kernel file(s), symbol(s) and version it mirrors, its Elixir reference ({@link Elixir}: the
 * identifier's page at the entry's version), and with {@code --kernel DIR} the kernel definition's
 * file:line in that tree and its {@code https://elixir.bootlin.com/linux/<version>/source/<file>#L<line>}
 * (the version the tree's Makefile gives). {@code --index} prints docs/KERNEL-INDEX.md.
 *
 * <p>The index is read from the model's sources when the command runs ({@link KernelIndex}: the
 * jar runs from the repository, so the sources are there and the line numbers are current).
 * Exit codes: 0 found; 2 an unknown name (one line, {@code kmodel: xref: ...}), bad usage, a
 * missing {@code --kernel} directory or kernel file; 3 the sources cannot be found or a provenance
 * line does not parse ({@code kmodel: <java file>:<line>: ...}).
 */
@Command(name = "xref",
        mixinStandardHelpOptions = true,
        versionProvider = Kmodel.Version.class,
        description = {"Find a kernel function, flag or constant in the model (and the reverse).",
            "NAME is a kernel name (wake_page_function, wake_page_function(), PG_locked, IOCB_WAITQ,"
                    + " struct bio) or a model class or member (kmodel.mm.Filemap#wakePageFunction,"
                    + " Filemap#wakePageFunction, Filemap). Java source paths are relative to the repository root."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:found (or --index printed)",
            "2:NAME not in the index, bad usage, --kernel DIR or a kernel file missing",
            "3:the model's sources cannot be read or a provenance line does not parse"
        })
final class XrefCommand implements Callable<Integer> {
    /** The longest NAME accepted (the longest kernel or Java name in the index is under 80). */
    static final int MAX_NAME = 200;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "NAME", description = "A kernel name or a model Class[#member].")
    String name;

    @Option(names = "--kernel", paramLabel = "DIR",
            description = "A kernel source tree: also print the kernel definition's file:line.")
    String kernel;

    @Option(names = "--index", description = "Print the whole index as Markdown (docs/KERNEL-INDEX.md).")
    boolean index;

    private final Supplier<KernelIndex> indexSource;

    /** The command with the index read from the repository's sources. */
    XrefCommand() {
        this(() -> KernelIndex.scan(KernelIndex.repositoryRoot(XrefCommand.class)));
    }

    /** The command with its index from {@code indexSource} (tests build it once). */
    XrefCommand(Supplier<KernelIndex> indexSource) {
        this.indexSource = indexSource;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (index && name != null) {
            throw new Kmodel.OneLine(spec.commandLine(), "xref: give NAME or --index, not both");
        }
        if (index && kernel != null) {
            throw new Kmodel.OneLine(spec.commandLine(), "xref: --kernel goes with NAME, not with --index");
        }
        if (!index && name == null) {
            throw new Kmodel.OneLine(spec.commandLine(), "xref: missing NAME (a kernel name such as "
                    + "wake_page_function, or a model Class#member; --index prints them all)");
        }
        if (name != null && (name.isBlank() || name.length() > MAX_NAME)) {
            throw new Kmodel.OneLine(spec.commandLine(), "xref: NAME must be 1 to " + MAX_NAME
                    + " characters, got " + name.length());
        }
        Path tree = kernel == null ? null : kernelTree(kernel);
        KernelIndex idx = load();
        if (idx == null) {
            return Kmodel.EXIT_INTERNAL;
        }
        if (index) {
            out.print(idx.markdown());
            out.flush();
            return 0;
        }
        String query = name;
        if (!name.equals(name.strip())) { // as written (Values): nothing trimmed
            throw new Kmodel.OneLine(spec.commandLine(), "xref: '" + name + "' has white space around it");
        }
        List<XrefEntry> byKernel = query.contains("#") ? List.of() : idx.byKernelName(query);
        Set<XrefEntry> found = new LinkedHashSet<>(byKernel);
        found.addAll(idx.byJavaName(query));
        if (found.isEmpty()) {
            throw new Kmodel.OneLine(spec.commandLine(), "xref: '" + query + "' is neither a kernel name "
                    + "nor a model class or member in the index (see: kmodel xref --index)");
        }
        List<String> lines = new ArrayList<>();
        String key = XrefEntry.key(query);
        String treeVersion = tree == null ? null : Elixir.treeVersion(tree);
        for (XrefEntry e : found) {
            lines.add(e.javaName() + "  " + e.sourceFile() + ":" + e.line());
            lines.add("    " + (e.mutation() ? "mutates " : "mirrors ") + e.mirrors());
            if (!e.barriers().isEmpty()) {
                lines.add("    barriers " + String.join(", ", e.barriers()));
            }
            if (tree == null) {
                for (String ref : Elixir.references(e)) {
                    if (!byKernel.contains(e) || e.symbols().isEmpty() || ref.endsWith("/ident/" + key)) {
                        lines.add("    elixir  " + ref);
                    }
                }
            }
            if (tree != null) {
                boolean onlyQueried = byKernel.contains(e);
                for (String file : e.kernelFiles()) {
                    Path f = tree.resolve(file);
                    if (!Files.isRegularFile(f)) {
                        throw new Kmodel.OneLine(spec.commandLine(), f + ": no such file in the kernel tree (the model "
                                + "mirrors " + file + (e.version().isEmpty() ? "" : " of " + e.version()) + ")");
                    }
                    List<String> symbols = new ArrayList<>();
                    for (String s : e.symbols()) {
                        if (!onlyQueried || XrefEntry.key(s).equals(key)) {
                            symbols.add(s);
                        }
                    }
                    if (symbols.isEmpty()) {
                        lines.add("    kernel  " + f);
                        lines.add("    elixir  " + Elixir.source(treeVersion != null ? treeVersion : Elixir.version(e), file, 0));
                    }
                    for (String s : symbols) {
                        int at;
                        try {
                            at = KernelSource.definitionLine(f, s);
                        } catch (IOException ex) {
                            throw new Kmodel.OneLine(spec.commandLine(), f + ": " + ex.getMessage());
                        }
                        lines.add(at > 0 ? "    kernel  " + f + ":" + at
                                : "    kernel  " + f + " (no definition of " + s + " found by pattern)");
                        lines.add("    elixir  " + (at > 0
                                ? Elixir.source(treeVersion != null ? treeVersion : Elixir.version(e), file, at)
                                : Elixir.ident(Elixir.version(e), s)));
                    }
                }
            }
        }
        for (String l : lines) {
            out.println(l);
        }
        out.flush();
        return 0;
    }

    /** The {@code --kernel} directory, or a one-line usage error. */
    private Path kernelTree(String dir) {
        Path p;
        try {
            p = Path.of(dir);
        } catch (InvalidPathException e) {
            throw new Kmodel.OneLine(spec.commandLine(), "--kernel " + dir + ": not a valid path");
        }
        if (dir.isEmpty() || !Files.isDirectory(p)) {
            throw new Kmodel.OneLine(spec.commandLine(), "--kernel " + dir + ": no such directory");
        }
        return p;
    }

    /** The index, or null after printing the one-line reason it cannot be read. */
    private KernelIndex load() {
        PrintWriter err = spec.commandLine().getErr();
        try {
            return indexSource.get();
        } catch (ProvenanceException e) {
            err.println("kmodel: " + Kmodel.oneLine(e.getMessage()));
        } catch (IllegalStateException | java.io.UncheckedIOException e) {
            err.println("kmodel: xref: " + Kmodel.oneLine(e.getMessage()));
        }
        err.flush();
        return null;
    }
}
