package kmodel.tools.fio;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The repository's {@code examples/} directory, from the tools module (Maven's working directory) or the root. */
public final class Examples {
    private Examples() {
    }

    /** The path of {@code examples/NAME}. */
    public static Path path(String name) {
        Path p = Path.of("..", "examples", name);
        return Files.exists(p) ? p : Path.of("examples", name);
    }

    /** The text of {@code examples/NAME}. */
    public static String text(String name) {
        try {
            return Files.readString(path(name), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The fio job files among the examples. */
    public static final String SEED000 = "seed000-btrfs-readpages.fio";
    /** Seed 002's job file. */
    public static final String SEED002 = "seed002-async-buffered-reads.fio";
    /** Seed 001's script. */
    public static final String SEED001 = "seed001-btrfs-dio-clone.sh";
}
