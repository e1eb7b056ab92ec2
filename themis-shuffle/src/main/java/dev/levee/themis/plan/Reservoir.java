package dev.levee.themis.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * A uniform sample of fixed size over a stream of unknown length (Vitter's algorithm R, the paper's
 * reference for its constant-space sampling).
 */
final class Reservoir<T> {
  private final Object[] slots;
  private final Random random;
  private long seen;

  Reservoir(int capacity, long seed) {
    this.slots = new Object[capacity];
    this.random = new Random(seed);
  }

  void offer(T item) {
    if (seen < slots.length) {
      slots[(int) seen] = item;
    } else {
      long j = (long) (random.nextDouble() * (seen + 1));
      if (j < slots.length) {
        slots[(int) j] = item;
      }
    }
    seen++;
  }

  long seen() {
    return seen;
  }

  @SuppressWarnings("unchecked")
  List<T> items() {
    int n = (int) Math.min(seen, slots.length);
    List<T> out = new ArrayList<>(n);
    for (Object o : Arrays.copyOf(slots, n)) {
      out.add((T) o);
    }
    return out;
  }
}
