package dev.levee.sponge.hadoop;

import dev.levee.sponge.SpongeFile;
import dev.levee.sponge.SpongeFileSystem;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Merger;
import org.apache.hadoop.mapred.Merger.Segment;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.Task.CombineOutputCollector;
import org.apache.hadoop.mapred.Task.CombineValuesIterator;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Merges sorted runs (in memory) into one new run in a SpongeFile, with Hadoop's own {@link Merger}
 * and IFile writer, so the bytes are exactly what stock would have written to a local spill file;
 * optionally through the job's combiner, as stock's in-memory merge does.
 */
@SuppressWarnings({"unchecked", "rawtypes"})
final class SpillWriter<K, V> {
  private final JobConf job;
  private final FileSystem localFs;
  private final SpongeFileSystem sponge;
  private final CompressionCodec codec;
  private final Reporter reporter;
  private final Path tmpDir;
  private final Class<? extends Reducer> combinerClass;
  private final CombineOutputCollector<K, V> combineCollector;
  private final Counters.Counter spilledRecords;
  private final Counters.Counter combineInputRecords;
  private static final int MIN_STREAM_BUFFER = 512;

  private final Class<K> keyClass;
  private final Class<V> valueClass;
  private final RawComparator<K> comparator;

  SpillWriter(
      JobConf job,
      FileSystem localFs,
      SpongeFileSystem sponge,
      CompressionCodec codec,
      Reporter reporter,
      Path tmpDir,
      Class<? extends Reducer> combinerClass,
      CombineOutputCollector<K, V> combineCollector,
      Counters.Counter spilledRecords,
      Counters.Counter combineInputRecords) {
    this.job = job;
    this.localFs = localFs;
    this.sponge = sponge;
    this.codec = codec;
    this.reporter = reporter;
    this.tmpDir = tmpDir;
    this.combinerClass = combinerClass;
    this.combineCollector = combineCollector;
    this.spilledRecords = spilledRecords;
    this.combineInputRecords = combineInputRecords;
    this.keyClass = (Class<K>) job.getMapOutputKeyClass();
    this.valueClass = (Class<V>) job.getMapOutputValueClass();
    this.comparator = (RawComparator<K>) job.getOutputKeyComparator();
  }

  /**
   * Writes the merge of {@code runs} (all of them at once: they are in memory) into a new
   * SpongeFile.
   *
   * @param combine run the job's combiner, if it has one, over the merged records
   */
  SpilledSegment spill(List<Segment<K, V>> runs, boolean combine, String label) throws IOException {
    SpongeFile file = sponge.create(label);
    try {
      // Buffered as stock's local file system buffers a spill: IFile writes record lengths a byte
      // at a time.
      OutputStream out = new BufferedOutputStream(file.output(), streamBufferSize(job));
      IFile.Writer<K, V> writer =
          new IFile.Writer<>(
              job, new FSDataOutputStream(out, null), keyClass, valueClass, codec, null, true);
      RawKeyValueIterator merged =
          Merger.merge(
              job,
              localFs,
              keyClass,
              valueClass,
              runs,
              runs.size(),
              tmpDir,
              comparator,
              reporter,
              spilledRecords,
              null,
              null);
      if (combine && combinerClass != null) {
        combineCollector.setWriter(writer);
        combine(merged);
      } else {
        Merger.writeFile(merged, writer, reporter, job);
      }
      writer.close();
      return new SpilledSegment(file, writer.getRawLength(), false);
    } catch (IOException | RuntimeException e) {
      try {
        file.delete();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /**
   * The stream buffer stock's local file system uses for spills and merges ({@code
   * io.file.buffer.size}).
   */
  static int streamBufferSize(JobConf job) {
    return Math.max(
        MIN_STREAM_BUFFER,
        job.getInt(
            CommonConfigurationKeysPublic.IO_FILE_BUFFER_SIZE_KEY,
            CommonConfigurationKeysPublic.IO_FILE_BUFFER_SIZE_DEFAULT));
  }

  private void combine(RawKeyValueIterator records) throws IOException {
    Reducer combiner = ReflectionUtils.newInstance(combinerClass, job);
    RawComparator<K> grouping = (RawComparator<K>) job.getCombinerKeyGroupingComparator();
    try {
      CombineValuesIterator values =
          new CombineValuesIterator(
              records, grouping, keyClass, valueClass, job, Reporter.NULL, combineInputRecords);
      while (values.more()) {
        combiner.reduce(values.getKey(), values, combineCollector, Reporter.NULL);
        values.nextKey();
      }
    } finally {
      combiner.close();
    }
  }
}
