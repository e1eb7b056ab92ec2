package dev.levee.piranha;

import dev.levee.config.ConfigDocs;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's configuration table is generated from the registry; this keeps them equal. */
class PiranhaConfigDocsTest {
  @Test
  void readmeTableMatchesTheRegistry() {
    ConfigDocs.verify(PiranhaConf.REGISTRY, Path.of("README.md"));
  }
}
