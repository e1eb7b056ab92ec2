package dev.levee.hurricane;

import dev.levee.config.ConfigDocs;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The module README's configuration table is the registry's: `./levee docs` rewrites it. */
class HurricaneConfigDocsTest {
  @Test
  void readmeTableMatchesTheRegistry() {
    ConfigDocs.verify(HurricaneConf.REGISTRY(), Path.of("README.md"));
  }
}
