package kmodel.verification.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.fs.btrfs.BtrfsBugs;
import kmodel.kernel.ViolationKind;
import kmodel.sim.CostModel;
import kmodel.sim.DeviceProfile;
import kmodel.sim.Reproduction;
import kmodel.sim.SimPrograms;
import kmodel.sim.Simulator;
import org.junit.jupiter.api.Test;

/**
 * A catalog bug switched into a simulation fails it with the bug's own violation: the kind and
 * message part the catalog names for {@code btrfs-pagepool-leak}, not merely some failure (an
 * {@code oops} of the model would start with the same words). Here, not in {@code sim}'s own
 * tests, because the catalog is above the simulation.
 */
class SimulationCatalogTest {

    @Test
    void aModelThatFailsDuringASimulationFailsWithTheCatalogsKindAndMessage() {
        CatalogBug bug = BugCatalog.find(BtrfsBugs.PAGEPOOL_LEAK);
        Simulator.SimulationException e = assertThrows(Simulator.SimulationException.class,
                () -> Simulator.run(SimPrograms.btrfsSequentialReads(2, 1L << 20, 32 << 10, 32),
                        Reproduction.seed000(true).withBug(bug.id()), CostModel.standard(), 4,
                        DeviceProfile.sataSsd(), "test"));
        assertEquals(ViolationKind.REF_LEAK, bug.kind());
        assertEquals(bug.kind(), e.kind(), e.getMessage());
        assertTrue(e.getMessage().startsWith("the model failed during the simulation: " + bug.kind() + ": "),
                e.getMessage());
        assertTrue(e.getMessage().contains(bug.signature()), e.getMessage());
    }
}
