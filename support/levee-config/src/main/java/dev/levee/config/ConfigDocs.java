package dev.levee.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The configuration table of a module's docs, generated from its registry. The table sits between
 * two marker lines in a Markdown file; a module's test calls {@link #verify} so that the docs
 * cannot drift from the code, and {@code ./levee docs} (which sets {@value #UPDATE_PROPERTY})
 * rewrites the table instead.
 */
public final class ConfigDocs {
  private ConfigDocs() {}

  /**
   * System property or environment variable ({@code LEVEE_UPDATE_DOCS}) that makes {@link #verify}
   * rewrite.
   */
  public static final String UPDATE_PROPERTY = "levee.docs.update";

  public static String beginMarker(ConfigRegistry registry) {
    return "<!-- levee-config:"
        + registry.module()
        + " begin: generated from the module's registry by ./levee docs;"
        + " edit the registry, not this table -->";
  }

  public static String endMarker(ConfigRegistry registry) {
    return "<!-- levee-config:" + registry.module() + " end -->";
  }

  /**
   * The table: key, default, allowed values, first version, meaning; one row per key in declaration
   * order.
   */
  public static String render(ConfigRegistry registry) {
    StringBuilder s = new StringBuilder();
    s.append("| key | default | allowed | since | meaning |\n");
    s.append("|---|---|---|---|---|\n");
    for (ConfigKey<?> k : registry.keys()) {
      String def = k.defaultDescription().isEmpty() ? "(empty)" : k.defaultDescription();
      s.append("| `")
          .append(k.name())
          .append("` | ")
          .append(
              k.defaultDescription().equals(k.defaultText()) && !k.defaultText().isEmpty()
                  ? "`" + cell(def) + "`"
                  : cell(def))
          .append(" | ")
          .append(cell(k.allowed()))
          .append(" | ")
          .append(k.since())
          .append(" | ")
          .append(cell(k.doc()))
          .append(" |\n");
    }
    return s.toString();
  }

  /**
   * Checks that {@code file} holds the current table between the registry's markers; with {@value
   * #UPDATE_PROPERTY} set, rewrites it instead. Throws {@link AssertionError} (a test failure)
   * naming the command that fixes it.
   */
  public static void verify(ConfigRegistry registry, Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    String begin = beginMarker(registry);
    String end = endMarker(registry);
    int b = text.indexOf(begin);
    int e = text.indexOf(end);
    if (b < 0 || e < b) {
      throw new AssertionError(
          file
              + " has no generated configuration table for "
              + registry.module()
              + ": add the two lines\n"
              + begin
              + "\n"
              + end
              + "\nwhere it belongs, then run ./levee docs");
    }
    String current = text.substring(b + begin.length(), e);
    String wanted = "\n" + render(registry);
    if (current.equals(wanted)) {
      return;
    }
    if (updateRequested()) {
      try {
        Files.writeString(
            file,
            text.substring(0, b + begin.length()) + wanted + text.substring(e),
            StandardCharsets.UTF_8);
      } catch (IOException ex) {
        throw new UncheckedIOException("cannot rewrite " + file, ex);
      }
      return;
    }
    throw new AssertionError(
        "the configuration table of "
            + registry.module()
            + " in "
            + file
            + " differs from its registry: run ./levee docs (or set -D"
            + UPDATE_PROPERTY
            + "=true) and commit the result");
  }

  static boolean updateRequested() {
    return Boolean.getBoolean(UPDATE_PROPERTY)
        || "1".equals(System.getenv("LEVEE_UPDATE_DOCS"))
        || "true".equalsIgnoreCase(System.getenv("LEVEE_UPDATE_DOCS"));
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }
}
