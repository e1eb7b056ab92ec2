package dev.levee.sponge.hadoop;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Merger;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.SpillRecord;
import org.apache.hadoop.mapred.Task.CombineOutputCollector;
import org.apache.hadoop.mapred.Task.CombinerRunner;
import org.apache.hadoop.mapred.Task.TaskReporter;

/**
 * Writes a map's sorted records as one IFile segment per partition, in partition order, with the
 * index stock writes beside them: the layout of a stock spill file and of file.out alike, written
 * with Hadoop's own IFile writer so the ShuffleHandler and the reducers read it unchanged.
 */
final class PartitionedWriter<K, V> {
  /** The sorted records of one partition. */
  interface Source {
    RawKeyValueIterator partition(int p) throws IOException;
  }

  /** When the job's combiner runs over a partition. */
  enum Combine {
    /** Never (stock's merge below {@code mapreduce.map.combine.minspills}, oversized records). */
    NEVER,
    /** On each partition that has records (stock's spill). */
    NON_EMPTY,
    /** On every partition (stock's merge into file.out). */
    ALWAYS
  }

  private final JobConf job;
  private final Class<K> keyClass;
  private final Class<V> valueClass;
  private final CompressionCodec codec;
  private final CombinerRunner<K, V> combiner;
  private final CombineOutputCollector<K, V> combineCollector;
  private final Counters.Counter spilledRecords;
  private final TaskReporter reporter;
  private final int partitions;

  PartitionedWriter(
      JobConf job,
      Class<K> keyClass,
      Class<V> valueClass,
      CompressionCodec codec,
      CombinerRunner<K, V> combiner,
      CombineOutputCollector<K, V> combineCollector,
      Counters.Counter spilledRecords,
      TaskReporter reporter,
      int partitions) {
    this.job = job;
    this.keyClass = keyClass;
    this.valueClass = valueClass;
    this.codec = codec;
    this.combiner = combiner;
    this.combineCollector = combineCollector;
    this.spilledRecords = spilledRecords;
    this.reporter = reporter;
    this.partitions = partitions;
  }

  boolean hasCombiner() {
    return combiner != null;
  }

  /** Writes every partition of {@code source} to {@code out} (left open) and returns the index. */
  SpillRecord write(FSDataOutputStream out, Source source, Combine combine)
      throws IOException, InterruptedException, ClassNotFoundException {
    SpillRecord index = new SpillRecord(partitions);
    for (int p = 0; p < partitions; p++) {
      long start = out.getPos();
      IFile.Writer<K, V> writer =
          new IFile.Writer<>(job, out, keyClass, valueClass, codec, spilledRecords);
      RawKeyValueIterator records = source.partition(p);
      try {
        if (combiner == null || combine == Combine.NEVER) {
          Merger.writeFile(records, writer, reporter, job);
        } else {
          combineCollector.setWriter(writer);
          if (combine == Combine.ALWAYS) {
            combiner.combine(records, combineCollector);
          } else if (records.next()) {
            combiner.combine(new Pushback(records), combineCollector);
          }
        }
      } finally {
        records.close();
      }
      writer.close();
      index.putIndex(
          new IndexRecord(start, writer.getRawLength(), writer.getCompressedLength()), p);
      reporter.progress();
    }
    return index;
  }

  /** An iterator whose first {@code next()} returns the record already read (to test emptiness). */
  private static final class Pushback implements RawKeyValueIterator {
    private final RawKeyValueIterator in;
    private boolean first = true;

    Pushback(RawKeyValueIterator in) {
      this.in = in;
    }

    @Override
    public boolean next() throws IOException {
      if (first) {
        first = false;
        return true;
      }
      return in.next();
    }

    @Override
    public org.apache.hadoop.io.DataInputBuffer getKey() throws IOException {
      return in.getKey();
    }

    @Override
    public org.apache.hadoop.io.DataInputBuffer getValue() throws IOException {
      return in.getValue();
    }

    @Override
    public void close() throws IOException {
      in.close();
    }

    @Override
    public org.apache.hadoop.util.Progress getProgress() {
      return in.getProgress();
    }
  }
}
