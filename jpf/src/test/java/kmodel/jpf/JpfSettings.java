package kmodel.jpf;

import gov.nasa.jpf.Config;
import gov.nasa.jpf.JPF;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * kmodel's JPF configuration, self-contained: {@code kmodel-jpf.properties} (a resource beside this
 * class) and the three paths Maven passes as system properties (jpf/pom.xml), nothing else.
 *
 * <p>JPF's own {@code new Config(args)} stacks a {@code site.properties} (from the working
 * directory, its parents, {@code ~/.jpf} or {@code ~/jpf}), the {@code jpf.properties} of every
 * directory above a class path entry and above the working directory, and the site's
 * {@code extensions}; each silently overrides the settings before it. This class builds the
 * {@link Config} from one {@link Reader} instead ({@code Config(Reader)} loads that source only)
 * and lays the command-line style {@code +key=value} arguments of a test over it. Runs in the
 * host JVM only, never under JPF.
 */
final class JpfSettings {
    /** The configuration file, a resource in this package. */
    static final String RESOURCE = "kmodel-jpf.properties";
    /** System property: the jpf-classes jar (JPF's java.base and other model classes). */
    static final String CLASSES = "kmodel.jpf.classes";
    /** System property: the kmodel module jars JPF runs, separated by the path separator. */
    static final String MODEL = "kmodel.jpf.model";
    /** System property: this module's test classes (the JPF tests themselves run under JPF). */
    static final String TESTS = "kmodel.jpf.tests";

    private JpfSettings() {
    }

    /** A Config read from one source, with {@code +key=value} arguments laid over it. */
    private static final class IsolatedConfig extends Config {
        IsolatedConfig(Reader in) {
            super(in);
        }

        void args(String[] args) {
            loadArgs(args.clone());
        }
    }

    /** The configuration of a JPF run: the resource, the class paths, then {@code args} ({@code +key=value}, which win). */
    static IsolatedConfig config(String... args) {
        IsolatedConfig conf;
        try (InputStream in = JpfSettings.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " missing beside " + JpfSettings.class.getName());
            }
            conf = new IsolatedConfig(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + RESOURCE, e);
        }
        conf.put("classpath", String.join(",", classpath()));
        conf.put("native_classpath", jpfJar());
        conf.args(args);
        return conf;
    }

    /**
     * Where JPF may switch threads. {@code FIELD}: JPF's own default, before every access to a
     * field or array of an object that more than one thread reaches (and at every synchronisation
     * action); it sees data races between the model's primitives too. {@code PRIMITIVE}: at the
     * explorer's scheduling points and nowhere else. The model's code runs on the free-running
     * runtime with {@link JpfPoints#YIELD}: every scheduling point of the model (each
     * {@code point}/{@code pointRead}, {@code spin_lock} and each failed spin, {@code spin_unlock},
     * {@code try_to_wake_up}) is a {@code Thread.yield()}, a JPF choice among every runnable
     * thread; {@link PointSyncPolicy} makes no other optional choice (none before a free monitor,
     * at a thread start, after notify or a monitor's release), and no field is a choice
     * ({@link #PRIMITIVE_NEVER_BREAK}). The choices JPF must make stay: a thread that blocks or
     * ends. So a JPF transition is one step of the explorer, the code of one task from one
     * scheduling point to the next (DESIGN.md, "sequential consistency between scheduling
     * points"); a data race between primitives is not looked for.
     */
    enum Granularity {
        FIELD,
        PRIMITIVE
    }

    /**
     * At {@link Granularity#PRIMITIVE}: no choice at an access to a field of the model or of
     * java.util (the model's collections), none at an array access inside their methods, and none
     * when a reference is stored into a shared object ("exposure": a field write too).
     */
    static final String PRIMITIVE_NEVER_BREAK = "kmodel.*.*,java.util.*.*";

    /** {@link #config(String...)} at {@code granularity}. */
    static Config config(Granularity granularity, String... args) {
        IsolatedConfig conf = config(args);
        if (granularity == Granularity.PRIMITIVE) {
            conf.put("vm.shared.never_break_fields", conf.getString("vm.shared.never_break_fields") + "," + PRIMITIVE_NEVER_BREAK);
            conf.put("vm.shared.never_break_methods", conf.getString("vm.shared.never_break_methods") + "," + PRIMITIVE_NEVER_BREAK);
            conf.put("vm.shared.break_on_exposure", "false");
            conf.put("cg.break_lock_release", "false");
            conf.put("cg.break_notify", "false");
            conf.put("vm.scheduler.sync.class", PointSyncPolicy.class.getName());
            // Left out of the states JPF compares: FreeRunningRuntime.pointObject, the object of the
            // last scheduling point, written for Lincheck's sake and read by nothing. Only at this
            // granularity, where no field access is a choice: at FIELD the write is a choice of
            // its own ("exposure"), and with the field left out JPF took the state after it for
            // the state before and explored nothing further (measured on the canary's twin: 0
            // ends reached, "no errors").
            conf.put("filter.instance_ammendments", IgnoredFields.class.getName());
            conf.put("kmodel.jpf.ignored_fields", "kmodel.kernel.sched.FreeRunningRuntime.pointObject");
            conf.args(args);
        }
        conf.put("kmodel.granularity", granularity.name());
        return conf;
    }

    /**
     * Stops the search after {@code maxStates} new states (jpf-core's BudgetChecker; a search it
     * stops is not complete: {@link JpfOutcome#complete()}).
     */
    static void budget(Config conf, int maxStates) {
        String listeners = conf.getString("listener");
        String budget = "gov.nasa.jpf.listener.BudgetChecker";
        conf.put("listener", listeners == null || listeners.isEmpty() ? budget : listeners + "," + budget);
        conf.put("budget.max_state", Integer.toString(maxStates));
    }

    /** The SUT class path: jpf-classes, the kmodel modules, this module's test classes; each must exist. */
    static List<String> classpath() {
        List<String> cp = new ArrayList<>();
        cp.add(existing(required(CLASSES), CLASSES));
        String model = required(MODEL);
        int modules = 0;
        for (String e : model.split(File.pathSeparator)) {
            if (!e.isEmpty()) {
                cp.add(existing(e, MODEL));
                modules++;
            }
        }
        if (modules == 0) {
            throw new IllegalStateException("system property " + MODEL + " names no kmodel module");
        }
        cp.add(existing(required(TESTS), TESTS));
        return cp;
    }

    /** The jar (or directory) the host loaded JPF itself from. */
    static String jpfJar() {
        try {
            return new File(JPF.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate jpf-core", e);
        }
    }

    private static String required(String property) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank() || v.startsWith("${")) {
            throw new IllegalStateException("system property " + property
                    + " is not set: run the JPF tests through Maven, mvn -Pjpf verify (jpf/pom.xml sets it)");
        }
        return v;
    }

    private static String existing(String path, String property) {
        File f = new File(path);
        if (!f.exists()) {
            throw new IllegalStateException(property + ": " + path + " does not exist");
        }
        return f.getAbsolutePath();
    }
}
