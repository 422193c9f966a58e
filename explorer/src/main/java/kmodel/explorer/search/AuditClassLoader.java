package kmodel.explorer.search;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The footprint audit's class loader (issue 25): loads every {@code kmodel} class itself (child
 * first), from the bytes its parent would load, so that the audited check runs on a copy of the
 * runtime, the model and the explorer of its own; and rewrites the bytecode of the tracked
 * classes (ASM) so that each access to a non-final field of a {@code kmodel} class, and each
 * array element load and store, first calls {@link kmodel.kernel.sched.FieldAudit}.
 *
 * <p>Tracked: every {@code kmodel} class but the runtime's and the explorer's, whose fields are
 * bookkeeping, not model state ({@link #tracked}). An access is reported at the place of the
 * instruction, in the step of the task that runs it; the runtime's own code is not rewritten, so
 * what it reads and writes for its scheduling (a task's run state, a spinlock's owner when it
 * looks for runnable tasks) is never counted as the model's.
 *
 * <p>Not seen: static fields (the model keeps none: {@code ModelRulesArchTest}); the contents
 * of JDK objects (a {@code java.util} collection's elements, a {@code StringBuilder}), whose
 * classes are not rewritten; final fields (written once, before the object is published);
 * accesses to the object under construction before its {@code super(...)} call; fields marked
 * {@link kmodel.kernel.sched.AuditExempt} (statistics no step reads), on the model's word.
 */
public final class AuditClassLoader extends ClassLoader {
    private static final String HOOKS = "kmodel/kernel/sched/FieldAudit";
    /** Fields of a class, or a field, carrying this annotation are not model state. */
    private static final String EXEMPT = "Lkmodel/kernel/sched/AuditExempt;";

    static {
        registerAsParallelCapable();
    }

    /** Per class (internal name): its non-final instance fields and its super class; null if not a kmodel class. */
    private final Map<String, ClassFields> fields = new HashMap<>();

    /** A class's own non-final instance fields and its super class (internal names). */
    private static final class ClassFields {
        final java.util.Set<String> nonFinal = new java.util.HashSet<>();
        String superName;
    }

    /** Classes rewritten although {@link #tracked} leaves them out: a deliberate break, for tests. */
    private final java.util.Set<String> alsoTracked;

    /** A loader whose parent holds the classes to audit (normally the caller's class loader). */
    public AuditClassLoader(ClassLoader parent) {
        this(parent, java.util.Set.of());
    }

    /**
     * A loader that also rewrites the classes named in {@code alsoTracked} (binary names, e.g.
     * the runtime's {@code kmodel.kernel.locking.Spinlock}): counting the runtime's bookkeeping as
     * the model's, which a test shows the audit then reports.
     */
    public AuditClassLoader(ClassLoader parent, java.util.Set<String> alsoTracked) {
        this(parent, alsoTracked, true);
    }

    /** Whether {@link kmodel.kernel.sched.AuditExempt} is honoured (false: a deliberate break, for tests). */
    private final boolean exemptions;

    /** {@link #AuditClassLoader(ClassLoader, java.util.Set)}, with {@code exemptions} false ignoring {@code @AuditExempt}. */
    public AuditClassLoader(ClassLoader parent, java.util.Set<String> alsoTracked, boolean exemptions) {
        super("kmodel-footprint-audit", parent);
        this.alsoTracked = java.util.Set.copyOf(alsoTracked);
        this.exemptions = exemptions;
    }

    /**
     * Whether the accesses of class {@code name} (binary name) are model state: every
     * {@code kmodel} class but the runtime ({@code kmodel.kernel.sched}, {@code Kernel} and the
     * configuration and violation types), the lifetime tracker and the data-race detector ({@code kmodel.kernel.race}), spinlocks (the runtime reads
     * their owner to find runnable tasks), the explorer ({@code kmodel.explorer}: the check
     * drivers, strategies, traces), the simulation's runtime ({@code kmodel.sim}, but not the worlds
     * it shares with the scenarios, {@code kmodel.sim.world}), the registry and the command line.
     */
    static boolean tracked(String name) {
        if (!name.startsWith("kmodel.")) {
            return false;
        }
        if (name.startsWith("kmodel.sim.world.")) {
            return true;
        }
        String[] untrackedPackages = {"kmodel.kernel.sched.", "kmodel.kernel.lifetime.", "kmodel.kernel.race.", "kmodel.explorer.",
            "kmodel.sim.", "kmodel.tools."};
        for (String p : untrackedPackages) {
            if (name.startsWith(p)) {
                return false;
            }
        }
        String top = name.indexOf('$') >= 0 ? name.substring(0, name.indexOf('$')) : name;
        switch (top) {
            case "kmodel.kernel.Kernel":
            case "kmodel.kernel.Kconfig":
            case "kmodel.kernel.KconfigOption":
            case "kmodel.kernel.KernelOptions":
            case "kmodel.kernel.Violation":
            case "kmodel.kernel.ViolationKind":
            case "kmodel.kernel.locking.Spinlock":
            case "kmodel.verification.KconfigTable":
            case "kmodel.verification.Profiles":
            case "kmodel.verification.ScenarioRegistry":
            case "kmodel.verification.world.Scenario":
            case "kmodel.verification.world.ScenarioSet":
            case "kmodel.verification.SwarmCheck":
            case "kmodel.verification.FootprintAudit":
                return false;
            default:
                return true;
        }
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.startsWith("kmodel.")) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                byte[] bytes = bytesOf(name.replace('.', '/'));
                if (bytes == null) {
                    throw new ClassNotFoundException(name);
                }
                if (tracked(name) || alsoTracked.contains(name)) {
                    bytes = instrument(bytes);
                }
                c = defineClass(name, bytes, 0, bytes.length);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    private byte[] bytesOf(String internalName) {
        try (InputStream in = getParent().getResourceAsStream(internalName + ".class")) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            return null;
        }
    }

    /** The fields of kmodel class {@code internalName}, read from its class file; null if not a kmodel class. */
    private ClassFields fieldsOf(String internalName) {
        synchronized (fields) {
            if (fields.containsKey(internalName)) {
                return fields.get(internalName);
            }
        }
        ClassFields cf = null;
        if (internalName.startsWith("kmodel/")) {
            byte[] bytes = bytesOf(internalName);
            if (bytes != null) {
                ClassFields found = new ClassFields();
                boolean[] exempt = {false};
                new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
                    @Override
                    public void visit(int version, int access, String name, String signature, String superName,
                            String[] interfaces) {
                        found.superName = superName;
                    }

                    @Override
                    public org.objectweb.asm.AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
                        exempt[0] |= EXEMPT.equals(descriptor);
                        return null;
                    }

                    @Override
                    public FieldVisitor visitField(int access, String name, String descriptor, String signature,
                            Object value) {
                        if ((access & (Opcodes.ACC_FINAL | Opcodes.ACC_STATIC)) != 0) {
                            return null;
                        }
                        found.nonFinal.add(name);
                        return new FieldVisitor(Opcodes.ASM9) {
                            @Override
                            public org.objectweb.asm.AnnotationVisitor visitAnnotation(String d, boolean visible) {
                                if (exemptions && EXEMPT.equals(d)) {
                                    found.nonFinal.remove(name);
                                }
                                return null;
                            }
                        };
                    }
                }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
                if (exempt[0] && exemptions) {
                    found.nonFinal.clear();
                }
                cf = found;
            }
        }
        synchronized (fields) {
            fields.put(internalName, cf);
        }
        return cf;
    }

    /**
     * Whether {@code owner.name} (as a field instruction names it) resolves to a non-final
     * instance field declared in a kmodel class: the field is looked up in {@code owner} and its
     * super classes, as the JVM resolves it.
     */
    boolean trackedField(String owner, String name) {
        for (String c = owner; c != null; ) {
            ClassFields cf = fieldsOf(c);
            if (cf == null) {
                return false;
            }
            if (cf.nonFinal.contains(name)) {
                return true;
            }
            c = cf.superName;
        }
        return false;
    }

    /** {@code bytes} with every tracked field access and array element access reported first. */
    byte[] instrument(byte[] bytes) {
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        String[] source = {reader.getClassName().substring(reader.getClassName().lastIndexOf('/') + 1) + ".java"};
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public void visitSource(String file, String debug) {
                if (file != null) {
                    source[0] = file;
                }
                super.visitSource(file, debug);
            }

            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                    String[] exceptions) {
                MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
                if ("<clinit>".equals(name)) {
                    return new ClassInitScope(new Reporting(mv, false, source[0]));
                }
                return new Reporting(mv, "<init>".equals(name), source[0]);
            }
        }, 0);
        return writer.toByteArray();
    }

    /**
     * Brackets a static initialiser with {@link kmodel.kernel.sched.FieldAudit#clinitEnter} and
     * {@code clinitExit} (before each {@code return}), so that accesses made while a class is
     * initialised, in the initialiser or in what it calls, are not reported: the JVM runs it under
     * the class-initialisation lock, which orders it before every use of the class by any thread
     * (JLS 12.4.2). javac 17 fills an enum switch's synthetic {@code $SwitchMap} array there, on
     * the first task that switches. An initialiser that throws leaves its task's thread marked;
     * the task then dies of the {@code ExceptionInInitializerError}, and its thread with it.
     */
    private static final class ClassInitScope extends MethodVisitor {
        ClassInitScope(MethodVisitor mv) {
            super(Opcodes.ASM9, mv);
        }

        @Override
        public void visitCode() {
            super.visitCode();
            super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "clinitEnter", "()V", false);
        }

        @Override
        public void visitInsn(int opcode) {
            if (opcode == Opcodes.RETURN) {
                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "clinitExit", "()V", false);
            }
            super.visitInsn(opcode);
        }
    }

    /** Rewrites one method's field and array instructions. */
    private final class Reporting extends MethodVisitor {
        /** In a constructor, before its {@code super(...)}/{@code this(...)} call: {@code this} is uninitialised. */
        private boolean beforeSuper;
        /** {@code new} instructions whose constructor call has not been seen yet (before the super call). */
        private int pendingNew;

        /** The source file and the line of the instruction, for the finding ({@code File.java:123}). */
        private final String source;
        private int line;

        Reporting(MethodVisitor mv, boolean constructor, String source) {
            super(Opcodes.ASM9, mv);
            this.beforeSuper = constructor;
            this.source = source;
        }

        @Override
        public void visitLineNumber(int line, org.objectweb.asm.Label start) {
            this.line = line;
            super.visitLineNumber(line, start);
        }

        private void site() {
            super.visitLdcInsn(source + ":" + line);
        }

        @Override
        public void visitTypeInsn(int opcode, String type) {
            if (beforeSuper && opcode == Opcodes.NEW) {
                pendingNew++;
            }
            super.visitTypeInsn(opcode, type);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
            if (beforeSuper && opcode == Opcodes.INVOKESPECIAL && "<init>".equals(name)) {
                if (pendingNew == 0) {
                    beforeSuper = false;
                } else {
                    pendingNew--;
                }
            }
        }

        @Override
        public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
            if (!beforeSuper && (opcode == Opcodes.GETFIELD || opcode == Opcodes.PUTFIELD) && trackedField(owner, name)) {
                String label = owner.substring(owner.lastIndexOf('/') + 1) + "." + name;
                if (opcode == Opcodes.GETFIELD) {
                    // [obj] -> [obj obj] -> hook(obj, label) -> [obj]
                    super.visitInsn(Opcodes.DUP);
                    super.visitLdcInsn(label);
                    site();
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "getfield",
                            "(Ljava/lang/Object;Ljava/lang/String;Ljava/lang/String;)V", false);
                } else if (descriptor.equals("J") || descriptor.equals("D")) {
                    // [obj vv] -> [vv obj vv] -> [vv obj] -> [obj vv obj] -> hook -> [obj vv]
                    super.visitInsn(Opcodes.DUP2_X1);
                    super.visitInsn(Opcodes.POP2);
                    super.visitInsn(Opcodes.DUP_X2);
                    super.visitLdcInsn(label);
                    site();
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "putfield",
                            "(Ljava/lang/Object;Ljava/lang/String;Ljava/lang/String;)V", false);
                } else {
                    // [obj v] -> [obj v obj v] -> [obj v obj] -> hook -> [obj v]
                    super.visitInsn(Opcodes.DUP2);
                    super.visitInsn(Opcodes.POP);
                    super.visitLdcInsn(label);
                    site();
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "putfield",
                            "(Ljava/lang/Object;Ljava/lang/String;Ljava/lang/String;)V", false);
                }
            }
            super.visitFieldInsn(opcode, owner, name, descriptor);
        }

        @Override
        public void visitInsn(int opcode) {
            switch (opcode) {
                case Opcodes.IALOAD:
                case Opcodes.LALOAD:
                case Opcodes.FALOAD:
                case Opcodes.DALOAD:
                case Opcodes.AALOAD:
                case Opcodes.BALOAD:
                case Opcodes.CALOAD:
                case Opcodes.SALOAD:
                    // [arr i] -> [arr i arr i] -> hook(arr, i) -> [arr i]
                    super.visitInsn(Opcodes.DUP2);
                    site();
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "element", "(Ljava/lang/Object;ILjava/lang/String;)V",
                            false);
                    super.visitInsn(opcode);
                    return;
                case Opcodes.IASTORE:
                    store("iastore", "([III)V");
                    return;
                case Opcodes.LASTORE:
                    store("lastore", "([JIJ)V");
                    return;
                case Opcodes.FASTORE:
                    store("fastore", "([FIF)V");
                    return;
                case Opcodes.DASTORE:
                    store("dastore", "([DID)V");
                    return;
                case Opcodes.AASTORE:
                    store("aastore", "([Ljava/lang/Object;ILjava/lang/Object;)V");
                    return;
                case Opcodes.BASTORE:
                    store("bastore", "(Ljava/lang/Object;II)V");
                    return;
                case Opcodes.CASTORE:
                    store("castore", "([CII)V");
                    return;
                case Opcodes.SASTORE:
                    store("sastore", "([SII)V");
                    return;
                default:
                    super.visitInsn(opcode);
            }
        }

        private void store(String hook, String descriptor) {
            site();
            super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, hook, descriptor.replace(")V", "Ljava/lang/String;)V"),
                    false);
        }
    }
}
