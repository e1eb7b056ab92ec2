package dev.levee.bench.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ZipfSamplerTest {

  /**
   * Frequencies of the top ranks within 4.5 standard errors of k^-s / H(n, s), and a chi-square
   * over ranks 1..20.
   */
  @ParameterizedTest
  @CsvSource({"1000, 1.0", "1000, 0.5", "100000, 1.2", "50, 2.5", "1000, 0.9999999"})
  void frequenciesMatchTheory(long n, double s) {
    ZipfSampler z = new ZipfSampler(n, s);
    SplitMix64 rng = new SplitMix64(42);
    int draws = 400_000;
    int buckets = 20;
    long[] counts = new long[buckets + 1];
    for (int i = 0; i < draws; i++) {
      long k = z.sample(rng);
      assertTrue(k >= 1 && k <= n, "rank out of range: " + k);
      if (k <= buckets) {
        counts[(int) k]++;
      }
    }
    double chi2 = 0;
    for (int k = 1; k <= buckets && k <= n; k++) {
      double p = z.probability(k);
      double expected = p * draws;
      double se = Math.sqrt(draws * p * (1 - p));
      assertEquals(expected, counts[k], 4.5 * se, "rank " + k + " for n=" + n + ", s=" + s);
      chi2 += (counts[k] - expected) * (counts[k] - expected) / expected;
    }
    // 20 cells: the 99.99th percentile of chi-square with 20 degrees of freedom is about 52.
    assertTrue(chi2 < 52, "chi-square " + chi2);
  }

  @Test
  void topKeyShareOfClassicZipf() {
    // For s = 1 and n = 10^6 rank 1 takes 1 / H_n = 1 / 14.39 = 6.95% of draws.
    ZipfSampler z = new ZipfSampler(1_000_000, 1.0);
    SplitMix64 rng = new SplitMix64(7);
    int top = 0;
    int draws = 1_000_000;
    for (int i = 0; i < draws; i++) {
      if (z.sample(rng) == 1) {
        top++;
      }
    }
    assertEquals(0.0695, (double) top / draws, 0.0015);
  }

  @Test
  void hugeKeySpacesCostNothingToSetUp() {
    ZipfSampler z = new ZipfSampler(1_000_000_000_000L, 1.1);
    SplitMix64 rng = new SplitMix64(1);
    long max = 0;
    for (int i = 0; i < 100_000; i++) {
      max = Math.max(max, z.sample(rng));
    }
    assertTrue(max > 1_000_000, "the tail is reached: " + max);
  }

  @Test
  void singleKeyAndBadParameters() {
    assertEquals(1, new ZipfSampler(1, 1.0).sample(new SplitMix64(3)));
    assertThrows(IllegalArgumentException.class, () -> new ZipfSampler(0, 1.0));
    assertThrows(IllegalArgumentException.class, () -> new ZipfSampler(10, 0));
    assertThrows(IllegalArgumentException.class, () -> new ZipfSampler(10, Double.NaN));
  }
}
