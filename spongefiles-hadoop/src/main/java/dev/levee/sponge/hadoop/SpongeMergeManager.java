package dev.levee.sponge.hadoop;

import dev.levee.sponge.SpongeFileSystem;
import dev.levee.sponge.Tier;
import dev.levee.sponge.config.SpongeConf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Merger;
import org.apache.hadoop.mapred.Merger.Segment;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.ExceptionReporter;
import org.apache.hadoop.mapreduce.task.reduce.InMemoryReader;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.apache.hadoop.util.Progress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reduce-side merge manager with SpongeFiles as its spill space. Memory is budgeted with
 * stock's keys and arithmetic, on the heap held map outputs can really occupy and without stock's
 * overshoot ({@link ShuffleMemoryBudget}); what differs is where data goes when it does not fit:
 *
 * <ul>
 *   <li>a map output larger than a single shuffle may take is written, as fetched, into its own
 *       SpongeFile;
 *   <li>when committed in-memory outputs reach the merge threshold they are merged (through the
 *       combiner, if any) into one SpongeFile;
 *   <li>the final merge reads every spilled run and the in-memory runs the reducer may keep in a
 *       single pass. Stock merges in rounds of {@code io.sort.factor} runs to bound disk seeks; a
 *       SpongeFile read costs no seek, so the intermediate rounds would only rewrite the data.
 * </ul>
 */
@SuppressWarnings("unchecked")
final class SpongeMergeManager<K, V> implements MergeManager<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(SpongeMergeManager.class);

  private final TaskAttemptID reduceId;
  private final JobConf job;
  private final SpongeFileSystem sponge;
  private final ShuffleMemoryBudget budget;
  private final CompressionCodec codec;
  private final Reporter reporter;
  private final Counters.Counter spilledRecords;
  private final Counters.Counter mergedMapOutputs;
  private final Progress mergePhase;
  private final FileSystem localFs;
  private final Path tmpDir;
  private final SpillWriter<K, V> writer;
  private final InMemorySpiller<InMemoryShuffledOutput<K, V>> spiller;
  private final MergeStatistics stats;
  private final MergeBufferBudget readBuffers;
  private final SpilledRunFiles runFiles;
  private final AtomicInteger spillNumber = new AtomicInteger();

  private final Set<InMemoryShuffledOutput<K, V>> inMemory =
      new TreeSet<>(new MapOutput.MapOutputComparator<>());
  private final List<SpilledSegment> spilled = new ArrayList<>();
  private long usedMemory;
  private long committedMemory;

  SpongeMergeManager(
      ShuffleConsumerPlugin.Context<K, V> context,
      SpongeFileSystem sponge,
      ExceptionReporter exceptionReporter,
      MergeStatistics stats) {
    this.reduceId = context.getReduceId();
    this.job = context.getJobConf();
    this.sponge = sponge;
    this.budget = ShuffleMemoryBudget.of(job);
    this.codec = context.getCodec();
    this.reporter = context.getReporter();
    this.spilledRecords = context.getSpilledRecordsCounter();
    this.mergedMapOutputs = context.getMergedMapOutputsCounter();
    this.mergePhase = context.getMergePhase();
    FileSystem local = context.getLocalFS();
    this.localFs = local instanceof LocalFileSystem lfs ? lfs.getRaw() : local;
    this.tmpDir = new Path(reduceId.toString());
    this.stats = stats;
    this.readBuffers =
        new MergeBufferBudget(
            sponge.config().chunkSize(),
            sponge.config().maxInFlightWrites(),
            MergeBufferBudget.bytesFromFraction(
                SpongeConf.SHUFFLE_MERGE_DIRECT_MEMORY_FRACTION.from(SpongeConf.source(job))));
    this.runFiles = new SpilledRunFiles(job, SpillWriter.streamBufferSize(job));
    this.writer =
        new SpillWriter<>(
            job,
            localFs,
            sponge,
            codec,
            reporter,
            tmpDir,
            context.getCombinerClass(),
            context.getCombineCollector(),
            spilledRecords,
            context.getReduceCombineInputCounter());
    this.spiller =
        new InMemorySpiller<>(
            "SpongeFiles in-memory spiller for " + reduceId, this::spillBatch, exceptionReporter);
    LOG.info(
        "{}: shuffling into SpongeFiles: memoryLimit={} (peak {}) maxSingleShuffle={} "
            + "mergeThreshold={} retainedForReduce={}",
        reduceId,
        budget.memoryLimit(),
        budget.peak(),
        budget.maxSingleShuffle(),
        budget.mergeThreshold(),
        budget.maxRetainedForReduce());
  }

  @Override
  public void waitForResource() throws InterruptedException {
    spiller.awaitIdle();
  }

  @Override
  public MapOutput<K, V> reserve(TaskAttemptID mapId, long requestedSize, int fetcher)
      throws IOException {
    if (requestedSize > budget.maxSingleShuffle()) {
      // Outside the lock: creating a SpongeFile may wait on the sponge tracker, and the other
      // fetchers' in-memory reservations must not queue behind that wait.
      stats.mapOutputToSponge();
      return new SpongeShuffledOutput<>(
          job, mapId, this, requestedSize, sponge.create(reduceId + "/" + mapId.getTaskID()));
    }
    synchronized (this) {
      // Unlike stock, no fetch overshoots the limit once a merge is due (see ShuffleMemoryBudget).
      if (!budget.admits(usedMemory, requestedSize)) {
        return null;
      }
      usedMemory += requestedSize;
    }
    return new InMemoryShuffledOutput<>(job, mapId, this, (int) requestedSize, codec, true);
  }

  synchronized void unreserve(long bytes) {
    usedMemory -= bytes;
  }

  synchronized void closeInMemory(InMemoryShuffledOutput<K, V> output) {
    inMemory.add(output);
    committedMemory += output.getSize();
    if (committedMemory >= budget.mergeThreshold()) {
      spiller.submit(new ArrayList<>(inMemory));
      inMemory.clear();
      committedMemory = 0;
    }
  }

  synchronized void closeSpilled(SpilledSegment segment) {
    spilled.add(segment);
  }

  @Override
  public RawKeyValueIterator close() throws Throwable {
    spiller.close();
    List<InMemoryShuffledOutput<K, V>> memory;
    List<SpilledSegment> runs;
    synchronized (this) {
      memory = new ArrayList<>(inMemory); // smallest first, like stock
      inMemory.clear();
      runs = new ArrayList<>(spilled);
      spilled.clear();
    }
    // Stock logs "finalMerge called" at the same point; tools time the merge and the reduce from
    // either line.
    LOG.info(
        "{}: {} {} in-memory map outputs and {} SpongeFile runs",
        reduceId,
        SpongeShuffle.FINAL_MERGE_LOG_MARKER,
        memory.size(),
        runs.size());
    long memoryBytes = 0;
    for (InMemoryShuffledOutput<K, V> o : memory) {
      memoryBytes += o.memory().length;
    }
    // Keep at most reduce.input.buffer.percent on the heap for the reducer; spill the rest,
    // smallest outputs first. The one-round merge opens every run at once, each with a read
    // buffer on the heap, where stock opens at most io.sort.factor: those buffers (one more for
    // the run the vacated outputs make) come out of the retained share.
    long retained =
        Math.max(
            0,
            budget.maxRetainedForReduce() - (runs.size() + 1L) * SpillWriter.streamBufferSize(job));
    List<Segment<K, V>> vacate = new ArrayList<>();
    while (memoryBytes > retained && !memory.isEmpty()) {
      InMemoryShuffledOutput<K, V> o = memory.remove(0);
      memoryBytes -= o.memory().length;
      vacate.add(inMemorySegment(o));
    }
    if (!vacate.isEmpty()) {
      runs.add(writer.spill(vacate, false, reduceId + "/final-spill"));
      stats.memorySpill();
    }

    runs = fitReadBuffers(runs);
    List<Segment<K, V>> segments = new ArrayList<>(memory.size() + runs.size());
    for (InMemoryShuffledOutput<K, V> o : memory) {
      segments.add(inMemorySegment(o));
    }
    boolean prefetch =
        sponge.config().prefetch()
            && readBuffers.prefetchFits(runs, SpongeMergeManager::nonLocalBytes);
    for (SpilledSegment run : runs) {
      segments.add(spilledSegment(run, prefetch));
    }
    stats.finalMerge(runs.size(), segments.size(), prefetch);
    LOG.info(
        "{}: final merge of {} SpongeFile runs ({} prefetch) and {} in-memory runs ({} bytes)",
        reduceId,
        runs.size(),
        prefetch ? "with" : "without",
        memory.size(),
        memoryBytes);
    return Merger.merge(
        job,
        localFs,
        (Class<K>) job.getMapOutputKeyClass(),
        (Class<V>) job.getMapOutputValueClass(),
        segments,
        Math.max(1, segments.size()),
        tmpDir,
        (RawComparator<K>) job.getOutputKeyComparator(),
        reporter,
        false,
        spilledRecords, // counted as the runs are read, as stock counts its on-disk segments
        null,
        mergePhase);
  }

  /**
   * Merges the smallest buffered runs until the final merge's read buffers fit {@link
   * #readBuffers}.
   */
  private List<SpilledSegment> fitReadBuffers(List<SpilledSegment> runs) throws IOException {
    List<SpilledSegment> pending = new ArrayList<>(runs);
    int round = 0;
    for (Optional<List<SpilledSegment>> batch = next(pending);
        batch.isPresent();
        batch = next(pending)) {
      List<SpilledSegment> merging = new ArrayList<>(batch.get());
      List<Segment<K, V>> segments = new ArrayList<>(merging.size());
      for (SpilledSegment run : merging) {
        segments.add(spilledSegment(run, false));
      }
      round++;
      LOG.info(
          "{}: intermediate merge {} of {} SpongeFile runs: the final merge's read buffers would exceed {} bytes "
              + "of direct memory",
          reduceId,
          round,
          merging.size(),
          readBuffers.budgetBytes());
      SpilledSegment merged =
          writer.spill(segments, false, reduceId + "/intermediate-merge-" + round);
      stats.intermediateMerge();
      pending.removeAll(merging);
      pending.add(merged);
    }
    return pending;
  }

  private Optional<List<SpilledSegment>> next(List<SpilledSegment> runs) {
    return readBuffers.nextIntermediateMerge(
        runs, SpongeMergeManager::nonLocalBytes, SpilledSegment::storedLength);
  }

  private static long nonLocalBytes(SpilledSegment run) {
    long nonLocal = 0;
    for (Map.Entry<Tier, Long> e : run.file().bytesByTier().entrySet()) {
      if (e.getKey() != Tier.LOCAL_MEMORY) {
        nonLocal += e.getValue();
      }
    }
    return nonLocal;
  }

  private void spillBatch(List<InMemoryShuffledOutput<K, V>> batch) {
    List<Segment<K, V>> segments = new ArrayList<>(batch.size());
    for (InMemoryShuffledOutput<K, V> o : batch) {
      segments.add(inMemorySegment(o));
    }
    try {
      SpilledSegment run =
          writer.spill(segments, true, reduceId + "/memory-spill-" + spillNumber.incrementAndGet());
      stats.memorySpill();
      closeSpilled(run);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "spilling "
              + batch.size()
              + " in-memory map outputs of "
              + reduceId
              + " into a SpongeFile failed",
          e);
    }
  }

  private Segment<K, V> inMemorySegment(InMemoryShuffledOutput<K, V> output) {
    byte[] data = output.memory();
    try {
      InMemoryReader<K, V> reader =
          new InMemoryReader<>(null, output.getMapId(), data, 0, data.length, job) {
            @Override
            public void close() {
              super.close();
              unreserve(data.length); // the merge has drained this output: its memory may take new
              // fetches
            }
          };
      return new Segment<>(reader, true, output.isPrimaryMapOutput() ? mergedMapOutputs : null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Segment<K, V> spilledSegment(SpilledSegment run, boolean prefetch) throws IOException {
    return runFiles.segment(job, run, prefetch, codec, mergedMapOutputs);
  }
}
