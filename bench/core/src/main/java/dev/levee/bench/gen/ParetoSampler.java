package dev.levee.bench.gen;

/**
 * Pareto(alpha, x0) truncated to [x0, max], by inverting its CDF, so every draw is in range and the
 * shape below {@code max} is exactly Pareto (clamping instead would pile mass onto {@code max}).
 */
public final class ParetoSampler {
  private final double alpha;
  private final double x0;
  private final double max;
  private final double tailMass;

  public ParetoSampler(double alpha, double x0, double max) {
    if (!(alpha > 0) || !Double.isFinite(alpha)) {
      throw new IllegalArgumentException("Pareto alpha must be > 0, got " + alpha);
    }
    if (!(x0 > 0) || !Double.isFinite(x0)) {
      throw new IllegalArgumentException("Pareto x0 must be > 0, got " + x0);
    }
    if (!(max >= x0)) {
      throw new IllegalArgumentException("Pareto max must be >= x0 (" + x0 + "), got " + max);
    }
    this.alpha = alpha;
    this.x0 = x0;
    this.max = max;
    // 1 - F(max) of the untruncated law; sampling u in [0, 1 - tailMass) keeps draws <= max.
    this.tailMass = Math.pow(x0 / max, alpha);
  }

  public double sample(SplitMix64 rng) {
    double u = rng.nextDouble() * (1.0 - tailMass);
    double x = x0 / Math.pow(1.0 - u, 1.0 / alpha);
    return Math.min(x, max);
  }

  /** Mean of the truncated law, for tests and reports. */
  public double mean() {
    double norm = 1.0 - tailMass;
    if (Math.abs(alpha - 1.0) < 1e-12) {
      return x0 * Math.log(max / x0) / norm;
    }
    return alpha
        * Math.pow(x0, alpha)
        * (Math.pow(max, 1 - alpha) - Math.pow(x0, 1 - alpha))
        / ((1 - alpha) * norm);
  }

  public double alpha() {
    return alpha;
  }

  public double x0() {
    return x0;
  }

  public double max() {
    return max;
  }
}
