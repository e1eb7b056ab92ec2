package dev.levee.sponge.config;

import dev.levee.config.ConfigDocs;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The module README's configuration table is the registry's; {@code ./levee docs} rewrites it. */
class SpongeFilesConfigDocsTest {
  @Test
  void readmeTableMatchesTheRegistry() {
    ConfigDocs.verify(SpongeConf.REGISTRY, Path.of("README.md"));
  }
}
