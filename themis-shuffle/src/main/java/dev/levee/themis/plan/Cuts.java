package dev.levee.themis.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * Byte-weighted cut points: given sampled items in partition order with their bytes, the indexes
 * where partitions 1..n-1 start so that each holds about 1/n of the bytes. Equal items are never
 * split (a key goes to one reducer); when one item alone outweighs several partitions, the cuts
 * around it collapse and those partitions stay empty.
 */
final class Cuts {
  private Cuts() {}

  interface Same {
    boolean same(int i, int j);
  }

  /**
   * @param bytes each item's bytes, in order
   * @param same whether item i and j are equal (then no cut falls between them)
   * @return n-1 start indexes, non-decreasing, each in [0, bytes.length]
   */
  static int[] place(long[] bytes, int n, Same same) {
    long total = 0;
    for (long b : bytes) {
      total += b;
    }
    int[] cuts = new int[n - 1];
    long cumulative = 0;
    int j = 0;
    for (int i = 1; i < n; i++) {
      double want = (double) total * i / n;
      while (j < bytes.length && cumulative + bytes[j] / 2.0 < want) {
        cumulative += bytes[j];
        j++;
      }
      // Move past items equal to the one before the cut.
      while (j > 0 && j < bytes.length && same.same(j - 1, j)) {
        cumulative += bytes[j];
        j++;
      }
      cuts[i - 1] = j;
    }
    return cuts;
  }

  /** Bytes of each partition the cuts make. */
  static List<Long> sizes(long[] bytes, int[] cuts) {
    List<Long> sizes = new ArrayList<>();
    int from = 0;
    for (int c = 0; c <= cuts.length; c++) {
      int to = c < cuts.length ? cuts[c] : bytes.length;
      long sum = 0;
      for (int k = from; k < to; k++) {
        sum += bytes[k];
      }
      sizes.add(sum);
      from = to;
    }
    return sizes;
  }
}
