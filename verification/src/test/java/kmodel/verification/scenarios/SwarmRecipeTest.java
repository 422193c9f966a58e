package kmodel.verification.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.kernel.KernelOptions;
import kmodel.mm.MmOptions;
import kmodel.verification.world.Scenario;
import kmodel.verification.ScenarioRegistry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The recipe's text form and its well-formedness rules, by example. */
class SwarmRecipeTest {
    private static final String HEAD = "pages=2 table=1 walk=1 ra=0 cached=0,1 wb=- fail=- ";

    @Test
    void theTextFormReadsBackToTheSameRecipe() {
        String text = "pages=2 table=1 walk=1 ra=2 cached=0,1 wb=0 fail=1 t0=lock(0),trylock(1),unlock(1),unlock(0)"
                + " t1=killable(0),unlock(0),waitwb(0) t2=kill(t1),read(1) irq=endwb(0)";
        SwarmRecipe r = SwarmRecipe.parse(text);
        assertEquals(text, r.toString());
        assertEquals(3, r.tasks().size());
        assertEquals(new SwarmOp(SwarmOp.Kind.KILL, 1), r.tasks().get(2).get(0));
        assertTrue(r.hasKill());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "t0=unlock(0)|t0: unlock(0) without a lock of page 0 before it",
        "t0=lock(1),lock(0),unlock(0),unlock(1)|t0: lock(0) sleeps for page 0 holding page 1 (page locks go in ascending order)",
        "t0=trylock(1),killable(0),unlock(0),unlock(1)|t0: killable(0) sleeps for page 0 holding page 1",
        "t0=lock(0)|t0 ends holding page 0 (unlock it)",
        "t0=lock(0),lock(0),unlock(0)|t0: lock(0) while it may already hold page 0",
        "t0=lock(0),read(1),unlock(0)|t0: read(1) holding page 0 (it must hold no page lock)",
        "t0=lock(0),waitlocked(1),unlock(0)|t0: waitlocked(1) holding page 0",
        "t0=alock(0),unlock(0) t1=kill(t0)|t1: kill(t0) kills a task that waits for task_work (alock(0))",
        "t0=kill(t0)|t0: kill(t0) must name another task",
        "t0=endwb(0)|t0: endwb runs in the irq task only",
        "t0=lock(2),unlock(2)|t0: lock(2) names page 2 of 2",
        "t0=lock(0),unlock(0) irq=endwb(0)|irq ends writeback of page 0, which is not under writeback (wb)",
        "t0=frob(0)|unknown operation 'frob'",
        "t0=lock(x)|argument of lock: expected a small number, got 'x'",
        "t0=lock(0),unlock(0) t1=lock(0),unlock(0) t2=lock(0),unlock(0) t3=lock(0),unlock(0) t4=lock(0),unlock(0)"
                + "|more than 4 tasks",
    })
    void anIllFormedRecipeIsRefusedWithOneLineSayingWhy(String tasks, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SwarmRecipe.parse(HEAD + tasks));
        assertTrue(e.getMessage().startsWith("swarm recipe: "), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertTrue(e.getMessage().indexOf('\n') < 0, e.getMessage());
    }

    @Test
    void writebackMustBeOnCachedPagesAndEndedOnceByTheIrqTask() {
        String tasks = " t0=waitwb(0)";
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> SwarmRecipe.parse("pages=2 table=1 walk=1 ra=0 cached=1 wb=0 fail=-" + tasks + " irq=endwb(0)"))
                .getMessage().contains("wb page 0 is not cached"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> SwarmRecipe.parse("pages=2 table=1 walk=1 ra=0 cached=0 wb=0 fail=-" + tasks))
                .getMessage().contains("irq must end the writeback of every wb page once"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> SwarmRecipe.parse("pages=2 table=1 walk=1 ra=0 cached=0 wb=0 fail=-" + tasks + " irq=endwb(0),endwb(0)"))
                .getMessage().contains("twice"));
    }

    @Test
    void theRegistryBuildsASwarmScenarioFromItsNameWithTheRecipesSettings() {
        String recipe = "pages=1 table=1 walk=1 ra=0 cached=0 wb=- fail=- t0=killable(0),unlock(0) t1=kill(t0)";
        Scenario<?> s = ScenarioRegistry.everything().find("swarm:" + recipe);
        assertNotNull(s);
        assertEquals("swarm:" + recipe, s.name());
        assertEquals(1, s.settings().value(MmOptions.PAGE_WAIT_TABLE_SIZE));
        assertEquals(1, s.settings().value(KernelOptions.WAITQUEUE_WALK_BREAK_CNT));
        assertEquals(0, s.settings().value(MmOptions.PAGE_LOCK_UNFAIRNESS), "a recipe with a kill runs the fair hand-off");
        assertNull(ScenarioRegistry.everything().find("no-such-scenario"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ScenarioRegistry.everything().get("swarm:pages=9"));
        assertTrue(e.getMessage().startsWith("swarm recipe: "), e.getMessage());
    }
}
