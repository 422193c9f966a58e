package kmodel.tools.arch.canary.explorer;

import kmodel.tools.arch.canary.mm.CanaryPage;

/** Breaks the module rule: the explorer uses the model (mm-filemap). */
public final class CanaryExplorerUsesMm {
    private CanaryExplorerUsesMm() {
    }

    public static int pages() {
        return CanaryPage.size();
    }
}
