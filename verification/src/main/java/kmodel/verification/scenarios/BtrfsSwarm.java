package kmodel.verification.scenarios;

import java.util.List;
import java.util.Map;
import kmodel.verification.world.Scenario;

/** Placeholder while the btrfs swarm is written. */
final class BtrfsSwarm extends SwarmKind {
    @Override
    public String name() {
        return "btrfs";
    }

    @Override
    List<Field> fields() {
        return List.of(Field.num("pages", 1, 4));
    }

    @Override
    Map<String, Boolean> ops() {
        return Map.of("read", true);
    }

    @Override
    String exampleOp() {
        return "read(0)";
    }

    @Override
    void validate(KindRecipe r) {
    }

    @Override
    public KindRecipe generate(long seed) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Scenario<?> scenario(KindRecipe r) {
        throw new UnsupportedOperationException();
    }
}
