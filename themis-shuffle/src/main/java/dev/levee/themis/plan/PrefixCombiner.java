package dev.levee.themis.plan;

import dev.levee.themis.ThemisConf;
import dev.levee.themis.records.LongList;
import dev.levee.themis.records.RecordSerializer;
import java.io.IOException;
import java.util.Iterator;
import java.util.function.LongSupplier;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.counters.GenericCounter;
import org.apache.hadoop.mapreduce.lib.reduce.WrappedReducer;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.ReduceContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Phase 0 for a job with a combiner: what reducers receive is the combiner's output, not the
 * mapper's, so each sampled prefix's map output is held, sorted and combined as a Themis map
 * combines a partition, and only the combined records reach the sample. Sampling the mapper's raw
 * output instead mis-sizes the partitions: frequent keys shrink to one record per map while rare
 * ones do not, so byte-weighted cuts over raw records leave the rare keys' partitions too large.
 *
 * <p>A map combines its whole split, a prefix combines less: the share of records that survive
 * combining falls as more input is read (the same keys repeat). The paper has no combiner to
 * follow; this projects each prefix's combined output to its whole split with the growth of its
 * distinct keys between the prefix's first half and all of it, a power law ({@code keys ~ input^b},
 * Heaps' law for text; {@code b} = 1 when every key is new, 0 when none is), fitted per split and
 * held between 0 and 1.
 */
final class PrefixCombiner<K, V> {
  /**
   * Serialized map output held per prefix at most: a prefix whose output outgrows it is cut short
   * there, so phase 0 never needs more of the client's heap than this and its index.
   */
  static final int BUFFER_LIMIT = 64 << 20;

  private final JobConf job;
  private final OutputCapture<K, V> combined;
  private final RecordSerializer<K, V> serializer;
  private final Class<K> keyClass;
  private final Class<V> valueClass;
  private final BufferedRecords buffer;

  /** The job's combiner: an old-API Reducer class, or else a new-API one. */
  private final Class<?> combinerClass;

  private LongSupplier position;
  private Runnable stop;
  private long rawRecords;
  private long rawBytes;
  private double projectedRawRecords;
  private double projectedRawBytes;
  private double projectedRecords;
  private double projectedBytes;

  /** Null when the job has no combiner or Themis maps do not run it. */
  static <K, V> PrefixCombiner<K, V> forJob(JobConf job, OutputCapture<K, V> combined)
      throws IOException {
    if (!ThemisConf.MAP_COMBINE.from(ThemisConf.source(job))) {
      return null;
    }
    Class<?> combiner = job.getCombinerClass();
    try {
      if (combiner == null) {
        combiner = new JobContextImpl(job, null).getCombinerClass();
      }
    } catch (ClassNotFoundException e) {
      throw new IOException("the job's combiner class cannot be loaded in this client: " + e, e);
    }
    return combiner == null ? null : new PrefixCombiner<>(job, combined, combiner);
  }

  @SuppressWarnings("unchecked")
  private PrefixCombiner(JobConf job, OutputCapture<K, V> combined, Class<?> combinerClass)
      throws IOException {
    this.job = job;
    this.combined = combined;
    this.combinerClass = combinerClass;
    keyClass = (Class<K>) job.getMapOutputKeyClass();
    valueClass = (Class<V>) job.getMapOutputValueClass();
    serializer = RecordSerializer.forMapOutput(job);
    buffer = new BufferedRecords(job.getOutputKeyComparator());
  }

  /**
   * A new split's prefix begins; {@code position} tells the input bytes read so far, {@code stop}
   * ends the prefix early.
   */
  void beginSplit(LongSupplier position, Runnable stop) {
    this.position = position;
    this.stop = stop;
    buffer.clear();
  }

  void collect(K key, V value) throws IOException {
    serializer.serialize(key, value);
    buffer.add(serializer.buffer(), serializer.keyLength(), position.getAsLong());
    if (buffer.bytes() >= BUFFER_LIMIT) {
      stop.run();
    }
  }

  /**
   * The prefix of {@code prefixBytes} input bytes of a split of {@code splitLength} is over:
   * combines it into the sample and projects it to the whole split.
   */
  void endSplit(long splitLength, long prefixBytes) throws IOException, InterruptedException {
    int n = buffer.size();
    if (n == 0) {
      return;
    }
    RawComparator<?> grouping = job.getCombinerKeyGroupingComparator();
    LongList order = buffer.sorted(n);
    long recordsBefore = combined.records();
    long bytesBefore = combined.bytes();
    combine(buffer.iterator(order));
    long outRecords = combined.records() - recordsBefore;
    long outBytes = combined.bytes() - bytesBefore;

    double wholeSplit = prefixBytes <= 0 ? 1 : Math.max(1.0, (double) splitLength / prefixBytes);
    double growth = 1;
    if (wholeSplit > 1) {
      int firstHalf = buffer.emittedBy(prefixBytes / 2);
      if (firstHalf > 0 && firstHalf < n) {
        int keysHalf = buffer.groups(buffer.sorted(firstHalf), grouping);
        int keysAll = buffer.groups(order, grouping);
        growth = Math.log((double) keysAll / keysHalf) / Math.log(2);
        growth = Math.max(0, Math.min(1, growth));
      }
    }
    double factor = Math.pow(wholeSplit, growth);
    projectedRecords += outRecords * factor;
    projectedBytes += outBytes * factor;
    rawRecords += n;
    rawBytes += buffer.bytes();
    projectedRawRecords += n * wholeSplit;
    projectedRawBytes += buffer.bytes() * wholeSplit;
    buffer.clear();
  }

  long rawRecords() {
    return rawRecords;
  }

  long rawBytes() {
    return rawBytes;
  }

  /** Reducer input records over map output records, over whole sampled splits. */
  double recordShare() {
    return projectedRawRecords == 0 ? 1 : projectedRecords / projectedRawRecords;
  }

  /** Reducer input bytes over map output bytes, over whole sampled splits. */
  double byteShare() {
    return projectedRawBytes == 0 ? 1 : projectedBytes / projectedRawBytes;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void combine(RawKeyValueIterator in) throws IOException, InterruptedException {
    TaskAttemptID attempt = new TaskAttemptID("themis-phase0", 0, TaskType.REDUCE, 0, 0);
    RawComparator<K> grouping = (RawComparator<K>) job.getCombinerKeyGroupingComparator();
    RecordWriter<K, V> out =
        new RecordWriter<>() {
          @Override
          public void write(K key, V value) throws IOException {
            combined.write(key, value);
          }

          @Override
          public void close(TaskAttemptContext c) {}
        };
    ReduceContextImpl<K, V, K, V> context =
        new ReduceContextImpl<>(
            job,
            attempt,
            in,
            new GenericCounter(),
            new GenericCounter(),
            out,
            null,
            new TaskAttemptContextImpl.DummyReporter(),
            grouping,
            keyClass,
            valueClass);
    Object instance = ReflectionUtils.newInstance(combinerClass, job);
    // The old API's key decides, as in the stock map's combiner runner.
    if (job.getCombinerClass() != null) {
      // The old API's combiner gets each key's values as the stock map's combiner runner groups
      // them.
      org.apache.hadoop.mapred.Reducer<K, V, K, V> reducer =
          (org.apache.hadoop.mapred.Reducer<K, V, K, V>) instance;
      OutputCollector<K, V> collector = combined::write;
      try {
        while (context.nextKey()) {
          Iterator<V> values = context.getValues().iterator();
          reducer.reduce(context.getCurrentKey(), values, collector, Reporter.NULL);
        }
      } finally {
        reducer.close();
      }
      return;
    }
    Reducer<K, V, K, V> reducer = (Reducer<K, V, K, V>) instance;
    reducer.run(new WrappedReducer<K, V, K, V>().getReducerContext(context));
  }
}
