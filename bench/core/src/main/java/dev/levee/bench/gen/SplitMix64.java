package dev.levee.bench.gen;

/**
 * The SplitMix64 generator, written out here rather than taken from {@code
 * java.util.SplittableRandom} so that generated datasets stay byte-identical across JDK versions:
 * the algorithm is fixed by this file alone.
 *
 * <p>Generators reseed one instance per record ({@link #reseed(long, long, long)}), which makes
 * every record a pure function of (seed, record index) and lets any split of a dataset into files
 * produce the same bytes.
 */
public final class SplitMix64 {
  private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;
  private long state;

  public SplitMix64(long seed) {
    this.state = seed;
  }

  /**
   * Positions this generator at the stream for one record of one field group of a seeded dataset.
   */
  public SplitMix64 reseed(long seed, long stream, long index) {
    this.state = mix(mix(seed ^ mix(stream + GOLDEN_GAMMA)) + index * GOLDEN_GAMMA);
    return this;
  }

  public long nextLong() {
    return mix(state += GOLDEN_GAMMA);
  }

  /** Uniform in [0, 1) with 53 random bits. */
  public double nextDouble() {
    return (nextLong() >>> 11) * 0x1.0p-53;
  }

  /** Uniform in (0, 1]: safe to take the logarithm of. */
  public double nextDoubleNonZero() {
    return ((nextLong() >>> 11) + 1) * 0x1.0p-53;
  }

  /** Uniform in [0, bound) without modulo bias (Lemire's multiply-and-reject). */
  public long nextLong(long bound) {
    if (bound <= 0) {
      throw new IllegalArgumentException("bound must be positive: " + bound);
    }
    if (bound <= Integer.MAX_VALUE) {
      long threshold = (1L << 32) % bound;
      while (true) {
        long r = nextLong() >>> 32;
        long m = r * bound;
        if ((m & 0xFFFFFFFFL) >= threshold) {
          return m >>> 32;
        }
      }
    }
    // Wide bounds: plain rejection on the top bits.
    long mask = -1L >>> Long.numberOfLeadingZeros(bound - 1);
    while (true) {
      long r = nextLong() & mask;
      if (r < bound) {
        return r;
      }
    }
  }

  public int nextInt(int bound) {
    return (int) nextLong(bound);
  }

  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
