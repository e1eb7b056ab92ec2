package dev.levee.bench.gen;

/**
 * Ranks 1..n with P(k) proportional to k^-s, by rejection-inversion (Hörmann and Derflinger, 1996).
 *
 * <p>Constant memory and expected O(1) time per draw for any n and any s > 0, so key spaces of
 * billions cost nothing to set up. The method inverts the integral H of the continuous hat h(x) =
 * x^-s over [1/2, n + 1/2] and accepts a rounded candidate k when the hat's area over [k - 1/2, k +
 * 1/2] does not overstate h(k); rank 1 is folded into the interval below 3/2 so the hat dominates
 * everywhere.
 */
public final class ZipfSampler {
  private final long n;
  private final double s;
  private final double hIntegralX1;
  private final double hIntegralN;
  private final double squeeze;

  public ZipfSampler(long n, double s) {
    if (n < 1) {
      throw new IllegalArgumentException("Zipf key space n must be >= 1, got " + n);
    }
    if (!(s > 0) || !Double.isFinite(s)) {
      throw new IllegalArgumentException("Zipf exponent s must be > 0, got " + s);
    }
    this.n = n;
    this.s = s;
    this.hIntegralX1 = hIntegral(1.5) - 1.0;
    this.hIntegralN = hIntegral(n + 0.5);
    this.squeeze = 2.0 - hIntegralInverse(hIntegral(2.5) - h(2.0));
  }

  public long n() {
    return n;
  }

  public double s() {
    return s;
  }

  /** A rank in [1, n]. */
  public long sample(SplitMix64 rng) {
    while (true) {
      double u = hIntegralN + rng.nextDouble() * (hIntegralX1 - hIntegralN);
      double x = hIntegralInverse(u);
      long k = (long) (x + 0.5);
      if (k < 1) {
        k = 1;
      } else if (k > n) {
        k = n;
      }
      // Quick accept for candidates close to x, else the exact test against the hat.
      if (k - x <= squeeze || u >= hIntegral(k + 0.5) - h(k)) {
        return k;
      }
    }
  }

  /** P(rank = k) exactly, by summing the normalising constant; O(n), for tests and reports only. */
  public double probability(long k) {
    double norm = 0;
    for (long i = n; i >= 1; i--) {
      norm += Math.pow(i, -s);
    }
    return Math.pow(k, -s) / norm;
  }

  private double h(double x) {
    return Math.exp(-s * Math.log(x));
  }

  /** H(x) = (x^(1-s) - 1) / (1 - s), continuous at s = 1 where it is log x. */
  private double hIntegral(double x) {
    double logX = Math.log(x);
    return expm1OverX((1.0 - s) * logX) * logX;
  }

  private double hIntegralInverse(double y) {
    double t = y * (1.0 - s);
    if (t < -1.0) {
      // Rounding can push t just past the pole; the limit there is x = 0, clamped to rank 1 by the
      // caller.
      t = -1.0;
    }
    return Math.exp(log1pOverX(t) * y);
  }

  /** (e^x - 1) / x, accurate near 0. */
  private static double expm1OverX(double x) {
    return Math.abs(x) > 1e-8
        ? Math.expm1(x) / x
        : 1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + 0.25 * x));
  }

  /** log(1 + x) / x, accurate near 0. */
  private static double log1pOverX(double x) {
    return Math.abs(x) > 1e-8 ? Math.log1p(x) / x : 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
  }
}
