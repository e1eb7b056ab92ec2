package dev.levee.themis;

import dev.levee.config.ConfigDocs;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's configuration table is the registry's; {@code ./levee docs} regenerates it. */
class ThemisConfigDocsTest {
  @Test
  void readmeTableMatchesTheRegistry() {
    ConfigDocs.verify(ThemisConf.REGISTRY, Path.of("README.md"));
  }
}
