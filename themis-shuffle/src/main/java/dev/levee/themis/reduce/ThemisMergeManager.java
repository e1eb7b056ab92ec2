package dev.levee.themis.reduce;

import dev.levee.themis.Overflow;
import dev.levee.themis.ThemisConf;
import dev.levee.themis.io.IntermediateFile;
import dev.levee.themis.io.SegmentReader;
import dev.levee.themis.io.SegmentWriter;
import dev.levee.themis.io.WriteStats;
import dev.levee.themis.records.FramedRecord;
import dev.levee.themis.records.LongList;
import dev.levee.themis.records.MergingIterator;
import dev.levee.themis.records.PointerIterator;
import dev.levee.themis.records.PointerSorter;
import dev.levee.themis.records.RecordCursor;
import dev.levee.themis.records.RecordPages;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.ExceptionReporter;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.apache.hadoop.util.QuickSort;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Themis's phase two inside a Hadoop reduce task: every fetched segment stays in the heap, and when
 * the shuffle is done the whole partition is sorted once with the job's sort comparator and handed
 * to the reducer. Nothing is merged in passes and nothing is written to local disk, unless the
 * partition outgrows the budget: then (overflow {@code spill}) what is held is sorted into a run on
 * local disk and all runs are merged once at the end, one extra write and read of those bytes for
 * this reducer only, counted; with {@code fail} the task stops instead.
 */
final class ThemisMergeManager<K, V> implements MergeManager<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(ThemisMergeManager.class);
  private static final long MAX_SORTABLE = Integer.MAX_VALUE - 16;

  private final JobConf job;
  private final TaskAttemptID reduceId;
  private final ReduceSettings settings;
  private final ExceptionReporter failures;
  private final ShuffleConsumerPlugin.Context context;
  private final FileSystem rawLocal;
  private final CompressionCodec codec;
  private final RawComparator<K> comparator;
  private final ReduceStats stats;
  private final PointerSorter sorter;

  private final RecordPages pages = new RecordPages();
  private final LongList pointers = new LongList();
  private long committedBytes;
  private long inflightBytes;
  private long committedSegments;
  private long committedData;
  private long committedRecords;
  private final List<SortedRun> runs = new ArrayList<>();
  private boolean closed;
  private boolean failed;

  @SuppressWarnings("unchecked")
  ThemisMergeManager(
      ShuffleConsumerPlugin.Context context,
      ReduceSettings settings,
      ExceptionReporter failures,
      ReduceStats stats)
      throws IOException {
    this.context = context;
    this.job = context.getJobConf();
    this.reduceId = context.getReduceId();
    this.settings = settings;
    this.failures = failures;
    this.stats = stats;
    this.rawLocal = ((LocalFileSystem) FileSystem.getLocal(job)).getRaw();
    this.codec = context.getCodec();
    this.comparator = (RawComparator<K>) job.getOutputKeyComparator();
    this.sorter = new PointerSorter(new QuickSort(), comparator);
  }

  /** Memory to set aside for a segment of {@code size} bytes: its bytes and its pointers. */
  private long charge(long size) {
    // Until a segment has been seen, assume 32-byte records; afterwards, the observed average.
    double bytesPerRecord =
        committedRecords == 0 ? 32.0 : Math.max(2.0, (double) committedData / committedRecords);
    return size + (long) Math.ceil(size / bytesPerRecord) * Long.BYTES;
  }

  @Override
  public synchronized void waitForResource() throws InterruptedException {
    // Only in-flight fetches can make room by committing; held data makes room by spilling.
    // After a reported failure the task is about to stop: keep the fetchers from spinning.
    while (!closed
        && (failed || (inflightBytes > 0 && committedBytes + inflightBytes >= settings.budget()))) {
      wait();
    }
  }

  @Override
  public synchronized MapOutput<K, V> reserve(TaskAttemptID mapId, long requestedSize, int fetcher)
      throws IOException {
    long charge = charge(requestedSize);
    if (committedBytes + inflightBytes + charge > settings.budget()) {
      if (settings.overflow() == Overflow.FAIL) {
        if (committedBytes + inflightBytes + requestedSize > settings.budget()) {
          fail(tooLarge(mapId, requestedSize));
          return null;
        }
      } else {
        if (committedBytes > 0) {
          spill(pages, pointers, "held segments");
          committedBytes = 0;
          notifyAll();
        }
        if (inflightBytes > 0 && inflightBytes + charge > settings.budget()) {
          // Other fetches hold the memory; this one waits for them to commit, then a spill.
          return null;
        }
      }
    }
    inflightBytes += charge;
    SegmentLoader loader =
        new SegmentLoader(
            settings.chunkLimit(),
            settings.overflow() == Overflow.SPILL ? settings.budget() : Long.MAX_VALUE,
            (held, heldPointers) -> spillOwn(mapId, held, heldPointers));
    return new HeapMapOutput<>(mapId, requestedSize, charge, job, codec, this, loader);
  }

  private IOException tooLarge(TaskAttemptID mapId, long size) {
    return new IOException(
        reduceId
            + ": the partition outgrew the reducer's memory ("
            + (committedBytes + inflightBytes)
            + " bytes held, "
            + size
            + " more from "
            + mapId
            + ", budget "
            + settings.budget()
            + ") and "
            + ThemisConf.REDUCE_OVERFLOW.name()
            + "=fail. Give reducers more heap, raise "
            + ThemisConf.REDUCE_MEMORY_FRACTION.name()
            + " or "
            + ThemisConf.REDUCE_MEMORY_SIZE.name()
            + ", use more reducers (or Themis's phase 0 to choose them), or set "
            + ThemisConf.REDUCE_OVERFLOW.name()
            + "=spill");
  }

  /** A segment larger than the whole budget spills its own records as it streams in. */
  private void spillOwn(TaskAttemptID mapId, RecordPages held, LongList heldPointers)
      throws IOException {
    synchronized (this) {
      spill(held, heldPointers, "part of the map output of " + mapId);
    }
  }

  synchronized void commit(HeapMapOutput<K, V> output) throws IOException {
    inflightBytes -= output.charge();
    SegmentLoader loaded = output.loader();
    if (pointers.size() + loaded.pointers().size() > MAX_SORTABLE) {
      if (settings.overflow() == Overflow.FAIL) {
        fail(tooLarge(output.getMapId(), output.getSize()));
        return;
      }
      spill(pages, pointers, "held segments");
      committedBytes = 0;
    }
    int base = pages.count();
    for (int i = 0; i < loaded.pages().count(); i++) {
      pages.add(loaded.pages().page(i));
    }
    LongList own = loaded.pointers();
    for (long i = 0; i < own.size(); i++) {
      long p = own.get(i);
      pointers.add(RecordPages.pointer(base + RecordPages.pageOf(p), RecordPages.offsetOf(p)));
    }
    committedBytes += loaded.footprint();
    committedSegments++;
    committedData += output.getSize();
    committedRecords += loaded.records();
    stats.segmentFetched(output.getSize());
    stats.holding(committedBytes + inflightBytes);
    LOG.info(
        "{}: holds the output of {} in memory ({} bytes, {} records; {} of {} bytes in use)",
        reduceId,
        output.getMapId(),
        output.getSize(),
        loaded.records(),
        committedBytes + inflightBytes,
        settings.budget());
    if (settings.overflow() == Overflow.FAIL && committedBytes > settings.budget()) {
      fail(tooLarge(output.getMapId(), output.getSize()));
    }
    notifyAll();
  }

  synchronized void abort(HeapMapOutput<K, V> output) {
    inflightBytes -= output.charge();
    if (output.loader().spilled()) {
      // Part of this segment is in a run already and cannot be taken back; a retry of the fetch
      // would duplicate it. Failing the attempt makes Hadoop rerun the reduce from scratch.
      fail(
          new IOException(
              reduceId
                  + ": the fetch of "
                  + output.getMapId()
                  + " failed after part of it was spilled to a run; the reduce attempt restarts"));
    }
    notifyAll();
  }

  /** Stops the shuffle: {@link org.apache.hadoop.mapreduce.task.reduce.Shuffle#run} throws it. */
  private void fail(IOException e) {
    failed = true;
    failures.reportException(e);
    notifyAll();
  }

  /** Sorts {@code held} into one run on local disk, then forgets it. Caller holds the lock. */
  private void spill(RecordPages held, LongList heldPointers, String what) throws IOException {
    long n = heldPointers.size();
    long start = System.nanoTime();
    sort(held, heldPointers);
    stats.sorted(n, System.nanoTime() - start);
    Path file =
        context
            .getLocalDirAllocator()
            .getLocalPathForWrite(
                reduceId + "/themis-run-" + runs.size() + ".out", held.bytes() + 1024, job);
    WriteStats ignored = new WriteStats();
    IndexRecord segment;
    try (IntermediateFile out = IntermediateFile.create(rawLocal, file, 1 << 20, ignored)) {
      SegmentWriter writer = new SegmentWriter(job, codec);
      writer.begin(out);
      for (long i = 0; i < n; i++) {
        long p = heldPointers.get(i);
        byte[] page = held.pageOfPointer(p);
        int off = RecordPages.offsetOf(p);
        writer.write(page, off, FramedRecord.length(page, off), 1);
      }
      segment = writer.finish();
    }
    long bytes = rawLocal.getFileStatus(file).getLen();
    runs.add(new SortedRun(file, segment, n));
    context.getSpilledRecordsCounter().increment(n);
    stats.overflowRun(bytes, n);
    LOG.info(
        "{}: partition outgrew the {} byte budget; {} ({} records) sorted into run {} of {} bytes",
        reduceId,
        settings.budget(),
        what,
        n,
        runs.size(),
        bytes);
    held.clear();
    heldPointers.clear();
  }

  /** Sorts what is held; key prefixes use what the budget leaves free. Caller holds the lock. */
  private boolean sort(RecordPages held, LongList heldPointers) {
    long room = settings.budget() - committedBytes - inflightBytes;
    return sorter.sort(
        held, heldPointers, 0, (int) heldPointers.size(), context.getReporter(), room);
  }

  @Override
  public synchronized RawKeyValueIterator close() throws Throwable {
    closed = true;
    notifyAll();
    long start = System.nanoTime();
    boolean prefixed = sort(pages, pointers);
    stats.sorted(pointers.size(), System.nanoTime() - start);
    context.getMergedMapOutputsCounter().increment(committedSegments);
    RawKeyValueIterator inMemory = new PointerIterator(pointers, 0, pointers.size(), pages);
    LOG.info(
        "{}: {} map outputs, {} records, {} bytes held; sorted once in {} ms{}; {} overflow runs",
        reduceId,
        committedSegments,
        pointers.size(),
        committedBytes,
        (System.nanoTime() - start) / 1_000_000,
        prefixed ? " with key prefixes" : "",
        runs.size());
    if (runs.isEmpty()) {
      return inMemory;
    }
    List<RecordCursor> cursors = new ArrayList<>();
    long total = pointers.size();
    for (SortedRun run : runs) {
      cursors.add(
          RecordCursor.of(
              SegmentReader.open(job, rawLocal, run.file(), run.segment(), codec, null)));
      total += run.records();
    }
    cursors.add(RecordCursor.of(inMemory));
    return new MergingIterator(cursors, comparator, total);
  }

  /** Deletes the runs (after the reducer has read them). */
  synchronized void deleteRuns() {
    for (SortedRun run : runs) {
      try {
        rawLocal.delete(run.file(), false);
      } catch (IOException e) {
        LOG.warn("could not delete overflow run {}", run.file(), e);
      }
    }
    runs.clear();
  }
}
