package dev.levee.bench.hadoop.sponge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.bench.results.Measurement;
import dev.levee.bench.results.ResultsStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PhysicalLimitsTest {
  private static Measurement line(String variant, int rep, double mbPerS) {
    return new Measurement(
        "physical-limits",
        variant,
        Map.of(),
        Map.of("mb_per_s", mbPerS),
        rep,
        Map.of(),
        "r",
        "t",
        "c");
  }

  @Test
  void usesTheMedianOfEachVariantsLatestRun(@TempDir Path dir) throws Exception {
    ResultsStore store = new ResultsStore(dir);
    store.append(line("tcp-loopback", 0, 9000));
    store.append(line("tcp-loopback", 1, 9000));
    store.append(line("memcpy-heap", 0, 1000));
    store.append(line("tcp-loopback", 0, 600)); // a new run starts
    store.append(line("tcp-loopback", 1, 800));
    store.append(line("tcp-loopback", 2, 700));
    store.append(line("memcpy-direct", 0, 900));
    store.append(line("memcpy-direct", 1, 1300));
    PhysicalLimits l = PhysicalLimits.load(dir);
    assertEquals(700.0, l.mbPerS("tcp-loopback").getAsDouble());
    assertEquals(1100.0, l.mbPerS("memcpy-direct").getAsDouble());
    PhysicalLimits.Limit memcpy = l.best("memcpy", "memcpy-heap", "memcpy-direct");
    assertEquals("memcpy-direct", memcpy.variant());
    assertEquals(1100.0, memcpy.mbPerS());
    assertNull(l.best("disk", "disk-write-fsync"));
  }

  @Test
  void noFileMeansNoLimits(@TempDir Path dir) throws Exception {
    assertTrue(PhysicalLimits.load(dir.resolve("absent")).isEmpty());
    Files.createDirectories(dir.resolve("empty"));
    assertTrue(PhysicalLimits.load(dir.resolve("empty")).isEmpty());
  }
}
