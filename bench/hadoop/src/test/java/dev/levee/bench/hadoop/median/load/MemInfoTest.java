package dev.levee.bench.hadoop.median.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MemInfoTest {
  @Test
  void parsesTheKibibyteLines() {
    MemInfo m =
        MemInfo.parse(
            """
        MemTotal:       24683988 kB
        MemFree:        23207052 kB
        MemAvailable:   24107660 kB
        Buffers:           74236 kB
        Cached:          1165060 kB
        Dirty:              1234 kB
        HugePages_Total:       0
        """);
    assertEquals(24683988L * 1024, m.totalBytes());
    assertEquals(24107660L * 1024, m.availableBytes());
    assertEquals(1165060L * 1024, m.cachedBytes());
    assertEquals(1234L * 1024, m.dirtyBytes());
  }

  @Test
  void aKernelWithoutMemAvailableIsNamed() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> MemInfo.parse("MemTotal: 100 kB\nMemFree: 50 kB\n"));
    assertTrue(e.getMessage().contains("MemAvailable"), e.getMessage());
  }

  @Test
  void thisMachinesMemInfoReads() throws Exception {
    MemInfo m = MemInfo.read();
    assertTrue(m.totalBytes() > 0 && m.availableBytes() <= m.totalBytes(), m.toString());
  }
}
