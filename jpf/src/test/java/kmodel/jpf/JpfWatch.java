package kmodel.jpf;

import gov.nasa.jpf.ListenerAdapter;
import gov.nasa.jpf.vm.ClassInfo;
import gov.nasa.jpf.vm.MethodInfo;
import gov.nasa.jpf.vm.ThreadInfo;
import gov.nasa.jpf.vm.VM;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * A JPF listener in the host JVM: counts the {@link JpfProbe} marks the SUT passes, and checks the
 * classes JPF loads against part of the JPF-safe subset of DESIGN.md: no kmodel record, no Guava,
 * no stream. The architecture test checks the model's classes statically, every rule; this checks
 * what JPF actually ran ({@code java.util.concurrent} is not checked here: JPF's own model
 * classes load some of it).
 */
final class JpfWatch extends ListenerAdapter {
    private static final String PROBE = JpfProbe.class.getName();

    /** How often the SUT entered {@link JpfProbe#end()} (once per explored path that got there). */
    long ends;
    /** How often a task entered {@link JpfProbe#taskDone()}. */
    long tasksDone;
    /** The kmodel classes JPF loaded. */
    final TreeSet<String> kmodelClasses = new TreeSet<>();
    /** Loaded classes outside the JPF-safe subset, each with the reason. */
    final List<String> unsafe = new ArrayList<>();

    @Override
    public void methodEntered(VM vm, ThreadInfo thread, MethodInfo method) {
        if (PROBE.equals(method.getClassName())) {
            if ("end".equals(method.getName())) {
                ends++;
            } else if ("taskDone".equals(method.getName())) {
                tasksDone++;
            }
        }
    }

    @Override
    public void classLoaded(VM vm, ClassInfo ci) {
        String name = ci.getName();
        if (name.startsWith("kmodel.") && !name.startsWith("kmodel.jpf.")) {
            kmodelClasses.add(name);
            if (ci.isRecord()) {
                unsafe.add(name + ": a record (JPF silently ends a thread in its generated methods)");
            }
        } else if (name.startsWith("com.google.")) {
            unsafe.add(name + ": Guava");
        } else if (name.startsWith("java.util.stream.")) {
            unsafe.add(name + ": a stream");
        }
    }
}
