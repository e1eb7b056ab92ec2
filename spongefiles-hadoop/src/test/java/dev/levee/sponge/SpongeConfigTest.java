package dev.levee.sponge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SpongeConfigTest {
  @Test
  void defaults() {
    SpongeConfig c = SpongeConfig.from(new Configuration(false));
    assertEquals(1 << 20, c.chunkSize());
    assertTrue(c.localEnabled());
    assertEquals(Path.of("/dev/shm/levee-sponge"), c.poolDir());
    assertEquals(1L << 30, c.poolSize());
    assertTrue(c.remoteEnabled());
    assertTrue(c.diskEnabled());
    assertEquals(
        List.of(Path.of(System.getProperty("java.io.tmpdir"), "levee-sponge")), c.diskDirs());
    assertTrue(c.dfsEnabled());
    assertEquals("/tmp/levee-sponge", c.dfsDir());
    assertEquals(2, c.maxInFlightWrites());
    assertTrue(c.prefetch());
    assertFalse(c.ownerHost().isEmpty());
  }

  @Test
  void parsesSizesListsAndSwitches() {
    Configuration conf = new Configuration(false);
    conf.set(SpongeConfigKeys.CHUNK_SIZE, "256k");
    conf.set(SpongeConfigKeys.LOCAL_POOL_SIZE, "3g");
    conf.set(SpongeConfigKeys.DISK_DIRS, " /data/1/yarn ,file:///data/2/yarn,");
    conf.set(SpongeConfigKeys.REMOTE_ENABLED, "FALSE");
    conf.set(SpongeConfigKeys.WRITE_MAX_IN_FLIGHT, "4");
    SpongeConfig c = SpongeConfig.from(conf);
    assertEquals(256 * 1024, c.chunkSize());
    assertEquals(3L << 30, c.poolSize());
    assertEquals(List.of(Path.of("/data/1/yarn"), Path.of("/data/2/yarn")), c.diskDirs());
    assertFalse(c.remoteEnabled());
    assertEquals(4, c.maxInFlightWrites());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "levee.sponge.chunk.size|lots|a byte count",
        "levee.sponge.chunk.size|1000|between 4096 and 1073741824",
        "levee.sponge.chunk.size|2g|between 4096 and 1073741824",
        "levee.sponge.local.pool.size|1k|between 1048576",
        "levee.sponge.local.enabled|yes|true or false",
        "levee.sponge.read.prefetch|1|true or false",
        "levee.sponge.write.max-in-flight-chunks|0|an integer between 1 and 64",
        "levee.sponge.write.max-in-flight-chunks|two|an integer between 1 and 64",
        "levee.sponge.disk.dirs|/ok,relative/dir|absolute local directories",
        "levee.sponge.local.pool.dir|shm|an absolute local directory",
      })
  void badValuesFailNamingKeyValueAndWhatIsAllowed(String key, String value, String allowed) {
    Configuration conf = new Configuration(false);
    conf.set(key, value);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SpongeConfig.from(conf));
    assertTrue(e.getMessage().contains(key), e.getMessage());
    assertTrue(e.getMessage().contains("'" + value + "'"), e.getMessage());
    assertTrue(e.getMessage().contains(allowed), e.getMessage());
  }

  @Test
  void emptyDfsDirWhileEnabledIsRejected() {
    Configuration conf = new Configuration(false);
    conf.set(SpongeConfigKeys.DFS_DIR, " ");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SpongeConfig.from(conf));
    assertTrue(e.getMessage().contains(SpongeConfigKeys.DFS_DIR), e.getMessage());
    conf.set(SpongeConfigKeys.DFS_ENABLED, "false");
    assertFalse(SpongeConfig.from(conf).dfsEnabled());
  }
}
