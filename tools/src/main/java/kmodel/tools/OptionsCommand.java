package kmodel.tools;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import kmodel.kernel.KconfigOption;
import kmodel.kernel.KernelProfile;
import kmodel.verification.KconfigTable;
import kmodel.verification.Profiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code kmodel options}: every Kconfig option: name, type, its form (kernel code, a size, a
 * fault, the workload, a candidate fix), its value in each kernel profile ({@code *} where the
 * profile differs from the default profile), help; then the profiles themselves.
 */
@Command(name = "options",
        mixinStandardHelpOptions = true,
        versionProvider = Kmodel.Version.class,
        description = "List the Kconfig options and their value in each kernel profile "
                + "(pick one with: kmodel check --kernel PROFILE; set one option with --set NAME=VALUE).")
final class OptionsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        List<KernelProfile> profiles = Profiles.all();
        KernelProfile def = Profiles.defaultProfile();
        List<String> header = new ArrayList<>(List.of("OPTION", "TYPE", "FORM"));
        for (KernelProfile p : profiles) {
            header.add(p.name().equals(def.name()) ? p.name() + " (default)" : p.name());
        }
        header.add("HELP");
        Table t = new Table(header.toArray(new String[0]));
        for (KconfigOption o : KconfigTable.options()) {
            String type = o.type() == KconfigOption.Type.BOOL ? "bool"
                    : "int [" + o.min() + ".." + o.max() + "]";
            List<String> row = new ArrayList<>(List.of(o.name(), type, Profiles.form(o)));
            for (KernelProfile p : profiles) {
                long v = p.value(o);
                row.add(o.format(v) + (v != def.value(o) ? "*" : ""));
            }
            row.add(o.help());
            t.row(row.toArray(new String[0]));
        }
        PrintWriter out = spec.commandLine().getOut();
        t.print(out);
        out.println();
        out.println("* differs from the default profile, " + def.name() + ". FORM: code is a kernel version's code "
                + "(the profiles set it); size, fault, workload and candidate (a fix in no kernel) are the same in "
                + "every profile.");
        out.println();
        Table pt = new Table("PROFILE", "SOURCES", "KNOWN BUGS", "WHAT");
        for (KernelProfile p : profiles) {
            pt.row(p.name(), p.release(), p.bugs().isEmpty() ? "-" : String.join(",", p.bugs()), p.summary());
        }
        pt.print(out);
        return 0;
    }
}
