package dev.levee.themis.map;

import dev.levee.themis.Overflow;
import dev.levee.themis.ThemisConf;
import dev.levee.themis.ThemisCounters;
import dev.levee.themis.records.FramedRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.SpillRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The map side's memory policy: records go into the arena while it stays within the buffer; when it
 * would not, the arena is written as an overflow run (or, with overflow {@code fail}, the task
 * stops), and at the end everything is written into file.out once, runs first.
 */
final class MapOutputSink {
  private static final Logger LOG = LoggerFactory.getLogger(MapOutputSink.class);

  /** Where overflow run {@code n} goes. */
  interface RunFiles {
    Path forRun(int n, long estimatedBytes) throws IOException;
  }

  private final MapSettings settings;
  private final MapOutputWriter<?, ?> writer;
  private final RecordArena arena;
  private final int partitions;
  private final RunFiles runFiles;
  private final FileSystem rawLocal;
  private final Reporter reporter;
  private final List<OverflowRun> runs = new ArrayList<>();
  private long peakFootprint;

  MapOutputSink(
      MapSettings settings,
      MapOutputWriter<?, ?> writer,
      int partitions,
      RunFiles runFiles,
      FileSystem rawLocal,
      Reporter reporter) {
    this.settings = settings;
    this.writer = writer;
    this.arena = new RecordArena(RecordArena.slabSizeFor(settings.budget()));
    this.partitions = partitions;
    this.runFiles = runFiles;
    this.rawLocal = rawLocal;
    this.reporter = reporter;
  }

  void add(int partition, byte[] keyAndValue, int keyLength, int valueLength)
      throws IOException, InterruptedException, ClassNotFoundException {
    int framed = FramedRecord.framedLength(keyLength, valueLength);
    if (arena.records() > 0 && arena.footprintWith(framed) > settings.budget()) {
      overflow(framed);
    }
    arena.append(partition, keyAndValue, keyLength, valueLength);
    peakFootprint = Math.max(peakFootprint, arena.footprint());
  }

  private void overflow(int nextRecord)
      throws IOException, InterruptedException, ClassNotFoundException {
    if (settings.overflow() == Overflow.FAIL) {
      throw new IOException(
          "map output outgrew its buffer of "
              + settings.budget()
              + " bytes ("
              + arena.footprint()
              + " bytes held for "
              + arena.records()
              + " records, the next needs "
              + nextRecord
              + ") and "
              + ThemisConf.MAP_OVERFLOW.name()
              + "=fail; raise "
              + ThemisConf.MAP_BUFFER_FRACTION.name()
              + " or "
              + ThemisConf.MAP_BUFFER_SIZE.name()
              + ", give the map a larger heap or a smaller split, or set "
              + ThemisConf.MAP_OVERFLOW.name()
              + "=spill");
    }
    Path file = runFiles.forRun(runs.size(), arena.framedBytes() + partitions * 150L);
    long[] records = new long[partitions];
    SpillRecord index = writer.write(file, arena, List.of(), partitions, records, sortRoom());
    long bytes = rawLocal.getFileStatus(file).getLen();
    runs.add(new OverflowRun(file, index, records, bytes));
    long total = 0;
    for (long r : records) {
      total += r;
    }
    ThemisCounters.increment(reporter, ThemisCounters.MAP_OVERFLOW_BYTES, bytes);
    ThemisCounters.increment(reporter, ThemisCounters.MAP_OVERFLOW_RUNS, 1);
    ThemisCounters.increment(reporter, ThemisCounters.MAP_OVERFLOW_RECORDS, total);
    LOG.info(
        "Themis map output overflowed its {} byte buffer: run {} holds {} records in {} bytes",
        settings.budget(),
        runs.size(),
        total,
        bytes);
    arena.clear();
  }

  /** Bytes the final write will take, roughly (for choosing a local directory with room). */
  long estimatedOutputBytes() {
    long estimate = arena.framedBytes() + partitions * 150L;
    for (OverflowRun run : runs) {
      estimate += run.bytes();
    }
    return estimate;
  }

  /** Writes file.out: the runs' records, then the arena's, one segment per partition. */
  SpillRecord finish(Path output) throws IOException, InterruptedException, ClassNotFoundException {
    SpillRecord index =
        writer.write(output, arena, runs, partitions, new long[partitions], sortRoom());
    arena.clear();
    for (OverflowRun run : runs) {
      rawLocal.delete(run.file(), false);
    }
    return index;
  }

  int runs() {
    return runs.size();
  }

  long peakFootprint() {
    return peakFootprint;
  }

  void release() {
    arena.clear();
  }

  /** What the buffer's budget leaves free beside what the arena holds (negative: nothing). */
  private long sortRoom() {
    return settings.budget() - arena.footprint();
  }
}
