package dev.levee.bench.sampling;

import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The two samples of a periodic sampler that bracket a span: the last taken at or before its start
 * and the first at or after its end. Counters read at those two cover the whole span (and up to a
 * period more on each side), which is what a sampler that knows the span only afterwards can give.
 */
public record Bracket<T>(T before, T after) {

  /** The samples around [fromMillis, toMillis], or null when they do not cover it. */
  public static <T> Bracket<T> around(
      List<T> samples, ToLongFunction<T> atMillis, long fromMillis, long toMillis) {
    T a = null;
    T b = null;
    for (T s : samples) {
      if (atMillis.applyAsLong(s) <= fromMillis) {
        a = s;
      }
      if (b == null && atMillis.applyAsLong(s) >= toMillis) {
        b = s;
      }
    }
    return a == null || b == null || atMillis.applyAsLong(b) <= atMillis.applyAsLong(a)
        ? null
        : new Bracket<>(a, b);
  }
}
