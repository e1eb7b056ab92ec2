package dev.levee.themis.map;

import dev.levee.themis.records.IntList;
import dev.levee.themis.records.LongList;

/**
 * Record pointers grouped by partition: partition {@code p} owns positions {@code start(p) ..
 * end(p)} of {@link #pointers()}. Built by a stable counting sort, O(records + partitions), so a
 * map never compares keys unless a partition has to be sorted.
 */
final class PartitionIndex {
  private final LongList pointers;
  private final long[] starts;

  private PartitionIndex(LongList pointers, long[] starts) {
    this.pointers = pointers;
    this.starts = starts;
  }

  static PartitionIndex group(LongList pointers, IntList partitions, int numPartitions) {
    long n = pointers.size();
    long[] starts = new long[numPartitions + 1];
    for (long i = 0; i < n; i++) {
      starts[partitions.get(i) + 1]++;
    }
    for (int p = 0; p < numPartitions; p++) {
      starts[p + 1] += starts[p];
    }
    long[] next = starts.clone();
    LongList grouped = LongList.ofSize(n);
    for (long i = 0; i < n; i++) {
      grouped.set(next[partitions.get(i)]++, pointers.get(i));
    }
    return new PartitionIndex(grouped, starts);
  }

  LongList pointers() {
    return pointers;
  }

  int partitions() {
    return starts.length - 1;
  }

  long start(int partition) {
    return starts[partition];
  }

  long end(int partition) {
    return starts[partition + 1];
  }

  long size(int partition) {
    return end(partition) - start(partition);
  }
}
