package kmodel.kernel;

/**
 * The memory model an execution runs under ({@code --memory-model}). Part of the configuration
 * ({@link Kconfig#memoryModel()}), so that replay tokens, results and shards carry it.
 */
public enum MemoryModel {
    /** Sequential consistency between scheduling points: every load reads the latest store (the default). */
    SC("sc"),
    /**
     * The LKMM approximation of {@code kmodel.kernel.lkmm}: a load of a tracked location may read
     * any store its task's view allows, a choice of the search; barriers and ordered accesses
     * order as the kernel documents them (docs/memory-model.md).
     */
    LKMM("lkmm");

    private final String label;

    MemoryModel(String label) {
        this.label = label;
    }

    /** The name on the command line and in canonical configuration text: {@code sc}, {@code lkmm}. */
    public String label() {
        return label;
    }

    /** The model named {@code s} ({@code sc}, {@code lkmm}), or null. */
    public static MemoryModel of(String s) {
        for (MemoryModel m : values()) {
            if (m.label.equals(s)) {
                return m;
            }
        }
        return null;
    }
}
