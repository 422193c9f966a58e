package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every relative link of README.md and docs/**&#47;*.md resolves: the file or directory it names
 * exists, and an {@code #anchor} (in the same document, or in another Markdown document) is the
 * anchor GitHub gives one of that document's headings. Links to other sites are not followed.
 */
class DocsTest {

    /** What is wrong with each relative link of the documents under {@code root}, one line each. */
    static List<String> brokenLinks(Path root) {
        List<String> broken = new ArrayList<>();
        for (String doc : Docs.documents(root)) {
            Path file = root.resolve(doc);
            for (Docs.Link l : Docs.links(doc, Docs.read(file))) {
                String problem = problem(root, file, l.target);
                if (problem != null) {
                    broken.add(l + ": " + problem);
                }
            }
        }
        return broken;
    }

    /** Why {@code target}, a link of {@code from}, does not resolve; null when it does or is not relative. */
    private static String problem(Path root, Path from, String target) {
        if (target.isEmpty()) {
            return "empty link";
        }
        if (target.matches("(?i)[a-z][a-z0-9+.-]*:.*")) {
            return null; // https:, mailto:, ...: another site
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path resolved = path.isEmpty() ? from : (path.startsWith("/") ? root.resolve(path.substring(1)) : from.getParent().resolve(path))
                .normalize();
        if (!resolved.startsWith(root)) {
            return "outside the repository";
        }
        if (!Files.exists(resolved)) {
            return "no such file: " + root.relativize(resolved);
        }
        if (anchor == null) {
            return null;
        }
        if (anchor.isEmpty()) {
            return "empty anchor";
        }
        if (Files.isDirectory(resolved) || !resolved.toString().endsWith(".md")) {
            return null; // GitHub's anchors into a directory listing or a source file (#L12) are not headings
        }
        Set<String> anchors = Docs.anchors(Docs.read(resolved));
        if (!anchors.contains(anchor)) {
            return "no heading with anchor #" + anchor + " in " + root.relativize(resolved);
        }
        return null;
    }

    @Test
    void everyRelativeLinkOfTheReadmeAndTheDocsResolves() {
        Path root = Docs.root();
        List<String> broken = brokenLinks(root);
        assertTrue(broken.isEmpty(), () -> broken.size() + " broken links:\n" + String.join("\n", broken));
    }

    @Test
    void theReadmeLinksEveryDocument() {
        Path root = Docs.root();
        String readme = Docs.read(root.resolve("README.md"));
        List<String> unlinked = new ArrayList<>();
        for (String doc : Docs.documents(root)) {
            if (doc.equals("README.md")) {
                continue;
            }
            boolean linked = false;
            for (String from : Docs.documents(root)) {
                for (Docs.Link l : Docs.links(from, Docs.read(root.resolve(from)))) {
                    String t = l.target.replaceAll("#.*", "");
                    Path target = t.isEmpty() ? null : root.resolve(from).getParent().resolve(t).normalize();
                    if (target != null && (target.equals(root.resolve(doc).normalize())
                            || (Files.isDirectory(target) && root.resolve(doc).getParent().normalize().equals(target)
                                    && doc.endsWith("/README.md")))) {
                        linked = true;
                    }
                }
            }
            if (!linked) {
                unlinked.add(doc);
            }
        }
        assertTrue(unlinked.isEmpty(), () -> "documents no other document links: " + unlinked);
        assertTrue(readme.split("\n").length < 420, "README.md is to stay short: " + readme.split("\n").length + " lines");
    }

    @Test
    void anchorsFollowGitHubsRules() {
        assertEquals("io_uring-seed-002", Docs.slug("io_uring (seed 002)"));
        assertEquals("write-path-mm-filemap", Docs.slug("Write path (mm-filemap)"));
        assertEquals("merge-replay-bugs-scenarios-options", Docs.slug("merge, replay, bugs, scenarios, options"));
        assertEquals("the-seeds-reproduced", Docs.slug("The seeds **reproduced**"));
        assertEquals("why-wait_on_page_writeback-loops", Docs.slug("Why `wait_on_page_writeback()` loops"));
        assertEquals(List.of("a", "a-1", "b", "a-2"),
                new ArrayList<>(Docs.anchors("# A\n## A\n```\n# not a heading\n```\n### B\n#### a\n")));
    }

    /** The check fails on each kind of broken link, and passes the same documents mended. */
    @Test
    void aBrokenLinkOrAnchorFailsTheCheck(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("docs/findings"));
        write(root.resolve("docs/findings/x.md"), "# Finding X\n\n## What happens\n");
        write(root.resolve("docs/a.md"), "# A\n\n## Some section\n\nBack to [the README](../README.md#usage).\n");
        String good = "# kmodel\n\n## Usage\n\nSee [A](docs/a.md#some-section), [X](docs/findings/x.md#what-happens),"
                + " [findings](docs/findings/), [usage](#usage), [site](https://example.org/none).\n"
                + " [a link whose text\nspans lines](docs/a.md).\n"
                + "`[not a link](nowhere.md)`\n```\n[nor this](nowhere.md)\n```\n";
        write(root.resolve("README.md"), good);
        assertEquals(List.of(), brokenLinks(root));

        write(root.resolve("README.md"), good.replace("docs/a.md#some-section", "docs/b.md#some-section"));
        assertEquals(List.of("README.md:5: (docs/b.md#some-section): no such file: docs/b.md"), brokenLinks(root));
        write(root.resolve("README.md"), good.replace("docs/a.md#some-section", "docs/a.md#another-section"));
        assertEquals(List.of("README.md:5: (docs/a.md#another-section): no heading with anchor #another-section in docs/a.md"),
                brokenLinks(root));
        write(root.resolve("README.md"), good.replace("(#usage)", "(#tests)"));
        assertEquals(List.of("README.md:5: (#tests): no heading with anchor #tests in README.md"), brokenLinks(root));
        write(root.resolve("README.md"), good.replace("spans lines](docs/a.md)", "spans lines](docs/c.md)"));
        assertEquals(List.of("README.md:7: (docs/c.md): no such file: docs/c.md"), brokenLinks(root));
        write(root.resolve("README.md"), good);
        write(root.resolve("docs/a.md"), "# A\n\n## Some section\n\nBack to [the README](../README.md#usage-1).\n");
        assertEquals(List.of("docs/a.md:5: (../README.md#usage-1): no heading with anchor #usage-1 in README.md"),
                brokenLinks(root));
    }

    private static void write(Path p, String s) throws IOException {
        Files.write(p, s.getBytes(StandardCharsets.UTF_8));
    }
}
