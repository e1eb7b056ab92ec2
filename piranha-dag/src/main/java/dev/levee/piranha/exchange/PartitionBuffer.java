package dev.levee.piranha.exchange;

import dev.levee.mapred.BufferedRawIterator;
import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.IndexedSortable;
import org.apache.hadoop.util.QuickSort;

/**
 * A parent task's output to one child stage, partitioned by the child's partitioner: records are
 * serialized into one buffer; when it holds {@code capacity} bytes (and at the end) it is sorted by
 * (partition, key) with the child's comparator, each partition's records go through the child's
 * combiner if it has one, and each partition becomes one run handed to the sender. This is a map
 * task's sort-and-spill, with the spill going over the network instead of to disk.
 *
 * <p>Unsorted (forward) edges keep the records' order within each partition and skip the sort and
 * the combiner.
 */
public final class PartitionBuffer {

  /** Where finished runs go: the connection to the task of that partition. */
  public interface RunConsumer {
    void accept(int partition, Run run) throws IOException;
  }

  /** The child stage's combiner over one partition's sorted records. */
  public interface Combiner {
    void combine(RawKeyValueIterator sortedRecords, RunBuilder out) throws IOException;
  }

  private final int capacity;
  private final int partitions;
  private final RawComparator<?> comparator;
  private final Combiner combiner;
  private final RunConsumer consumer;
  private final Configuration conf;
  private final Class<?> keyClass;
  private final Class<?> valueClass;
  private final DataOutputBuffer data = new DataOutputBuffer();
  private final RecordSerializer serializer;
  private int[] partition = new int[1024];
  private int[] keyStart = new int[1024];
  private int[] keyLength = new int[1024];
  private int[] valueStart = new int[1024];
  private int[] valueLength = new int[1024];
  private int count;
  private long flushes;
  private long recordsIn;

  /**
   * @param comparator the child's sort comparator, or null for a forward edge (no sort, no
   *     combiner)
   */
  public PartitionBuffer(
      Configuration conf,
      Class<?> keyClass,
      Class<?> valueClass,
      int capacity,
      int partitions,
      RawComparator<?> comparator,
      Combiner combiner,
      RunConsumer consumer)
      throws IOException {
    this.conf = conf;
    this.keyClass = keyClass;
    this.valueClass = valueClass;
    this.capacity = capacity;
    this.partitions = partitions;
    this.comparator = comparator;
    this.combiner = comparator == null ? null : combiner;
    this.consumer = consumer;
    this.serializer = new RecordSerializer(conf, keyClass, valueClass, data);
  }

  public void add(int p, Object key, Object value) throws IOException {
    if (p < 0 || p >= partitions) {
      throw new IOException(
          "the partitioner returned partition "
              + p
              + " for key "
              + key
              + "; the stage has "
              + partitions
              + " tasks (0.."
              + (partitions - 1)
              + ")");
    }
    if (key == null && comparator != null) {
      throw new IOException(
          "a null key cannot be partitioned and sorted for a shuffle stage; its records need a key");
    }
    if (count == partition.length) {
      grow();
    }
    serializer.serialize(key, value);
    partition[count] = p;
    keyStart[count] = serializer.keyStart;
    keyLength[count] = serializer.keyLength;
    valueStart[count] = serializer.valueStart;
    valueLength[count] = serializer.valueLength;
    count++;
    recordsIn++;
    if (data.getLength() >= capacity) {
      flush();
    }
  }

  /** Sorts, combines and hands over everything buffered. */
  public void flush() throws IOException {
    if (count == 0) {
      return;
    }
    int[] order = new int[count];
    for (int i = 0; i < count; i++) {
      order[i] = i;
    }
    if (comparator != null) {
      new QuickSort().sort(new Sortable(order), 0, count);
    } else {
      order = byPartitionKeepingOrder();
    }
    int i = 0;
    while (i < count) {
      int p = partition[order[i]];
      int j = i;
      while (j < count && partition[order[j]] == p) {
        j++;
      }
      consumer.accept(p, runOf(order, i, j));
      i = j;
    }
    flushes++;
    count = 0;
    data.reset();
  }

  /** Runs handed over so far (each flush hands one per non-empty partition). */
  public long flushes() {
    return flushes;
  }

  public long records() {
    return recordsIn;
  }

  private Run runOf(int[] order, int from, int to) throws IOException {
    if (combiner != null) {
      RunBuilder out = new RunBuilder(conf, keyClass, valueClass);
      combiner.combine(new Slice(order, from, to), out);
      return out.build(true);
    }
    RunBuilder out = new RunBuilder();
    byte[] b = data.getData();
    for (int k = from; k < to; k++) {
      int r = order[k];
      out.addRaw(
          keyLength[r] == Records.NULL_KEY ? null : b,
          keyStart[r],
          keyLength[r],
          b,
          valueStart[r],
          valueLength[r]);
    }
    return out.build(comparator != null);
  }

  private int[] byPartitionKeepingOrder() {
    int[] counts = new int[partitions + 1];
    for (int i = 0; i < count; i++) {
      counts[partition[i] + 1]++;
    }
    for (int p = 0; p < partitions; p++) {
      counts[p + 1] += counts[p];
    }
    int[] order = new int[count];
    for (int i = 0; i < count; i++) {
      order[counts[partition[i]]++] = i;
    }
    return order;
  }

  private void grow() {
    int n = partition.length * 2;
    partition = Arrays.copyOf(partition, n);
    keyStart = Arrays.copyOf(keyStart, n);
    keyLength = Arrays.copyOf(keyLength, n);
    valueStart = Arrays.copyOf(valueStart, n);
    valueLength = Arrays.copyOf(valueLength, n);
  }

  private final class Sortable implements IndexedSortable {
    private final int[] order;

    Sortable(int[] order) {
      this.order = order;
    }

    @Override
    public int compare(int i, int j) {
      int a = order[i];
      int b = order[j];
      if (partition[a] != partition[b]) {
        return Integer.compare(partition[a], partition[b]);
      }
      byte[] d = data.getData();
      int c = comparator.compare(d, keyStart[a], keyLength[a], d, keyStart[b], keyLength[b]);
      // Equal keys keep their arrival order, as a map task's spill keeps them in practice.
      return c != 0 ? c : Integer.compare(a, b);
    }

    @Override
    public void swap(int i, int j) {
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
  }

  /** One partition's sorted records as the combiner's input. */
  private final class Slice extends BufferedRawIterator {
    private final int[] order;
    private final int to;
    private int at;

    Slice(int[] order, int from, int to) {
      this.order = order;
      this.at = from - 1;
      this.to = to;
    }

    @Override
    public boolean next() {
      at++;
      if (at >= to) {
        return false;
      }
      int r = order[at];
      key.reset(data.getData(), keyStart[r], keyLength[r]);
      value.reset(data.getData(), valueStart[r], valueLength[r]);
      return true;
    }
  }
}
