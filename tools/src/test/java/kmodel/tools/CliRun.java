package kmodel.tools;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;

/**
 * One in-process run of the command line, the way {@code Kmodel.main} runs it (through
 * {@link Kmodel#execute}), with its exit code, stdout, stderr, anything that escaped, and the
 * bytes the calling thread allocated (parsing and token decoding happen there; the model runs
 * on a runtime thread of its own).
 */
final class CliRun {
    final String[] args;
    final int code;
    final String out;
    final String err;
    /** Anything that escaped {@link Kmodel#execute} (it must not). */
    final Throwable escaped;
    /** Bytes allocated by the calling thread during the run, or -1 where the JVM cannot say. */
    final long allocated;

    private CliRun(String[] args, int code, String out, String err, Throwable escaped, long allocated) {
        this.args = args;
        this.code = code;
        this.out = out;
        this.err = err;
        this.escaped = escaped;
        this.allocated = allocated;
    }

    /** Runs {@code kmodel args...} with the real commands. */
    static CliRun kmodel(String... args) {
        return kmodel(CommandLine.defaultFactory(), false, args);
    }

    /** Runs {@code kmodel args...} with commands made by {@code factory}, as if {@code KMODEL_DEBUG} were {@code debug}. */
    static CliRun kmodel(CommandLine.IFactory factory, boolean debug, String... args) {
        return kmodel(() -> Kmodel.commandLine(factory, debug), args);
    }

    /** Runs {@code args} on the command line {@code make} builds (a test may add to its model). */
    static CliRun kmodel(java.util.function.Supplier<CommandLine> make, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        long before = allocatedBytes();
        int code = -1;
        Throwable escaped = null;
        try {
            CommandLine cmd = make.get();
            cmd.setOut(new PrintWriter(out, true));
            cmd.setErr(new PrintWriter(err, true));
            code = Kmodel.execute(cmd, args);
        } catch (Throwable t) {
            escaped = t;
        }
        long after = allocatedBytes();
        long allocated = before < 0 || after < 0 ? -1 : after - before;
        return new CliRun(args.clone(), code, out.toString(), err.toString(), escaped, allocated);
    }

    /** A factory that makes {@code replay} with {@code decoder} and every other command as usual. */
    static CommandLine.IFactory withDecoder(java.util.function.Function<String, kmodel.explorer.trace.ReplayToken> decoder) {
        return new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> cls) throws Exception {
                if (cls == ReplayCommand.class) {
                    return cls.cast(new ReplayCommand(decoder));
                }
                return CommandLine.defaultFactory().create(cls);
            }
        };
    }

    private static long allocatedBytes() {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (mx instanceof com.sun.management.ThreadMXBean) {
            com.sun.management.ThreadMXBean sun = (com.sun.management.ThreadMXBean) mx;
            if (sun.isThreadAllocatedMemorySupported() && sun.isThreadAllocatedMemoryEnabled()) {
                return sun.getThreadAllocatedBytes(Thread.currentThread().getId());
            }
        }
        return -1;
    }

    /** The lines of {@code s}, without the empty string after a final newline. */
    static List<String> lines(String s) {
        List<String> l = new ArrayList<>(Arrays.asList(s.split("\n", -1)));
        if (!l.isEmpty() && l.get(l.size() - 1).isEmpty()) {
            l.remove(l.size() - 1);
        }
        return l;
    }

    List<String> errLines() {
        return lines(err);
    }

    @Override
    public String toString() {
        StringBuilder a = new StringBuilder();
        for (String s : args) {
            a.append(' ').append(CliOracle.quote(s));
        }
        return "kmodel" + a + "\nexit " + code + (escaped != null ? ", escaped: " + escaped : "")
                + ", allocated " + allocated + " bytes\n--- out\n" + abbreviate(out) + "--- err\n" + abbreviate(err);
    }

    private static String abbreviate(String s) {
        return s.length() <= 4000 ? s : s.substring(0, 4000) + "... (" + (s.length() - 4000) + " more)\n";
    }
}
