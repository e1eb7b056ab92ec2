package dev.levee.sponge.hadoop;

import dev.levee.mapred.BufferedRawIterator;
import dev.levee.mapred.MapCombiner;
import dev.levee.mapred.MapOutputChecks;
import dev.levee.sponge.SpongeCounters.Counter;
import dev.levee.sponge.SpongeFile;
import dev.levee.sponge.SpongeFileSystem;
import dev.levee.sponge.config.SpongeConf;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.io.serializer.Serializer;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapOutputCollector;
import org.apache.hadoop.mapred.MapOutputFile;
import org.apache.hadoop.mapred.MapTask;
import org.apache.hadoop.mapred.Merger;
import org.apache.hadoop.mapred.Merger.Segment;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.SpillRecord;
import org.apache.hadoop.mapred.Task.CombineOutputCollector;
import org.apache.hadoop.mapred.Task.CombinerRunner;
import org.apache.hadoop.mapred.Task.TaskReporter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.util.IndexedSorter;
import org.apache.hadoop.util.Progress;
import org.apache.hadoop.util.QuickSort;
import org.apache.hadoop.util.ReflectionUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The map output buffer with SpongeFiles as spill space. Records are serialized into a buffer of
 * {@code mapreduce.task.io.sort.mb}; when it is full it is sorted (partition, then the job's key
 * comparator), run through the combiner as stock's spill does, and written as one sorted run into a
 * SpongeFile instead of a local spill file. At the end the runs are merged into file.out in one
 * round with Hadoop's own {@link Merger} (stock merges {@code mapreduce.task.io.sort.factor} files
 * at a time, to spare the disk its seeks; memory has none to spare), through the combiner when
 * there were at least {@code mapreduce.map.combine.minspills} spills, as stock does. A map that
 * never fills its buffer writes file.out straight from it and never touches the sponge.
 *
 * <p>file.out and its index go where {@link MapOutputFile} says, written by Hadoop's IFile writer
 * in stock's layout, so the ShuffleHandler serves them unchanged.
 *
 * <p>Unlike stock, a spill does not overlap with the map: the buffer is written out when full, and
 * the map waits (a spill into memory takes a fraction of what a disk spill does). Collect and flush
 * are synchronized as stock's are, for mappers that emit from several threads.
 *
 * <p>Every run's index stays in memory (24 bytes per partition and run); stock moves indexes past
 * {@code mapreduce.task.index.cache.limit.bytes} to local disk.
 */
@SuppressWarnings({"unchecked", "rawtypes"})
final class SpongeMapOutputBuffer<K, V> implements MapOutputCollector<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(SpongeMapOutputBuffer.class);
  private static final int APPROX_HEADER_LENGTH = 150;

  private final SpongeFileSystem sponge;
  private JobConf job;
  private MapTask mapTask;
  private TaskReporter reporter;
  private MapOutputFile mapOutputFile;
  private FileSystem rawLocal;
  private int partitions;
  private Class<K> keyClass;
  private Class<V> valueClass;
  private RawComparator<K> comparator;
  private CompressionCodec codec;
  private Serializer<K> keySerializer;
  private Serializer<V> valueSerializer;
  private final DataOutputBuffer scratch = new DataOutputBuffer();
  private MapSortBuffer buffer;
  private IndexedSorter sorter;
  private PartitionedWriter<K, V> writer;
  private int minSpillsForCombine;
  private int spillFilesLimit;
  private int streamBuffer;
  private MergeBufferBudget readBuffers;
  private final List<MapRun> runs = new ArrayList<>();
  private int spills;
  private long spillBytes;
  private int mergeRounds;
  private int finalMergeRuns;
  private int oversized;

  private Counters.Counter mapOutputRecords;
  private Counters.Counter mapOutputBytes;
  private Counters.Counter materializedBytes;
  private Counters.Counter spilledRecords;

  SpongeMapOutputBuffer(SpongeFileSystem sponge) {
    this.sponge = sponge;
  }

  @Override
  public void init(Context context) throws IOException, ClassNotFoundException {
    job = context.getJobConf();
    mapTask = context.getMapTask();
    reporter = context.getReporter();
    mapOutputFile = mapTask.getMapOutputFile();
    rawLocal = ((LocalFileSystem) FileSystem.getLocal(job)).getRaw();
    partitions = job.getNumReduceTasks();
    int capacity = StockMapSettings.sortBufferBytes(job);
    spillFilesLimit = StockMapSettings.spillFilesLimit(job);
    keyClass = (Class<K>) job.getMapOutputKeyClass();
    valueClass = (Class<V>) job.getMapOutputValueClass();
    comparator = (RawComparator<K>) job.getOutputKeyComparator();
    SerializationFactory serialization = new SerializationFactory(job);
    keySerializer = serialization.getSerializer(keyClass);
    valueSerializer = serialization.getSerializer(valueClass);
    if (keySerializer == null || valueSerializer == null) {
      throw new IOException(
          "no serializer (io.serializations) for the map output "
              + (keySerializer == null
                  ? "key " + keyClass.getName()
                  : "value " + valueClass.getName()));
    }
    keySerializer.open(scratch);
    valueSerializer.open(scratch);
    if (job.getCompressMapOutput()) {
      codec = ReflectionUtils.newInstance(job.getMapOutputCompressorClass(DefaultCodec.class), job);
    }
    sorter =
        ReflectionUtils.newInstance(
            job.getClass(MRJobConfig.MAP_SORT_CLASS, QuickSort.class, IndexedSorter.class), job);
    mapOutputRecords = reporter.getCounter(TaskCounter.MAP_OUTPUT_RECORDS);
    mapOutputBytes = reporter.getCounter(TaskCounter.MAP_OUTPUT_BYTES);
    materializedBytes = reporter.getCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES);
    spilledRecords = reporter.getCounter(TaskCounter.SPILLED_RECORDS);
    MapCombiner<K, V> combining = MapCombiner.of(job, mapTask.getTaskID(), reporter);
    CombinerRunner<K, V> combiner = combining.runner();
    CombineOutputCollector<K, V> combineCollector = combining.collector();
    minSpillsForCombine = job.getInt(MRJobConfig.MAP_COMBINE_MIN_SPILLS, 3);
    writer =
        new PartitionedWriter<>(
            job,
            keyClass,
            valueClass,
            codec,
            combiner,
            combineCollector,
            spilledRecords,
            reporter,
            partitions);
    streamBuffer = SpillWriter.streamBufferSize(job);
    readBuffers =
        new MergeBufferBudget(
            sponge.config().chunkSize(),
            sponge.config().maxInFlightWrites(),
            MergeBufferBudget.bytesFromFraction(
                SpongeConf.MAP_MERGE_DIRECT_MEMORY_FRACTION.from(SpongeConf.source(job))));
    buffer = new MapSortBuffer(capacity, comparator);
    LOG.info(
        "{}: map output spills into SpongeFiles: sort buffer {} bytes, {} partitions, codec {},"
            + " combiner {}",
        mapTask.getTaskID(),
        capacity,
        partitions,
        codec == null ? "none" : codec.getClass().getSimpleName(),
        combiner == null ? "none" : combiner.getClass().getSimpleName());
  }

  @Override
  public synchronized void collect(K key, V value, int partition)
      throws IOException, InterruptedException {
    reporter.progress();
    MapOutputChecks.check(key, keyClass, value, valueClass, partition, partitions);
    scratch.reset();
    keySerializer.serialize(key);
    int keyLength = scratch.getLength();
    valueSerializer.serialize(value);
    int valueLength = scratch.getLength() - keyLength;
    mapOutputRecords.increment(1);
    mapOutputBytes.increment(keyLength + valueLength);
    try {
      if (buffer.add(partition, scratch.getData(), keyLength, valueLength)) {
        return;
      }
      if (!buffer.isEmpty()) {
        spillBuffer();
      }
      if (!buffer.add(partition, scratch.getData(), keyLength, valueLength)) {
        spillOversized(partition, keyLength, valueLength);
      }
    } catch (ClassNotFoundException e) {
      throw new IOException("the combiner's class cannot be loaded", e);
    }
  }

  /** Sorts the buffer and writes it, combined as stock's spill is, into a new SpongeFile run. */
  private void spillBuffer() throws IOException, InterruptedException, ClassNotFoundException {
    sortBuffer();
    writeRun("spill-" + spills, buffer.partitions(), PartitionedWriter.Combine.NON_EMPTY);
    buffer.clear();
  }

  /**
   * A record bigger than the whole buffer is a run of its own, as stock spills it on its own
   * (without the combiner).
   */
  private void spillOversized(int partition, int keyLength, int valueLength)
      throws IOException, InterruptedException, ClassNotFoundException {
    oversized++;
    LOG.info(
        "{}: a record of {} bytes exceeds the {}-byte sort buffer; spilling it as a run of its own",
        mapTask.getTaskID(),
        keyLength + valueLength,
        buffer.capacity());
    byte[] data = scratch.getData();
    writeRun(
        "oversized-" + spills,
        p -> p == partition ? single(data, keyLength, valueLength) : BufferedRawIterator.empty(),
        PartitionedWriter.Combine.NEVER);
  }

  private void writeRun(String label, PartitionedWriter.Source source, PartitionedWriter.Combine c)
      throws IOException, InterruptedException, ClassNotFoundException {
    if (spillFilesLimit >= 0 && runs.size() + 1 > spillFilesLimit) {
      throw new IOException(
          "Too many spill files got created, control it with "
              + StockMapSettings.SPILL_FILES_COUNT_LIMIT
              + ", current value: "
              + spillFilesLimit
              + ", current spill count: "
              + (runs.size() + 1));
    }
    SpongeFile file = sponge.create(mapTask.getTaskID() + "/" + label);
    try {
      SpillRecord index;
      try (FSDataOutputStream out = spongeOutput(file)) {
        index = writer.write(out, source, c);
      }
      runs.add(new MapRun(file, index));
      spills++;
      spillBytes += file.length();
    } catch (IOException | InterruptedException | ClassNotFoundException | RuntimeException e) {
      deleteQuietly(file, e);
      throw e;
    }
  }

  private FSDataOutputStream spongeOutput(SpongeFile file) throws IOException {
    return new FSDataOutputStream(new BufferedOutputStream(file.output(), streamBuffer), null);
  }

  private void sortBuffer() {
    if (buffer.records() > 1) {
      sorter.sort(buffer, 0, buffer.records(), reporter);
    }
  }

  @Override
  public synchronized void flush()
      throws IOException, InterruptedException, ClassNotFoundException {
    Progress sortPhase = mapTask.getSortPhase();
    long estimate = buffer.dataBytes() + (long) partitions * APPROX_HEADER_LENGTH;
    for (MapRun r : runs) {
      estimate += r.length();
    }
    Path output = mapOutputFile.getOutputFileForWrite(estimate);
    Path indexFile =
        mapOutputFile.getOutputIndexFileForWrite(
            (long) partitions * MapTask.MAP_OUTPUT_INDEX_RECORD_LENGTH);
    SpillRecord index;
    if (runs.isEmpty()) {
      // Stock spills once and renames the spill to file.out; this writes file.out directly.
      sortBuffer();
      try (FSDataOutputStream out = rawLocal.create(output, true, 4096)) {
        index = writer.write(out, buffer.partitions(), PartitionedWriter.Combine.NON_EMPTY);
      }
      buffer.clear();
    } else {
      if (!buffer.isEmpty()) {
        spillBuffer();
      }
      buffer = null; // the merge needs the memory more than an empty buffer does
      index = mergeIntoFileOut(output);
    }
    index.writeToFile(indexFile, job);
    materializedBytes.increment(rawLocal.getFileStatus(output).getLen());
    StockMapSettings.makeShuffleReadable(job, rawLocal, output, indexFile);
    sortPhase.complete();
  }

  /**
   * Merges every run into file.out in one round, unless their read buffers would not fit the direct
   * memory allowed: then the smallest runs are first merged into a new run, just enough of them.
   */
  private SpillRecord mergeIntoFileOut(Path output)
      throws IOException, InterruptedException, ClassNotFoundException {
    int spillCount = runs.size();
    Optional<List<MapRun>> batch;
    while ((batch = readBuffers.nextIntermediateMerge(runs, MapRun::nonLocalBytes, MapRun::length))
        .isPresent()) {
      List<MapRun> merging = new ArrayList<>(batch.get());
      runs.removeAll(merging);
      mergeRounds++;
      LOG.info(
          "{}: merging {} spilled runs first: their read buffers with the rest's would exceed {}",
          mapTask.getTaskID(),
          merging.size(),
          readBuffers.budgetBytes());
      MapRun merged = mergeIntoRun(merging);
      runs.add(merged);
    }
    boolean prefetch =
        sponge.config().prefetch() && readBuffers.prefetchFits(runs, MapRun::nonLocalBytes);
    boolean combine = writer.hasCombiner() && spillCount >= minSpillsForCombine;
    List<MapRun> merging = new ArrayList<>(runs);
    runs.clear();
    mergeRounds++;
    finalMergeRuns = merging.size();
    LOG.info(
        "{}: merging {} SpongeFile runs into file.out in one round ({} prefetch, combiner {})",
        mapTask.getTaskID(),
        merging.size(),
        prefetch ? "with" : "without",
        combine ? "on" : "off");
    try (FSDataOutputStream out = rawLocal.create(output, true, 4096)) {
      return merge(
          merging,
          out,
          combine ? PartitionedWriter.Combine.ALWAYS : PartitionedWriter.Combine.NEVER,
          prefetch);
    }
  }

  private MapRun mergeIntoRun(List<MapRun> merging)
      throws IOException, InterruptedException, ClassNotFoundException {
    SpongeFile file = sponge.create(mapTask.getTaskID() + "/merge-" + mergeRounds);
    try {
      SpillRecord index;
      try (FSDataOutputStream out = spongeOutput(file)) {
        index = merge(merging, out, PartitionedWriter.Combine.NEVER, false);
      }
      spillBytes += file.length();
      return new MapRun(file, index);
    } catch (IOException | InterruptedException | ClassNotFoundException | RuntimeException e) {
      deleteQuietly(file, e);
      throw e;
    }
  }

  /** Merges {@code merging} partition by partition into {@code out}; frees the runs. */
  private SpillRecord merge(
      List<MapRun> merging,
      FSDataOutputStream out,
      PartitionedWriter.Combine combine,
      boolean prefetch)
      throws IOException, InterruptedException, ClassNotFoundException {
    Path tmpDir = new Path(mapTask.getTaskID().toString());
    try (MapRunReaders readers = new MapRunReaders(job, streamBuffer)) {
      List<Path> paths = new ArrayList<>(merging.size());
      for (MapRun r : merging) {
        paths.add(readers.add(r, prefetch));
      }
      return writer.write(
          out,
          p -> {
            List<Segment<K, V>> segments = new ArrayList<>(merging.size());
            for (int i = 0; i < merging.size(); i++) {
              var record = merging.get(i).index().getIndex(p);
              segments.add(
                  new Segment<>(
                      job,
                      readers,
                      paths.get(i),
                      record.startOffset,
                      record.partLength,
                      codec,
                      true));
            }
            return Merger.merge(
                job,
                readers,
                keyClass,
                valueClass,
                codec,
                segments,
                Math.max(2, segments.size()),
                tmpDir,
                comparator,
                reporter,
                false,
                null,
                null,
                null,
                TaskType.MAP);
          },
          combine);
    }
  }

  /** The figures for the task's counters. */
  Map<String, Long> statistics() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put(Counter.MAP_SPILLS.counterName(), (long) spills);
    m.put(Counter.MAP_SPILL_BYTES.counterName(), spillBytes);
    m.put(Counter.MAP_MERGE_ROUNDS.counterName(), (long) mergeRounds);
    m.put(Counter.MAP_MERGE_FINAL_RUNS.counterName(), (long) finalMergeRuns);
    m.put(Counter.MAP_OVERSIZED_RECORDS.counterName(), (long) oversized);
    return m;
  }

  @Override
  public void close() throws IOException, InterruptedException {
    buffer = null;
    IOException first = null;
    for (MapRun r : runs) {
      try {
        r.file().delete();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    runs.clear();
    if (first != null) {
      throw first;
    }
  }

  private static void deleteQuietly(SpongeFile file, Exception cause) {
    try {
      file.delete();
    } catch (IOException suppressed) {
      cause.addSuppressed(suppressed);
    }
  }

  private static RawKeyValueIterator single(byte[] data, int keyLength, int valueLength) {
    return new BufferedRawIterator() {
      private boolean done;

      @Override
      public boolean next() {
        if (done) {
          return false;
        }
        done = true;
        key.reset(data, 0, keyLength);
        value.reset(data, keyLength, valueLength);
        return true;
      }
    };
  }
}
