package dev.levee.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.bench.results.RepoLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The committed pages and figures agree: every image a page shows exists, and every figure in
 * {@code bench/results/figures} is shown by some page (a figure nobody links is a figure nobody
 * checks when its numbers change).
 */
class FigureReferencesTest {
  private static final Pattern IMAGE = Pattern.compile("!\\[[^\\]]*\\]\\(([^)\\s]+\\.png)\\)");

  private static final Path ROOT = RepoLayout.repoRoot(Path.of("").toAbsolutePath());

  /** README.md, docs/*.md, every module's README.md, and the results' own pages. */
  static List<Path> pages() throws IOException {
    List<Path> pages = new ArrayList<>();
    try (Stream<Path> files = Files.walk(ROOT, 4)) {
      files
          .filter(p -> p.getFileName().toString().endsWith(".md"))
          .filter(
              p -> {
                String rel = ROOT.relativize(p).toString().replace('\\', '/');
                if (rel.startsWith(".") || rel.contains("/target/") || rel.contains("/.")) {
                  return false;
                }
                return rel.endsWith("README.md")
                    || rel.startsWith("docs/")
                    || rel.startsWith("bench/results/") && !rel.startsWith("bench/results/archive");
              })
          .forEach(pages::add);
    }
    return pages;
  }

  @Test
  void everyImageAPageShowsExistsAndEveryFigureIsShown() throws IOException {
    List<Path> pages = pages();
    assertTrue(pages.contains(ROOT.resolve("README.md")), "found the top README under " + ROOT);
    List<String> missing = new ArrayList<>();
    Set<Path> shown = new TreeSet<>();
    for (Path page : pages) {
      Matcher m = IMAGE.matcher(Files.readString(page));
      while (m.find()) {
        String link = m.group(1);
        if (link.startsWith("http")) {
          continue;
        }
        Path target = page.getParent().resolve(link).normalize();
        if (Files.exists(target)) {
          shown.add(target);
        } else {
          missing.add(ROOT.relativize(page) + " shows " + link);
        }
      }
    }
    assertEquals(List.of(), missing, "images that do not exist");
    List<String> unshown = new ArrayList<>();
    try (Stream<Path> figures = Files.list(ROOT.resolve("bench/results/figures"))) {
      figures
          .filter(p -> p.getFileName().toString().endsWith(".png"))
          .map(Path::normalize)
          .filter(p -> !shown.contains(p))
          .forEach(p -> unshown.add(ROOT.relativize(p).toString()));
    }
    assertEquals(List.of(), unshown, "figures no page shows");
  }
}
