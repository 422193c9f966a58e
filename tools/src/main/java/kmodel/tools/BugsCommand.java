package kmodel.tools;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import kmodel.verification.catalog.BugCatalog;
import kmodel.verification.catalog.CatalogBug;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kmodel bugs}: the bug catalog: id, the kernel commit or posting it re-creates, the
 * scenario that exposes it, and the violation kind the checker reports.
 */
@Command(name = "bugs",
        mixinStandardHelpOptions = true,
        versionProvider = Kmodel.Version.class,
        description = "List the bug catalog (switch a bug in with: kmodel check --bug ID).")
final class BugsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-v", "--verbose"}, description = "Also say what each bug does.")
    boolean verbose;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Table t = new Table("ID", "ORIGIN", "SCENARIO", "KIND");
        for (CatalogBug b : BugCatalog.all()) {
            t.row(b.id(), b.origin(), b.scenario(), b.kind().label());
        }
        t.print(out);
        out.println();
        out.println("Barrier bugs: found only under the LKMM (--memory-model lkmm), not under sequential consistency:");
        Table bt = new Table("ID", "ORIGIN", "SCENARIO", "KIND");
        for (CatalogBug b : BugCatalog.barrierBugs()) {
            bt.row(b.id(), b.origin(), b.scenario(), b.kind().label());
        }
        bt.print(out);
        if (verbose) {
            out.println();
            for (CatalogBug b : BugCatalog.all()) {
                out.println(b.id() + ": " + b.description());
            }
            for (CatalogBug b : BugCatalog.barrierBugs()) {
                out.println(b.id() + ": " + b.description());
            }
        }
        out.flush();
        return 0;
    }
}
