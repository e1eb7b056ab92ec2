package dev.levee.bench.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class BusySamplerTest {
  private static BusySampler.Sample at(long millis, long busyMillis, long readMb, long seeks) {
    return new BusySampler.Sample(
        millis, new DiskCounts(0, 0, readMb * 1_000_000, 0, seeks, busyMillis * 1_000_000, 0, 0));
  }

  @Test
  void aSpanIsMeasuredBetweenTheSamplesAroundIt() {
    List<BusySampler.Sample> samples =
        List.of(
            at(1_000, 0, 0, 0),
            at(2_000, 100, 10, 1),
            at(3_000, 900, 100, 3),
            at(4_000, 1_700, 200, 5),
            at(5_000, 1_800, 210, 6));
    // [2500, 3500] lies between the samples at 2000 and 4000: 1600 ms busy of 2000.
    BusySampler.Span s = BusySampler.between(samples, 2_500, 3_500);
    assertEquals(0.8, s.busy(), 1e-9);
    assertEquals(190, s.readMb(), 1e-9);
    assertEquals(4, s.seeks());
    // Exactly on samples: only the span itself.
    assertEquals(0.8, BusySampler.between(samples, 3_000, 4_000).busy(), 1e-9);
  }

  @Test
  void aSpanTheSamplesDoNotCoverIsUnknown() {
    List<BusySampler.Sample> samples = List.of(at(1_000, 0, 0, 0), at(2_000, 500, 1, 0));
    assertTrue(Double.isNaN(BusySampler.between(samples, 500, 1_500).busy()), "before the first");
    assertTrue(Double.isNaN(BusySampler.between(samples, 1_500, 2_500).busy()), "after the last");
    assertTrue(Double.isNaN(BusySampler.between(List.of(), 0, 1).busy()), "no samples");
  }
}
