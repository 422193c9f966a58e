package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import kmodel.tools.fio.Examples;
import kmodel.tools.fio.FioJob;
import org.junit.jupiter.api.Test;

/**
 * Every example in {@code examples/} runs through its command (on a {@link FakeRunner}): the two
 * job files through {@code kmodel fio}, and each {@code ./kmodel xfs_io} line of seed 001's
 * script through {@code kmodel xfs_io}, with the seed's own command line in the script's comment.
 */
class ExamplesTest {
    @Test
    void theJobFilesRunThroughKmodelFio() {
        for (String name : List.of(Examples.SEED000, Examples.SEED002)) {
            FakeRunner fake = new FakeRunner();
            CliRun r = CliRun.kmodel(FakeRunner.factory(fake), false, "fio", Examples.path(name).toString());
            CliOracle.assertSound(r);
            assertEquals(0, r.code, r::toString);
            assertEquals(1, fake.runs.get(0).size(), name);
        }
    }

    /** The words of a shell command line: blanks separate, double quotes group, {@code $clone} is {@code clone}. */
    private static List<String> words(String line, String clone) {
        List<String> w = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        boolean any = false;
        String s = line.replace("$clone", clone);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') {
                quoted = !quoted;
                any = true;
            } else if (c == ' ' && !quoted) {
                if (any) {
                    w.add(cur.toString());
                    cur.setLength(0);
                    any = false;
                }
            } else {
                cur.append(c);
                any = true;
            }
        }
        if (any) {
            w.add(cur.toString());
        }
        return w;
    }

    @Test
    void seed001sScriptRunsThroughKmodelXfsIo() {
        String script = Examples.text(Examples.SEED001);
        assertTrue(script.contains("#   time xfs_io -d -c \"pwrite -b 128K 0 2G\" $M/foo\n"), "the seed's line, as given");
        List<String> lines = new ArrayList<>();
        for (String l : script.split("\n")) {
            if (l.strip().startsWith("./kmodel xfs_io ")) {
                lines.add(l.strip());
            }
        }
        assertEquals(2, lines.size(), script);
        int writes = 0;
        for (String clone : List.of("0", "1")) {
            for (String l : lines) {
                List<String> argv = words(l, clone);
                FakeRunner fake = new FakeRunner();
                CliRun r = CliRun.kmodel(FakeRunner.factory(fake), false,
                        argv.subList(1, argv.size()).toArray(new String[0]));
                CliOracle.assertSound(r);
                assertEquals(0, r.code, r::toString);
                for (List<FioJob> run : fake.runs) {
                    FioJob j = run.get(0);
                    assertEquals(FioJob.Rw.WRITE, j.rw());
                    assertEquals(131072, j.bs());
                    assertEquals(2L << 30, j.size());
                    assertTrue(j.direct());
                    assertEquals(List.of("BTRFS_DIO_CLONE=" + clone), fake.settings.get(0).assignments());
                    writes++;
                }
            }
        }
        assertEquals(2, writes, "one pwrite per clone method; falloc runs nothing");
    }
}
