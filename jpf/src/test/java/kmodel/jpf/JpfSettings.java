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
        IsolatedConfig(Reader in, String[] args) {
            super(in);
            loadArgs(args.clone());
        }
    }

    /** The configuration of a JPF run: the resource, the class paths, then {@code args}. */
    static Config config(String... args) {
        Config conf;
        try (InputStream in = JpfSettings.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " missing beside " + JpfSettings.class.getName());
            }
            conf = new IsolatedConfig(new InputStreamReader(in, StandardCharsets.UTF_8), args);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + RESOURCE, e);
        }
        conf.put("classpath", String.join(",", classpath()));
        conf.put("native_classpath", jpfJar());
        // the site, the app and the projects this configuration does not have
        conf.put("jpf.site", "");
        conf.put("jpf.app", "");
        return conf;
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
