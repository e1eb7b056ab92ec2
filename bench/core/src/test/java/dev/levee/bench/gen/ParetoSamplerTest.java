package dev.levee.bench.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ParetoSamplerTest {

  @ParameterizedTest
  @CsvSource({"2.5, 10, 1000", "1.5, 10, 100000", "1.0, 1, 1000", "0.8, 100, 10000"})
  void rangeAndMeanMatchTheTruncatedLaw(double alpha, double x0, double max) {
    ParetoSampler p = new ParetoSampler(alpha, x0, max);
    SplitMix64 rng = new SplitMix64(99);
    int n = 1_000_000;
    double sum = 0;
    double lo = Double.MAX_VALUE;
    double hi = 0;
    for (int i = 0; i < n; i++) {
      double x = p.sample(rng);
      sum += x;
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
    assertTrue(lo >= x0 && hi <= max, "draws in [" + x0 + ", " + max + "]: " + lo + ".." + hi);
    assertEquals(x0, lo, x0 * 0.01, "the minimum is approached");
    assertTrue(hi > x0 * 10 || max < x0 * 20, "the tail is reached: " + hi);
    assertEquals(p.mean(), sum / n, p.mean() * 0.03);
  }

  @Test
  void medianIsX0TimesTwoToTheOneOverAlpha() {
    ParetoSampler p = new ParetoSampler(2.0, 10, 1e12);
    SplitMix64 rng = new SplitMix64(5);
    int below = 0;
    double median = 10 * Math.sqrt(2);
    for (int i = 0; i < 200_000; i++) {
      if (p.sample(rng) < median) {
        below++;
      }
    }
    assertEquals(0.5, below / 200_000.0, 0.005);
  }

  @Test
  void rejectsBadParameters() {
    assertThrows(IllegalArgumentException.class, () -> new ParetoSampler(0, 1, 2));
    assertThrows(IllegalArgumentException.class, () -> new ParetoSampler(1, 0, 2));
    assertThrows(IllegalArgumentException.class, () -> new ParetoSampler(1, 5, 2));
  }
}
