package kmodel.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * Fuzzes {@code kmodel xref}: random, near-miss and hostile NAMEs, {@code --kernel} values (a
 * fake kernel tree, a file, nothing, hostile paths) and whole argument vectors after {@code xref}.
 * Every run must end the way {@link CliOracle} says: found (exit 0, output on stdout only) or
 * refused (exit 2, exactly one line on stderr); never a stack trace or exit 3. The runs share the
 * index {@link XrefCliTest#INDEX} read once from the sources.
 */
class XrefFuzzProperties {
    static final List<String> NAMES = List.of("wake_page_function", "wake_page_function()", "PG_locked", "IOCB_WAITQ",
            "struct bio", "unlock_page", "kmodel.mm.Filemap#wakePageFunction", "Filemap#wakePageFunction", "Filemap",
            "Filemap#unlockPage()", "io_uring_enter", "EIO", "struct page", "BIO_MAX_PAGES");

    /** A fake kernel tree with mm/filemap.c only (most other files are missing on purpose). */
    static final Path KERNEL = fakeKernel();

    private static Path fakeKernel() {
        try {
            Path dir = Files.createTempDirectory("kmodel-xref-fuzz");
            Files.createDirectories(dir.resolve("mm"));
            Files.writeString(dir.resolve("mm/filemap.c"), "void unlock_page(struct page *page)\n{\n}\n");
            dir.resolve("mm/filemap.c").toFile().deleteOnExit();
            dir.resolve("mm").toFile().deleteOnExit();
            dir.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sound(String... args) {
        String[] argv = new String[args.length + 1];
        argv[0] = "xref";
        System.arraycopy(args, 0, argv, 1, args.length);
        CliRun r = CliRun.kmodel(XrefCliTest.FACTORY, false, argv);
        Statistics.label("exit").collect(r.code);
        CliOracle.assertSound(r);
    }

    private static void bothSides() {
        Statistics.label("exit").coverage(c -> {
            c.check(0).count(n -> n > 0);
            c.check(Kmodel.EXIT_USAGE).count(n -> n > 0);
        });
    }

    @Property(tries = 150, seed = "61001")
    void namesEndCleanly(@ForAll("names") String name) {
        sound(name);
        bothSides();
    }

    @Property(tries = 60, seed = "61002")
    void kernelTreesEndCleanly(@ForAll("kernelDirs") String dir, @ForAll("names") String name) {
        sound("--kernel", dir, name);
        bothSides();
    }

    @Property(tries = 100, seed = "61003")
    void argumentVectorsEndCleanly(@ForAll("argv") List<String> args) {
        sound(args.toArray(new String[0]));
        bothSides();
    }

    @Provide
    Arbitrary<String> names() {
        return CliSurfaces.valuesAround(NAMES);
    }

    @Provide
    Arbitrary<String> kernelDirs() {
        return Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.just(KERNEL.toString())),
                Tuple.of(3, CliSurfaces.valuesAround(List.of(KERNEL.toString(), KERNEL.resolve("mm/filemap.c").toString(),
                        "/nonexistent", "", ".", "/")))
        );
    }

    @Provide
    Arbitrary<List<String>> argv() {
        List<String> words = new ArrayList<>(NAMES);
        words.addAll(List.of("--index", "--kernel", KERNEL.toString(), "-h", "--help", "-V", "--version", "--", "-",
                "--kernel=" + KERNEL, "--index=true", "#", "Filemap#", "#wakePageFunction", "()"));
        Arbitrary<String> word = Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.of(words)),
                Tuple.of(2, CliSurfaces.mutated(Arbitraries.of(words))), Tuple.of(1, CliSurfaces.hostile()));
        return word.list().ofMaxSize(4);
    }
}
