package dev.levee.sponge.hadoop;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Merger.Segment;

/**
 * A reduce task's spilled SpongeFile runs, seen by Hadoop's {@code Merger} as files of a read-only
 * file system.
 *
 * <p>Why a file system: the merger decides how to read a segment's values by whether the segment
 * has a file system ({@code Segment.inMemory()} is {@code fs == null}). A segment built on a reader
 * alone counts as in memory, and the merger then lets it read each value into whatever buffer the
 * previous value left behind, which may be the byte array of an in-memory map output still being
 * merged: a SpongeFile run read that way overwrote unread records whenever the reducer kept map
 * outputs in memory ({@code mapreduce.reduce.input.buffer.percent} above 0). A SpongeFile run is
 * not in the heap: it is read through a stream into a buffer, exactly like stock's on-disk
 * segments, and presenting it as a file makes the merger treat it as one.
 *
 * <p>Each run can be opened once: opening hands the run to the merger's reader, whose stream
 * deletes the SpongeFile when it closes (see {@link SpongeSegmentStream}).
 */
final class SpilledRunFiles extends RunFileSystem {
  private static final URI ROOT = URI.create("levee-sponge-run:///");

  private final int bufferSize;
  private final Map<Path, Run> runs = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();

  private record Run(SpilledSegment segment, boolean prefetch) {}

  /**
   * @param conf the task's configuration (the merger's readers consult it through {@link #getConf})
   * @param bufferSize the read buffer under each run's IFile reader ({@code io.file.buffer.size})
   */
  SpilledRunFiles(Configuration conf, int bufferSize) {
    super(ROOT, "SpongeFile runs");
    setConf(conf);
    this.bufferSize = bufferSize;
  }

  /**
   * A merge segment for {@code run}: the merger opens it when the merge starts and reads it with
   * its own value buffer. The SpongeFile is freed when the merger closes the segment's reader.
   */
  <K, V> Segment<K, V> segment(
      JobConf job,
      SpilledSegment run,
      boolean prefetch,
      CompressionCodec codec,
      Counters.Counter mergedMapOutputs)
      throws IOException {
    Path path = new Path(ROOT.toString() + "run-" + ids.incrementAndGet());
    runs.put(path, new Run(run, prefetch));
    return new Segment<>(
        job,
        this,
        path,
        0,
        run.storedLength(),
        codec,
        true, // the stream frees the SpongeFile; nothing to delete through this file system
        run.mapOutput() ? mergedMapOutputs : null);
  }

  /** Runs handed out as segments but never opened (a merge that failed before reading them). */
  int unopened() {
    return runs.size();
  }

  @Override
  public FSDataInputStream open(Path f, int ignoredBufferSize) throws IOException {
    Run run = runs.remove(f);
    if (run == null) {
      throw new FileNotFoundException(f + ": no such SpongeFile run, or it was already read");
    }
    return new FSDataInputStream(
        new SpongeSegmentStream(run.segment().file(), run.prefetch(), bufferSize));
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    Run run = runs.get(f);
    if (run == null) {
      throw new FileNotFoundException(f + ": no such SpongeFile run, or it was already read");
    }
    return new FileStatus(run.segment().storedLength(), false, 1, bufferSize, 0, f);
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    Run run = runs.remove(f);
    if (run != null) {
      run.segment().file().delete();
    }
    return run != null;
  }
}
