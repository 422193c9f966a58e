package kmodel.tools;

import java.util.concurrent.Callable;
import kmodel.kernel.KconfigOption;
import kmodel.verification.KconfigTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code kmodel options}: every Kconfig option: name, type, default, help. */
@Command(name = "options",
        mixinStandardHelpOptions = true,
        versionProvider = Kmodel.Version.class,
        description = "List the Kconfig options (set one with: kmodel check --set NAME=VALUE).")
final class OptionsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Table t = new Table("OPTION", "TYPE", "DEFAULT", "HELP");
        for (KconfigOption o : KconfigTable.options()) {
            String type = o.type() == KconfigOption.Type.BOOL ? "bool"
                    : "int [" + o.min() + ".." + o.max() + "]";
            t.row(o.name(), type, o.format(o.defaultValue()), o.help());
        }
        t.print(spec.commandLine().getOut());
        return 0;
    }
}
