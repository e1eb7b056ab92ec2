package dev.levee.bench.hadoop.sponge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ChunkLatenciesTest {
  private static ChunkLatencies millis(long... ms) {
    ChunkLatencies l = new ChunkLatencies(ms.length);
    for (long m : ms) {
      l.add(m * 1_000_000);
    }
    return l;
  }

  @Test
  void nearestRankPercentilesAreMeasuredValues() {
    // 1..100 ms shuffled: median is the 50th, p99 the 99th, max the 100th.
    long[] ms = new long[100];
    for (int i = 0; i < 100; i++) {
      ms[i] = (i * 37) % 100 + 1;
    }
    ChunkLatencies l = millis(ms);
    assertEquals(50.0, l.medianMillis());
    assertEquals(99.0, l.percentileMillis(0.99));
    assertEquals(100.0, l.percentileMillis(1.0));
    assertEquals(1.0, l.percentileMillis(0.01));
    assertEquals(50.5, l.meanMillis(), 1e-9);
  }

  @Test
  void smallSamplesRoundTheRankUp() {
    ChunkLatencies l = millis(30, 10, 20);
    assertEquals(20.0, l.medianMillis());
    assertEquals(30.0, l.percentileMillis(0.99)); // ceil(2.97) = 3rd of 3
    assertEquals(10.0, millis(10).percentileMillis(0.99));
  }

  @Test
  void bandwidthIsBytesOverWallTime() {
    ChunkLatencies l = millis(1);
    l.addWallNanos(500_000_000L);
    l.addWallNanos(500_000_000L);
    assertEquals(250.0, l.mbPerSecond(250_000_000L), 1e-9);
  }

  @Test
  void rejectsBadInput() {
    ChunkLatencies l = new ChunkLatencies(1);
    assertThrows(IllegalStateException.class, l::medianMillis);
    assertThrows(IllegalArgumentException.class, () -> l.add(-1));
    l.add(5);
    assertThrows(IllegalStateException.class, () -> l.add(5));
    assertThrows(IllegalArgumentException.class, () -> l.percentileMillis(0));
    assertThrows(IllegalArgumentException.class, () -> l.percentileMillis(1.5));
    assertThrows(IllegalStateException.class, () -> l.mbPerSecond(1));
  }
}
