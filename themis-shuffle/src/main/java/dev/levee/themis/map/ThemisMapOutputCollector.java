package dev.levee.themis.map;

import dev.levee.config.ConfigSource;
import dev.levee.mapred.MapCombiner;
import dev.levee.mapred.MapOutputChecks;
import dev.levee.themis.ThemisConf;
import dev.levee.themis.ThemisCounters;
import dev.levee.themis.io.IntermediateFile;
import dev.levee.themis.records.RecordSerializer;
import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapOutputCollector;
import org.apache.hadoop.mapred.MapOutputFile;
import org.apache.hadoop.mapred.MapTask;
import org.apache.hadoop.mapred.SpillRecord;
import org.apache.hadoop.mapred.Task.CombineOutputCollector;
import org.apache.hadoop.mapred.Task.CombinerRunner;
import org.apache.hadoop.mapred.Task.TaskReporter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.security.IntermediateEncryptedStream;
import org.apache.hadoop.util.IndexedSorter;
import org.apache.hadoop.util.QuickSort;
import org.apache.hadoop.util.ReflectionUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Themis's map side: every output record is appended to one in-memory arena, and when the map ends
 * its partitions are written to file.out once, each as a standard IFile segment, in large
 * sequential writes, with the stock index beside it. The NodeManager's ShuffleHandler serves the
 * file unchanged. Switch it on with
 *
 * <pre>mapreduce.job.map.output.collector.class = dev.levee.themis.map.ThemisMapOutputCollector
 * </pre>
 *
 * Partitions are written unsorted only when the reduce side is {@link
 * dev.levee.themis.reduce.ThemisShuffle} (see {@link OrderDecision}); otherwise, or when a combiner
 * runs, each partition is sorted in memory first, still written once. Hadoop's counters keep their
 * stock meaning (MAP_OUTPUT_MATERIALIZED_BYTES is file.out's length, SPILLED_RECORDS counts every
 * local write of a record); the {@value ThemisCounters#GROUP} group adds the rest.
 */
public class ThemisMapOutputCollector<K, V> implements MapOutputCollector<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(ThemisMapOutputCollector.class);

  private JobConf job;
  private TaskReporter reporter;
  private MapTask mapTask;
  private MapOutputFile mapOutputFile;
  private FileSystem rawLocal;
  private MapSettings settings;
  private int partitions;
  private Class<K> keyClass;
  private Class<V> valueClass;
  private RecordSerializer<K, V> serializer;
  private MapOutputWriter<K, V> writer;
  private MapOutputSink sink;

  private long localBytesBefore;
  private Counters.Counter mapOutputRecords;
  private Counters.Counter mapOutputBytes;
  private Counters.Counter materializedBytes;

  @Override
  @SuppressWarnings("unchecked")
  public void init(Context context) throws IOException, ClassNotFoundException {
    localBytesBefore = ThemisCounters.localBytesWritten();
    job = context.getJobConf();
    reporter = context.getReporter();
    mapTask = context.getMapTask();
    mapOutputFile = mapTask.getMapOutputFile();
    rawLocal = ((LocalFileSystem) FileSystem.getLocal(job)).getRaw();
    ConfigSource conf = ThemisConf.validate(job, LOG);
    settings = MapSettings.from(conf, Runtime.getRuntime().maxMemory());
    partitions = job.getNumReduceTasks();

    keyClass = (Class<K>) job.getMapOutputKeyClass();
    valueClass = (Class<V>) job.getMapOutputValueClass();
    serializer = RecordSerializer.forMapOutput(job);

    CompressionCodec codec = null;
    if (job.getCompressMapOutput()) {
      codec = ReflectionUtils.newInstance(job.getMapOutputCompressorClass(DefaultCodec.class), job);
    }
    MapCombiner<K, V> combining =
        settings.combine()
            ? MapCombiner.of(job, mapTask.getTaskID(), reporter)
            : MapCombiner.none();
    CombinerRunner<K, V> combiner = combining.runner();
    CombineOutputCollector<K, V> combineCollector = combining.collector();
    boolean sort = OrderDecision.mustSort(job, settings.order(), combiner != null);
    IndexedSorter sorter =
        ReflectionUtils.newInstance(
            job.getClass(MRJobConfig.MAP_SORT_CLASS, QuickSort.class, IndexedSorter.class), job);
    RawComparator<K> comparator = (RawComparator<K>) job.getOutputKeyComparator();
    writer =
        new MapOutputWriter<>(
            job,
            rawLocal,
            codec,
            keyClass,
            valueClass,
            comparator,
            sorter,
            sort,
            combiner,
            combineCollector,
            reporter.getCounter(TaskCounter.SPILLED_RECORDS),
            reporter,
            settings.writeBuffer());
    sink =
        new MapOutputSink(
            settings,
            writer,
            partitions,
            (n, size) -> mapOutputFile.getSpillFileForWrite(n, size),
            rawLocal,
            reporter);
    mapOutputRecords = reporter.getCounter(TaskCounter.MAP_OUTPUT_RECORDS);
    mapOutputBytes = reporter.getCounter(TaskCounter.MAP_OUTPUT_BYTES);
    materializedBytes = reporter.getCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES);
    LOG.info(
        "Themis map output: {} partitions written {} once at the end, buffer {} bytes, codec {},"
            + " combiner {}, overflow {}",
        partitions,
        writer.sortsPartitions() ? "sorted" : "unsorted",
        settings.budget(),
        codec == null ? "none" : codec.getClass().getSimpleName(),
        combiner == null ? "none" : "at write",
        settings.overflow());
  }

  @Override
  public synchronized void collect(K key, V value, int partition) throws IOException {
    reporter.progress();
    MapOutputChecks.check(key, keyClass, value, valueClass, partition, partitions);
    serializer.serialize(key, value);
    int keyLength = serializer.keyLength();
    int valueLength = serializer.valueLength();
    try {
      sink.add(partition, serializer.data(), keyLength, valueLength);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while writing an overflow run", e);
    } catch (ClassNotFoundException e) {
      throw new IOException("the combiner's class cannot be loaded", e);
    }
    mapOutputRecords.increment(1);
    mapOutputBytes.increment(keyLength + valueLength);
  }

  @Override
  public synchronized void flush()
      throws IOException, InterruptedException, ClassNotFoundException {
    Path output = mapOutputFile.getOutputFileForWrite(sink.estimatedOutputBytes());
    Path indexFile =
        mapOutputFile.getOutputIndexFileForWrite(
            (long) partitions * MapTask.MAP_OUTPUT_INDEX_RECORD_LENGTH);
    IntermediateEncryptedStream.addSpillIndexFile(indexFile, job);
    SpillRecord index = sink.finish(output);
    index.writeToFile(indexFile, job);

    long fileBytes = rawLocal.getFileStatus(output).getLen();
    long indexBytes = rawLocal.getFileStatus(indexFile).getLen();
    materializedBytes.increment(fileBytes);
    if (!IntermediateFile.SHUFFLE_OUTPUT_PERM.equals(
        IntermediateFile.SHUFFLE_OUTPUT_PERM.applyUMask(FsPermission.getUMask(job)))) {
      rawLocal.setPermission(output, IntermediateFile.SHUFFLE_OUTPUT_PERM);
      rawLocal.setPermission(indexFile, IntermediateFile.SHUFFLE_OUTPUT_PERM);
    }
    ThemisCounters.increment(
        reporter,
        writer.sortsPartitions()
            ? ThemisCounters.MAP_SORTED_OUTPUTS
            : ThemisCounters.MAP_UNSORTED_OUTPUTS,
        1);
    ThemisCounters.increment(reporter, ThemisCounters.MAP_OUTPUT_FILE_BYTES, fileBytes);
    ThemisCounters.increment(reporter, ThemisCounters.MAP_INDEX_BYTES, indexBytes);
    ThemisCounters.increment(reporter, ThemisCounters.MAP_PEAK_BYTES, sink.peakFootprint());
    ThemisCounters.increment(reporter, ThemisCounters.MAP_SORT_MS, writer.sortMillis());
    ThemisCounters.increment(reporter, ThemisCounters.MAP_WRITE_MS, writer.writeMillis());
    ThemisCounters.publishWrites(reporter, writer.writes());
    ThemisCounters.increment(reporter, ThemisCounters.TASK_LOCAL_BYTES_BEFORE, localBytesBefore);
    mapTask.getSortPhase().complete();
    LOG.info(
        "Themis map output written once: {} bytes in {} writes ({} overflow runs read back)",
        fileBytes,
        writer.writes().writes(),
        sink.runs());
  }

  @Override
  public void close() {
    if (sink != null) {
      sink.release();
    }
  }
}
