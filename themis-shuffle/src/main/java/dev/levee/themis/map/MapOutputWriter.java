package dev.levee.themis.map;

import dev.levee.themis.io.IntermediateFile;
import dev.levee.themis.io.SegmentCopier;
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
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.SpillRecord;
import org.apache.hadoop.mapred.Task.CombineOutputCollector;
import org.apache.hadoop.mapred.Task.CombinerRunner;
import org.apache.hadoop.mapreduce.CryptoUtils;
import org.apache.hadoop.mapreduce.security.IntermediateEncryptedStream;
import org.apache.hadoop.util.IndexedSorter;
import org.apache.hadoop.util.Progressable;

/**
 * Writes a map's partitions into one local file, one IFile segment per partition, in partition
 * order: file.out at the end of the map, or an overflow run when the buffer fills. Records go out
 * as collected, or sorted per partition when the reduce side needs sorted segments or a combiner
 * runs; an overflowing map's runs are copied (unsorted) or merged (sorted) in front of what is
 * still in memory.
 */
final class MapOutputWriter<K, V> {
  private final JobConf job;
  private final FileSystem rawLocal;
  private final CompressionCodec codec;
  private final Class<K> keyClass;
  private final Class<V> valueClass;
  private final RawComparator<K> comparator;
  private final PointerSorter sorter;
  private final boolean sortPartitions;
  private final CombinerRunner<K, V> combiner;
  private final CombineOutputCollector<K, V> combineCollector;
  private final Counters.Counter spilledRecords;
  private final Progressable progress;
  private final int writeBuffer;
  private final int cryptoPadding;
  private final WriteStats writes = new WriteStats();
  private long sortNanos;
  private long writeNanos;

  MapOutputWriter(
      JobConf job,
      FileSystem rawLocal,
      CompressionCodec codec,
      Class<K> keyClass,
      Class<V> valueClass,
      RawComparator<K> comparator,
      IndexedSorter sorter,
      boolean sortPartitions,
      CombinerRunner<K, V> combiner,
      CombineOutputCollector<K, V> combineCollector,
      Counters.Counter spilledRecords,
      Progressable progress,
      int writeBuffer)
      throws IOException {
    this.job = job;
    this.rawLocal = rawLocal;
    this.codec = codec;
    this.keyClass = keyClass;
    this.valueClass = valueClass;
    this.comparator = comparator;
    this.sorter = new PointerSorter(sorter, comparator);
    this.sortPartitions = sortPartitions || combiner != null;
    this.combiner = combiner;
    this.combineCollector = combineCollector;
    this.spilledRecords = spilledRecords;
    this.progress = progress;
    this.writeBuffer = writeBuffer;
    this.cryptoPadding = CryptoUtils.cryptoPadding(job);
  }

  /**
   * Writes everything {@code arena} holds, after the records of {@code runs} (which are read back
   * once), into {@code path}. Returns the file's index, one entry per partition. {@code sortRoom}:
   * heap bytes the buffer leaves free, which a partition's sort may use for key prefixes.
   */
  SpillRecord write(
      Path path,
      RecordArena arena,
      List<OverflowRun> runs,
      int partitions,
      long[] recordsOut,
      long sortRoom)
      throws IOException, InterruptedException, ClassNotFoundException {
    PartitionIndex index = arena.index(partitions);
    if (sortPartitions) {
      sort(index, arena.pages(), sortRoom);
    }
    long start = System.nanoTime();
    SpillRecord spill = new SpillRecord(partitions);
    try (IntermediateFile file = IntermediateFile.create(rawLocal, path, writeBuffer, writes)) {
      SegmentWriter segment = new SegmentWriter(job, codec);
      SegmentCopier copier = runs.isEmpty() ? null : new SegmentCopier(job, rawLocal, codec);
      for (int p = 0; p < partitions; p++) {
        long before = spilledRecords.getValue();
        spill.putIndex(writePartition(file, segment, copier, index, arena.pages(), runs, p), p);
        recordsOut[p] = spilledRecords.getValue() - before;
        progress.progress();
      }
    }
    writeNanos += System.nanoTime() - start;
    return spill;
  }

  private IndexRecord writePartition(
      IntermediateFile file,
      SegmentWriter segment,
      SegmentCopier copier,
      PartitionIndex index,
      RecordPages pages,
      List<OverflowRun> runs,
      int p)
      throws IOException, InterruptedException, ClassNotFoundException {
    RawKeyValueIterator inMemory =
        new PointerIterator(index.pointers(), index.start(p), index.end(p), pages);
    if (combiner != null) {
      return combine(file, runs.isEmpty() ? inMemory : merge(runs, p, inMemory));
    }
    segment.begin(file);
    if (sortPartitions && !runs.isEmpty()) {
      RawKeyValueIterator merged = merge(runs, p, inMemory);
      try {
        while (merged.next()) {
          segment.writeRecord(merged.getKey(), merged.getValue());
        }
      } finally {
        merged.close();
      }
    } else {
      for (OverflowRun run : runs) {
        copier.copy(run.file(), run.index().getIndex(p), run.recordsPerPartition()[p], segment);
      }
      writeInPlace(segment, index.pointers(), index.start(p), index.end(p), pages);
    }
    IndexRecord record = segment.finish();
    spilledRecords.increment(segment.records());
    return record;
  }

  /**
   * Writes records straight from their slabs; records that lie next to each other in a slab (all of
   * them, when there is one partition or the map emits partition by partition) go out in one call.
   */
  private static void writeInPlace(
      SegmentWriter segment, LongList pointers, long from, long to, RecordPages pages)
      throws IOException {
    int page = -1;
    int rangeStart = 0;
    int rangeEnd = 0;
    long rangeRecords = 0;
    for (long i = from; i < to; i++) {
      long p = pointers.get(i);
      int pg = RecordPages.pageOf(p);
      int off = RecordPages.offsetOf(p);
      if (pg == page && off == rangeEnd) {
        rangeEnd += FramedRecord.length(pages.page(pg), off);
        rangeRecords++;
        continue;
      }
      if (rangeRecords > 0) {
        segment.write(pages.page(page), rangeStart, rangeEnd - rangeStart, rangeRecords);
      }
      page = pg;
      rangeStart = off;
      rangeEnd = off + FramedRecord.length(pages.page(pg), off);
      rangeRecords = 1;
    }
    if (rangeRecords > 0) {
      segment.write(pages.page(page), rangeStart, rangeEnd - rangeStart, rangeRecords);
    }
  }

  private RawKeyValueIterator merge(List<OverflowRun> runs, int p, RawKeyValueIterator inMemory)
      throws IOException {
    List<RecordCursor> cursors = new ArrayList<>();
    long total = 0;
    try {
      for (OverflowRun run : runs) {
        IFile.Reader<Object, Object> reader =
            SegmentReader.open(job, rawLocal, run.file(), run.index().getIndex(p), codec, null);
        cursors.add(RecordCursor.of(reader));
        total += run.recordsPerPartition()[p];
      }
    } catch (IOException | RuntimeException e) {
      for (RecordCursor c : cursors) {
        c.close();
      }
      throw e;
    }
    cursors.add(RecordCursor.of(inMemory));
    return new MergingIterator(cursors, comparator, total);
  }

  /** Runs the combiner over one partition's sorted records into a stock IFile writer. */
  private IndexRecord combine(IntermediateFile file, RawKeyValueIterator in)
      throws IOException, InterruptedException, ClassNotFoundException {
    long segmentStart = file.position();
    FSDataOutputStream partitionOut =
        IntermediateEncryptedStream.wrapIfNecessary(job, file.stream(), false, file.path());
    IFile.Writer<K, V> writer =
        new IFile.Writer<>(job, partitionOut, keyClass, valueClass, codec, spilledRecords);
    try {
      combineCollector.setWriter(writer);
      combiner.combine(in, combineCollector);
    } finally {
      in.close();
    }
    writer.close();
    if (partitionOut != file.stream()) {
      partitionOut.close();
    }
    return new IndexRecord(
        segmentStart,
        writer.getRawLength() + cryptoPadding,
        writer.getCompressedLength() + cryptoPadding);
  }

  private void sort(PartitionIndex index, RecordPages pages, long room) {
    long start = System.nanoTime();
    for (int p = 0; p < index.partitions(); p++) {
      long n = index.size(p);
      if (n > 1) {
        if (n > Integer.MAX_VALUE) {
          throw new IllegalStateException(
              "partition " + p + " holds " + n + " records; at most 2^31-1 sort in one map");
        }
        sorter.sort(pages, index.pointers(), index.start(p), (int) n, progress, room);
      }
    }
    sortNanos += System.nanoTime() - start;
  }

  WriteStats writes() {
    return writes;
  }

  long sortMillis() {
    return sortNanos / 1_000_000;
  }

  long writeMillis() {
    return writeNanos / 1_000_000;
  }

  boolean sortsPartitions() {
    return sortPartitions;
  }
}
