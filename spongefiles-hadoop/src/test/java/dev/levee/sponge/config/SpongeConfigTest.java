package dev.levee.sponge.config;

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
    assertEquals(10_000, c.freeCloseWaitMillis());
    assertFalse(c.ownerHost().isEmpty());
  }

  @Test
  void parsesSizesListsAndSwitches() {
    Configuration conf = new Configuration(false);
    conf.set(SpongeConf.CHUNK_SIZE.name(), "256k");
    conf.set(SpongeConf.LOCAL_POOL_SIZE.name(), "3g");
    conf.set(SpongeConf.DISK_DIRS.name(), " /data/1/yarn ,file:///data/2/yarn,");
    conf.set(SpongeConf.REMOTE_ENABLED.name(), "FALSE");
    conf.set(SpongeConf.WRITE_MAX_IN_FLIGHT.name(), "4");
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
        "levee.sponge.chunk.size|lots|a byte size",
        "levee.sponge.chunk.size|1000|between 4k and 1g",
        "levee.sponge.chunk.size|2g|between 4k and 1g",
        "levee.sponge.chunk.size|99999999999999999999g|between 4k and 1g",
        "levee.sponge.local.pool.size|64k|at least one chunk (levee.sponge.chunk.size=1048576)",
        "levee.sponge.local.enabled|yes|true or false",
        "levee.sponge.read.prefetch|1|true or false",
        "levee.sponge.free.close-wait-ms|-1|an integer between 0 and 600000",
        "levee.sponge.write.max-in-flight-chunks|0|an integer between 1 and 64",
        "levee.sponge.write.max-in-flight-chunks|two|an integer between 1 and 64",
        "levee.sponge.disk.dirs|/ok,relative/dir|absolute local directories",
        "levee.sponge.local.pool.dir|shm|an absolute local path",
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
    conf.set(SpongeConf.DFS_DIR.name(), " ");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SpongeConfig.from(conf));
    assertTrue(e.getMessage().contains(SpongeConf.DFS_DIR.name()), e.getMessage());
    conf.set(SpongeConf.DFS_ENABLED.name(), "false");
    assertFalse(SpongeConfig.from(conf).dfsEnabled());
  }

  /** A typo in a key does not silently leave the default in force: it is reported, once. */
  @Test
  void unknownKeysAreReportedOnceWithTheNearestKnownKey() {
    Configuration conf = new Configuration(false);
    conf.set("levee.sponge.local.pool.szie", "4g");
    try (dev.levee.sponge.testing.CapturedLog log = dev.levee.sponge.testing.CapturedLog.start()) {
      SpongeConf.validate(conf);
      SpongeConf.validate(conf);
      List<String> warnings = log.messages(org.apache.log4j.Level.WARN, "dev.levee");
      assertEquals(
          List.of(
              "unknown setting levee.sponge.local.pool.szie is ignored; did you mean"
                  + " levee.sponge.local.pool.size?"),
          warnings);
    }
  }

  /** Every key reads through the registry: a bad value of any of them fails naming the key. */
  @Test
  void everyRegisteredKeyRejectsGarbageNamingTheKey() {
    for (dev.levee.config.ConfigKey<?> key : SpongeConf.REGISTRY.keys()) {
      if (key == SpongeConf.DFS_DIR) {
        continue; // any path or URI; emptiness is checked against dfs.enabled
      }
      if (key == SpongeConf.TLS_KEYSTORE_PASSWORD || key == SpongeConf.TLS_TRUSTSTORE_PASSWORD) {
        continue; // any string, and never echoed in a message: the store's load judges it
      }
      Configuration conf = new Configuration(false);
      conf.set(key.name(), "\u0000 not a value");
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> SpongeConf.validate(conf), key.name());
      assertTrue(e.getMessage().contains(key.name()), e.getMessage());
    }
  }
}
