package kmodel.tools.xref;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.Problem;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.ConstructorDeclaration;
import com.github.javaparser.ast.body.EnumConstantDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.comments.Comment;
import com.github.javaparser.ast.comments.JavadocComment;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.nodeTypes.NodeWithSimpleName;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The kernel cross-reference of the model: every class, method, field and constant of the model
 * modules that says in the first line of its Javadoc which kernel code it mirrors (its provenance
 * line, read by {@link Provenance}), and the constants that keep their kernel names.
 *
 * <p><b>Where the sources come from.</b> The index is built from the Java sources when it is
 * needed, not at build time into a resource: the {@code ./kmodel} script runs the jar from the
 * repository (it rebuilds {@code tools/target/kmodel.jar} when a source is newer), so the sources
 * are always beside it, and reading them live gives the line numbers of the sources as they are
 * now, with no build step of its own to keep in step. {@link #repositoryRoot} finds them from the
 * {@code kmodel.root} system property if set, else by walking up from the jar (or the classes
 * directory) this class was loaded from; never from the working directory.
 *
 * <p><b>Versions.</b> A member whose line gives no version takes its class's when the class
 * mirrors the same file: from the class's provenance line, or from a first line that starts with
 * the files and a version without being a provenance line ({@link Provenance#context}).
 *
 * <p><b>Constants without a provenance line.</b> A {@code public static final} field or an enum
 * constant whose name is kernel-style ({@link Provenance#KERNEL_CONSTANT}: {@code PG_locked},
 * {@code IOCB_WAITQ}, {@code EIO}) and that has no provenance line of its own is indexed under its
 * own name when a kernel file names it: the first kernel file its own Javadoc mentions, else the
 * file(s) of the nearest enclosing class with a provenance line. Left out: fields that are not of
 * a primitive type (kernel constants are numbers; the bug catalog's {@code String} ids have
 * kernel-style names too), enum constants of an enum without a provenance line of its own (the
 * model's {@code RunState}), constants whose own Javadoc starts "The model's" or says "not
 * kernel", and constants in a class that mirrors no kernel file whose own Javadoc names none.
 */
public final class KernelIndex {
    /** The model modules whose {@code src/main/java} the index reads, in this order. */
    public static final List<String> MODULES = List.of("kernel", "mm-filemap", "block", "fs-btrfs", "io-uring");

    private static final Pattern PATH_MENTION = Pattern.compile("(?<![\\w./-])([a-z0-9_-]+(?:/[A-Za-z0-9_.+-]+)+\\.[ch])\\b");

    private final List<XrefEntry> entries;

    private KernelIndex(List<XrefEntry> entries) {
        this.entries = List.copyOf(entries);
    }

    /** Every entry, in source order (module, file, position). */
    public List<XrefEntry> entries() {
        return entries;
    }

    // ---- finding the sources ----------------------------------------------------------------

    /**
     * The repository root: the {@code kmodel.root} system property if set, else the first
     * directory above where {@code anchor} was loaded from that holds the model modules.
     *
     * @throws IllegalStateException with a one-line message when there is none
     */
    public static Path repositoryRoot(Class<?> anchor) {
        String prop = System.getProperty("kmodel.root");
        if (prop != null && !prop.isEmpty()) {
            Path root = Path.of(prop).toAbsolutePath().normalize();
            if (!isRoot(root)) {
                throw new IllegalStateException("kmodel.root=" + prop + " holds no model sources ("
                        + String.join(", ", MODULES) + ")");
            }
            return root;
        }
        Path start;
        try {
            start = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath();
        } catch (Exception | Error e) {
            throw new IllegalStateException("cannot tell where kmodel was loaded from (" + e + "); set -Dkmodel.root=DIR");
        }
        for (Path d = start; d != null; d = d.getParent()) {
            if (isRoot(d)) {
                return d;
            }
        }
        throw new IllegalStateException("no kmodel repository above " + start
                + ": xref reads the model's sources (run ./kmodel from the repository, or set -Dkmodel.root=DIR)");
    }

    private static boolean isRoot(Path d) {
        if (!Files.isRegularFile(d.resolve("pom.xml"))) {
            return false;
        }
        for (String m : MODULES) {
            if (!Files.isDirectory(d.resolve(m).resolve("src/main/java"))) {
                return false;
            }
        }
        return true;
    }

    // ---- scanning ---------------------------------------------------------------------------

    /**
     * Reads the sources of {@link #MODULES} under {@code root}.
     *
     * @throws ProvenanceException for the first provenance line that does not parse (or source
     *     that does not), saying how many more there are
     * @throws UncheckedIOException when a source cannot be read
     */
    public static KernelIndex scan(Path root) {
        List<Path> files = new ArrayList<>();
        for (String m : MODULES) {
            Path dir = root.resolve(m).resolve("src/main/java");
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> s = Files.walk(dir)) {
                files.addAll(s.filter(p -> p.getFileName().toString().endsWith(".java")
                        && !p.getFileName().toString().equals("package-info.java"))
                        .sorted().collect(Collectors.toList()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        // The raw language level: no validation (javac has compiled these sources), a fifth faster.
        // One parser per thread (a JavaParser is not thread-safe); results are kept in file order.
        ThreadLocal<JavaParser> parsers = ThreadLocal.withInitial(() -> new JavaParser(new ParserConfiguration()
                .setLanguageLevel(ParserConfiguration.LanguageLevel.RAW)));
        List<ScannedFile> scanned = files.parallelStream().map(file -> {
            String rel = root.relativize(file).toString().replace('\\', '/');
            String source;
            try {
                source = Files.readString(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            List<ProvenanceException> errs = new ArrayList<>();
            List<XrefEntry> found;
            try {
                found = scanSource(parsers.get(), rel, source, errs);
            } catch (ProvenanceException e) {
                found = List.of();
                errs.add(e);
            }
            return new ScannedFile(found, errs);
        }).collect(Collectors.toList());
        List<XrefEntry> entries = new ArrayList<>();
        List<ProvenanceException> errors = new ArrayList<>();
        for (ScannedFile f : scanned) {
            entries.addAll(f.entries);
            errors.addAll(f.errors);
        }
        if (!errors.isEmpty()) {
            ProvenanceException first = errors.get(0);
            throw errors.size() == 1 ? first : new ProvenanceException(first.file(), first.line(), first.what()
                    + " (and " + (errors.size() - 1) + " more provenance lines that do not parse)", errors.size());
        }
        return new KernelIndex(entries);
    }

    /** What one source gave. */
    private static final class ScannedFile {
        final List<XrefEntry> entries;
        final List<ProvenanceException> errors;

        ScannedFile(List<XrefEntry> entries, List<ProvenanceException> errors) {
            this.entries = entries;
            this.errors = errors;
        }
    }

    /**
     * The entries of one Java source, {@code rel} its path for entries and errors; the provenance
     * lines that do not parse go to {@code errors}.
     *
     * @throws ProvenanceException when the source does not parse as Java
     */
    static List<XrefEntry> scanSource(JavaParser parser, String rel, String source, List<ProvenanceException> errors) {
        ParseResult<CompilationUnit> result = parser.parse(source);
        if (!result.isSuccessful() || result.getResult().isEmpty()) {
            Problem p = result.getProblems().isEmpty() ? null : result.getProblems().get(0);
            int line = p == null ? 1 : p.getLocation().flatMap(l -> l.getBegin().getRange())
                    .map(r -> r.begin.line).orElse(1);
            throw new ProvenanceException(rel, line, "does not parse as Java: "
                    + (p == null ? "unknown problem" : p.getMessage().lines().findFirst().orElse("")));
        }
        CompilationUnit cu = result.getResult().get();
        String pkg = cu.getPackageDeclaration().map(d -> d.getNameAsString() + ".").orElse("");
        List<XrefEntry> out = new ArrayList<>();
        Map<TypeDeclaration<?>, Provenance> typeProvenance = new LinkedHashMap<>();
        // In source order, so that a class's provenance is known before its members inherit from it.
        List<Comment> comments = new ArrayList<>(cu.getAllContainedComments());
        comments.sort(Comparator.comparingInt((Comment c) -> c.getBegin().map(b -> b.line).orElse(0))
                .thenComparingInt(c -> c.getBegin().map(b -> b.column).orElse(0)));
        for (Comment c : comments) {
            if (!(c instanceof JavadocComment)) {
                continue;
            }
            JavadocComment doc = (JavadocComment) c;
            List<String> lines = docLines(doc);
            int first = firstTextLine(lines);
            if (first < 0) {
                continue;
            }
            int docLine = doc.getBegin().map(p -> p.line).orElse(1) + first;
            Node node = doc.getCommentedNode().orElse(null);
            if (!(node instanceof BodyDeclaration)) {
                if (Provenance.HEAD.matcher(lines.get(first).strip()).lookingAt()) {
                    errors.add(new ProvenanceException(rel, docLine,
                            "provenance line not attached to a class, method or field"));
                }
                continue;
            }
            BodyDeclaration<?> decl = (BodyDeclaration<?>) node;
            boolean isType = decl instanceof TypeDeclaration;
            for (Member member : members(decl)) {
                Provenance p;
                try {
                    p = Provenance.parse(lines, first, isType, member.kernelName);
                } catch (IllegalArgumentException e) {
                    errors.add(new ProvenanceException(rel, docLine, e.getMessage()));
                    continue;
                }
                if (p == null) {
                    Provenance context = isType ? Provenance.context(lines, first) : null;
                    if (context != null) {
                        typeProvenance.put((TypeDeclaration<?>) decl, context);
                    }
                    continue;
                }
                if (isType) {
                    typeProvenance.put((TypeDeclaration<?>) decl, p);
                }
                String version = p.version;
                if (version.isEmpty()) {
                    Provenance outer = enclosingProvenance(decl, typeProvenance);
                    if (outer != null && !outer.version.isEmpty() && outer.files.containsAll(p.files)) {
                        version = outer.version;
                    }
                }
                out.add(new XrefEntry(p.files, p.symbols, version, p.mutation, className(decl, pkg, isType),
                        member.name, member.kind, rel, member.line, XrefEntry.Origin.PROVENANCE,
                        isType ? List.of() : barriers(decl)));
            }
        }
        // Constants that keep their kernel names, without a provenance line of their own.
        Set<String> seen = new LinkedHashSet<>();
        for (XrefEntry e : out) {
            seen.add(e.javaName());
        }
        for (BodyDeclaration<?> decl : cu.findAll(BodyDeclaration.class)) {
            if (!(decl instanceof FieldDeclaration || decl instanceof EnumConstantDeclaration)) {
                continue;
            }
            if (decl instanceof FieldDeclaration && !isPublicConstant((FieldDeclaration) decl)) {
                continue;
            }
            if (decl instanceof EnumConstantDeclaration
                    && !decl.getParentNode().filter(typeProvenance::containsKey).isPresent()) {
                continue;
            }
            if (isModelOwn(decl)) {
                continue;
            }
            for (Member member : members(decl)) {
                if (member.kernelName == null || seen.contains(className(decl, pkg, false) + "#" + member.name)) {
                    continue;
                }
                List<String> files = new ArrayList<>();
                Optional<Comment> own = decl.getComment().filter(c -> c instanceof JavadocComment);
                if (own.isPresent()) {
                    Matcher m = PATH_MENTION.matcher(own.get().getContent());
                    if (m.find()) {
                        files.add(m.group(1));
                    }
                }
                Provenance outer = enclosingProvenance(decl, typeProvenance);
                String version = "";
                if (files.isEmpty() && outer != null) {
                    files.addAll(outer.files);
                }
                if (outer != null && outer.files.containsAll(files)) {
                    version = outer.version;
                }
                if (files.isEmpty()) {
                    continue;
                }
                out.add(new XrefEntry(files, List.of(member.name), version, false, className(decl, pkg, false),
                        member.name, member.kind, rel, member.line, XrefEntry.Origin.KERNEL_NAME));
            }
        }
        out.sort(Comparator.comparingInt(XrefEntry::line));
        return out;
    }

    /** The {@code Barriers} methods by the kernel barrier each one is. */
    private static final Map<String, String> BARRIERS = Map.of(
            "smpMb", "smp_mb()", "smpRmb", "smp_rmb()", "smpWmb", "smp_wmb()",
            "smpMbBeforeAtomic", "smp_mb__before_atomic()", "smpMbAfterAtomic", "smp_mb__after_atomic()",
            "smpMbAfterSpinlock", "smp_mb__after_spinlock()", "barrier", "barrier()");

    /**
     * The kernel barriers {@code decl} calls ({@code Barriers.smpMbAfterAtomic(...)}, in source
     * order, each once), by their kernel names.
     */
    static List<String> barriers(Node decl) {
        Set<String> found = new LinkedHashSet<>();
        for (MethodCallExpr call : decl.findAll(MethodCallExpr.class)) {
            String scope = call.getScope().map(Node::toString).orElse("");
            if ((scope.equals("Barriers") || scope.endsWith(".Barriers")) && BARRIERS.containsKey(call.getNameAsString())) {
                found.add(BARRIERS.get(call.getNameAsString()) + (onlyUnderABug(call, decl) ? " (bug only)" : ""));
            }
        }
        return List.copyOf(found);
    }

    /**
     * Whether {@code call} runs only with a catalog bug switched on: it sits in the branch of an
     * {@code if (Kernel.bug(...))} (or the else of {@code if (!Kernel.bug(...))}) inside {@code
     * decl}, so it is an older form's barrier, not the version's that the method names.
     */
    private static boolean onlyUnderABug(Node call, Node decl) {
        Node child = call;
        for (Node n = call.getParentNode().orElse(null); n != null && n != decl; child = n, n = n.getParentNode().orElse(null)) {
            if (n instanceof com.github.javaparser.ast.stmt.IfStmt ifs) {
                String cond = ifs.getCondition().toString().trim();
                if (!cond.contains("Kernel.bug(") || child == ifs.getCondition()) {
                    continue;
                }
                boolean negated = cond.startsWith("!");
                boolean inThen = child == ifs.getThenStmt();
                if (inThen != negated) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A named member a declaration declares (a field declaration may declare several). */
    private static final class Member {
        final String name;
        final String kind;
        final int line;
        /** The name when it is kernel-style and the member a field or enum constant, else null. */
        final String kernelName;

        Member(String name, String kind, Node at, boolean constant) {
            this.name = name;
            this.kind = kind;
            this.line = at.getBegin().map(p -> p.line).orElse(1);
            this.kernelName = constant && Provenance.KERNEL_CONSTANT.matcher(name).matches() ? name : null;
        }
    }

    private static List<Member> members(BodyDeclaration<?> decl) {
        List<Member> l = new ArrayList<>();
        if (decl instanceof TypeDeclaration) {
            TypeDeclaration<?> t = (TypeDeclaration<?>) decl;
            String kind = t instanceof ClassOrInterfaceDeclaration && ((ClassOrInterfaceDeclaration) t).isInterface()
                    ? "interface" : t.isEnumDeclaration() ? "enum" : "class";
            l.add(new Member("", kind, t.getName(), false));
        } else if (decl instanceof MethodDeclaration) {
            MethodDeclaration m = (MethodDeclaration) decl;
            l.add(new Member(m.getNameAsString(), "method", m.getName(), false));
        } else if (decl instanceof ConstructorDeclaration) {
            ConstructorDeclaration c = (ConstructorDeclaration) decl;
            l.add(new Member(c.getNameAsString(), "constructor", c.getName(), false));
        } else if (decl instanceof FieldDeclaration) {
            FieldDeclaration f = (FieldDeclaration) decl;
            boolean constant = f.isStatic() && f.isFinal() || inInterface(f);
            for (VariableDeclarator v : f.getVariables()) {
                l.add(new Member(v.getNameAsString(), "field", v.getName(), constant));
            }
        } else if (decl instanceof EnumConstantDeclaration) {
            EnumConstantDeclaration e = (EnumConstantDeclaration) decl;
            l.add(new Member(e.getNameAsString(), "enum constant", e.getName(), true));
        } else if (decl instanceof NodeWithSimpleName) {
            NodeWithSimpleName<?> n = (NodeWithSimpleName<?>) decl;
            l.add(new Member(n.getNameAsString(), "member", n.getName(), false));
        }
        return l;
    }

    private static boolean inInterface(FieldDeclaration f) {
        return f.getParentNode().filter(p -> p instanceof ClassOrInterfaceDeclaration
                && ((ClassOrInterfaceDeclaration) p).isInterface()).isPresent();
    }

    /** A {@code public static final} field (or an interface's) of a primitive type: kernel constants are numbers. */
    private static boolean isPublicConstant(FieldDeclaration f) {
        return (inInterface(f) || f.isPublic() && f.isStatic() && f.isFinal())
                && f.getElementType().isPrimitiveType();
    }

    /** Whether the declaration's own Javadoc says it is the model's, not the kernel's. */
    private static boolean isModelOwn(BodyDeclaration<?> decl) {
        String doc = decl.getComment().filter(c -> c instanceof JavadocComment).map(Comment::getContent).orElse("")
                .replaceAll("\\s*\\*\\s*", " ").strip();
        return doc.startsWith("The model's") || doc.contains("not kernel");
    }

    /** The provenance of the nearest enclosing class that has one, or null. */
    private static Provenance enclosingProvenance(Node decl, Map<TypeDeclaration<?>, Provenance> types) {
        for (Node n = decl.getParentNode().orElse(null); n != null; n = n.getParentNode().orElse(null)) {
            if (n instanceof TypeDeclaration && types.containsKey(n)) {
                return types.get(n);
            }
        }
        return null;
    }

    /** The fully qualified name of {@code decl} (a type) or of the type declaring it. */
    private static String className(Node decl, String pkg, boolean isType) {
        Node n = isType ? decl : decl.getParentNode().orElse(null);
        while (n != null && !(n instanceof TypeDeclaration)) {
            n = n.getParentNode().orElse(null);
        }
        if (n == null) {
            return pkg.isEmpty() ? "?" : pkg.substring(0, pkg.length() - 1);
        }
        TypeDeclaration<?> t = (TypeDeclaration<?>) n;
        return t.getFullyQualifiedName().orElse(pkg + t.getNameAsString());
    }

    /** The comment's lines without the leading blanks and {@code *}. */
    static List<String> docLines(JavadocComment doc) {
        List<String> lines = new ArrayList<>();
        for (String raw : doc.getContent().split("\n", -1)) {
            String s = raw.strip();
            if (s.startsWith("*")) {
                s = s.substring(1);
            }
            lines.add(s.strip());
        }
        return lines;
    }

    private static int firstTextLine(List<String> lines) {
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).isEmpty()) {
                return i;
            }
        }
        return -1;
    }

    // ---- lookups ----------------------------------------------------------------------------

    /** The entries that mirror kernel symbol {@code name} ({@code foo}, {@code foo()}, {@code struct foo}). */
    public List<XrefEntry> byKernelName(String name) {
        String key = XrefEntry.key(name);
        List<XrefEntry> l = new ArrayList<>();
        if (key.isEmpty()) {
            return l;
        }
        for (XrefEntry e : entries) {
            for (String s : e.symbols()) {
                if (XrefEntry.key(s).equals(key)) {
                    l.add(e);
                    break;
                }
            }
        }
        return l;
    }

    /**
     * The entries of a Java name: {@code Class#member} or {@code Class}, the class fully
     * qualified or any dot-separated tail of its name ({@code kmodel.mm.Filemap},
     * {@code mm.Filemap}, {@code Filemap}); a member may end in {@code (...)}. A class name
     * gives the class's own entry and its members'.
     */
    public List<XrefEntry> byJavaName(String name) {
        String cls = name.strip();
        String member = null;
        int hash = cls.indexOf('#');
        if (hash >= 0) {
            member = cls.substring(hash + 1).strip();
            cls = cls.substring(0, hash).strip();
            int paren = member.indexOf('(');
            if (paren >= 0) {
                member = member.substring(0, paren).strip();
            }
        }
        List<XrefEntry> l = new ArrayList<>();
        if (cls.isEmpty() || member != null && member.isEmpty()) {
            return l;
        }
        for (XrefEntry e : entries) {
            String c = e.javaClass();
            boolean classMatches = c.equals(cls) || c.endsWith("." + cls);
            if (classMatches && (member == null || e.member().equals(member))) {
                l.add(e);
            }
        }
        return l;
    }

    // ---- the Markdown index -----------------------------------------------------------------

    /** The command that writes docs/KERNEL-INDEX.md. */
    public static final String REGENERATE = "./kmodel xref --index > docs/KERNEL-INDEX.md";

    /**
     * docs/KERNEL-INDEX.md: one row per kernel file and symbol an entry mirrors, sorted by
     * kernel file, then symbol, then model name; no line numbers (an edit above a definition
     * must not make the index stale; {@code ./kmodel xref NAME} prints them).
     */
    public String markdown() {
        List<String[]> rows = new ArrayList<>();
        for (XrefEntry e : entries) {
            List<String> symbols = e.symbols().isEmpty() ? List.of("") : e.symbols();
            for (String f : e.kernelFiles()) {
                for (String s : symbols) {
                    String version = e.version() + (e.mutation() ? (e.version().isEmpty() ? "" : ", ") + "a mutation" : "");
                    String v = Elixir.version(e);
                    rows.add(new String[] {f, s, version, e.javaName(), e.sourceFile(),
                        "[" + v + "](" + (s.isEmpty() ? Elixir.source(v, f, 0) : Elixir.ident(v, s)) + ")",
                        String.join(", ", e.barriers())});
                }
            }
        }
        rows.sort(Comparator.<String[], String>comparing(r -> r[0]).thenComparing(r -> XrefEntry.key(r[1]))
                .thenComparing(r -> r[1]).thenComparing(r -> r[3]).thenComparing(r -> r[4]).thenComparing(r -> r[2]));
        Set<String> kernelFiles = new LinkedHashSet<>();
        for (String[] r : rows) {
            kernelFiles.add(r[0]);
        }
        StringBuilder sb = new StringBuilder();
        sb.append("# Kernel index\n\n");
        sb.append("Which model class, method or field mirrors which kernel function, constant or structure: ")
                .append(rows.size()).append(" rows (").append(entries.size()).append(" model definitions, ")
                .append(kernelFiles.size()).append(" kernel files).\n\n");
        sb.append("Generated from the first line of each Javadoc, its provenance line (`mm/filemap.c: "
                + "{@code wake_page_function()} (v5.10). ...`), by\n\n");
        sb.append("    ").append(REGENERATE).append("\n\n");
        sb.append("`KernelIndexTest` fails when this file is out of date or a provenance line does not parse. "
                + "Constants that keep their kernel name (`PG_locked`, `IOCB_WAITQ`) are listed under the kernel "
                + "file their class mirrors even without a provenance line of their own. A version is the one the "
                + "line gives, else its class's when the class mirrors the same file. A class with no symbol "
                + "mirrors the file as a whole.\n\n");
        sb.append("There are no line numbers here, so that an edit above a definition does not make the index "
                + "stale: `./kmodel xref NAME` prints the model's file:line for a kernel name (or the kernel names "
                + "for `Class#member`), and with `--kernel DIR` the kernel definition's file:line as well.\n\n");
        sb.append("The Elixir column links each symbol's page on elixir.bootlin.com (its definition, with file and "
                + "line) at the entry's version: the one its line names (the newest of a range), else the default "
                + "kernel profile's release; `./kmodel xref --kernel DIR NAME` prints the "
                + "`https://elixir.bootlin.com/linux/<version>/source/<file>#L<line>` reference itself.\n\n");
        sb.append("The Barriers column lists the kernel barriers a method calls where its kernel version has them "
                + "(`kmodel.kernel.atomic.Barriers`: `smp_mb()`, `smp_rmb()`, `smp_wmb()`, `smp_mb__before_atomic()`, "
                + "`smp_mb__after_atomic()`, `smp_mb__after_spinlock()`, `barrier()`), including the calls a catalog "
                + "barrier bug switches off (or, where a bug restores an older form, on); the ordering the model's primitives carry themselves "
                + "(`smp_store_release()`, `smp_load_acquire()`, `set_current_state()`, locks, value-returning "
                + "atomics) is not listed. See [the memory model](memory-model.md#barrier-sites).\n\n");
        sb.append("| Kernel file | Symbol | Version | Model | Source | Elixir | Barriers |\n");
        sb.append("|---|---|---|---|---|---|---|\n");
        for (String[] r : rows) {
            sb.append("| ").append(cell(r[0])).append(" | ")
                    .append(r[1].isEmpty() ? "(the file)" : "`" + cell(r[1]) + "`").append(" | ")
                    .append(cell(r[2])).append(" | `").append(cell(r[3])).append("` | [")
                    .append(cell(r[4].substring(r[4].lastIndexOf('/') + 1))).append("](../").append(r[4])
                    .append(") | ").append(cell(r[5])).append(" | ").append(cell(r[6])).append(" |\n");
        }
        return sb.toString();
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }

    /**
     * Null when {@code committed} (the text of docs/KERNEL-INDEX.md) equals {@code fresh} (as
     * {@link #markdown} makes it now), else a one-line message with the first line that differs
     * and the command to regenerate the file.
     */
    public static String staleness(String committed, String fresh) {
        String a = committed.replace("\r\n", "\n");
        if (a.equals(fresh)) {
            return null;
        }
        List<String> x = a.lines().collect(Collectors.toList());
        List<String> y = fresh.lines().collect(Collectors.toList());
        int i = 0;
        while (i < x.size() && i < y.size() && x.get(i).equals(y.get(i))) {
            i++;
        }
        String was = i < x.size() ? x.get(i) : "(end of file)";
        String now = i < y.size() ? y.get(i) : "(end of file)";
        return String.format(Locale.ROOT, "docs/KERNEL-INDEX.md is out of date (line %d is \"%s\", the sources "
                + "give \"%s\"): regenerate it with %s", i + 1, was, now, REGENERATE);
    }
}
