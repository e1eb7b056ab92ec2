package dev.levee.leaky;

import dev.levee.config.ConfigDocs;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The module README's configuration table is the registry's: `./levee docs` rewrites it. */
class LeakyConfigDocsTest {
  @Test
  void readmeTableMatchesTheRegistry() {
    ConfigDocs.verify(LeakyConf.REGISTRY(), Path.of("README.md"));
  }
}
