package kmodel.tools.arch.canary.mm;

/** A model class (mm-filemap) for the canaries of LayersArchTest. */
public final class CanaryPage {
    private CanaryPage() {
    }

    public static int size() {
        return 4096;
    }
}
