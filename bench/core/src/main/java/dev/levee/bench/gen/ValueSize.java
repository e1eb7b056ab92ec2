package dev.levee.bench.gen;

import dev.levee.bench.cli.BadArgumentException;

/**
 * How long a generated value is: a fixed length, or drawn from a truncated Pareto law (heavy-tailed
 * records).
 */
public sealed interface ValueSize {

  int next(SplitMix64 rng);

  /** "fixed:90" or "pareto:ALPHA,X0,MAX". */
  static ValueSize parse(String option, String text) {
    String allowed = "fixed:BYTES or pareto:ALPHA,X0,MAX (e.g. fixed:90, pareto:1.5,10,1000000)";
    try {
      if (text.startsWith("fixed:")) {
        int n = Integer.parseInt(text.substring("fixed:".length()).trim());
        if (n < 0) {
          throw new BadArgumentException("--" + option + ": fixed size must be >= 0, got " + n);
        }
        return new Fixed(n);
      }
      if (text.startsWith("pareto:")) {
        String[] p = text.substring("pareto:".length()).split(",");
        if (p.length != 3) {
          throw new BadArgumentException(
              "--" + option + ": expected " + allowed + ", got '" + text + "'");
        }
        double alpha = Double.parseDouble(p[0].trim());
        double x0 = Double.parseDouble(p[1].trim());
        double max = Double.parseDouble(p[2].trim());
        if (!(max <= Integer.MAX_VALUE - 64)) {
          throw new BadArgumentException(
              "--" + option + ": pareto max must be below 2^31, got " + p[2]);
        }
        try {
          return new Pareto(new ParetoSampler(alpha, x0, max));
        } catch (IllegalArgumentException e) {
          throw new BadArgumentException("--" + option + ": " + e.getMessage());
        }
      }
    } catch (NumberFormatException e) {
      throw new BadArgumentException(
          "--" + option + ": expected " + allowed + ", got '" + text + "'");
    }
    throw new BadArgumentException(
        "--" + option + ": expected " + allowed + ", got '" + text + "'");
  }

  record Fixed(int bytes) implements ValueSize {
    @Override
    public int next(SplitMix64 rng) {
      return bytes;
    }
  }

  record Pareto(ParetoSampler sampler) implements ValueSize {
    /** Rounded down, so lengths lie in [floor(x0), floor(max)]. */
    @Override
    public int next(SplitMix64 rng) {
      return (int) sampler.sample(rng);
    }
  }
}
