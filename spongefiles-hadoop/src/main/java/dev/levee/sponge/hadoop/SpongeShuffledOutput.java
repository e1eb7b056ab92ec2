package dev.levee.sponge.hadoop;

import dev.levee.sponge.SpongeFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.IFileInputStream;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.MapHost;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A map output too big for the in-memory shuffle, written as fetched (still compressed, checksum
 * verified and kept) into its own SpongeFile, where stock Hadoop would write a local file.
 */
final class SpongeShuffledOutput<K, V> extends MapOutput<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(SpongeShuffledOutput.class);
  private static final int COPY_BUFFER = 64 * 1024;

  private final Configuration conf;
  private final SpongeMergeManager<K, V> manager;
  private final SpongeFile file;

  SpongeShuffledOutput(
      Configuration conf,
      TaskAttemptID mapId,
      SpongeMergeManager<K, V> manager,
      long size,
      SpongeFile file) {
    super(mapId, size, true);
    this.conf = conf;
    this.manager = manager;
    this.file = file;
  }

  @Override
  public void shuffle(
      MapHost host,
      InputStream input,
      long compressedLength,
      long decompressedLength,
      ShuffleClientMetrics metrics,
      Reporter reporter)
      throws IOException {
    IFileInputStream checked = new IFileInputStream(input, compressedLength, conf);
    long left = compressedLength;
    byte[] buf = new byte[COPY_BUFFER];
    try (OutputStream out = file.output()) {
      while (left > 0) {
        int n = checked.readWithChecksum(buf, 0, (int) Math.min(left, buf.length));
        if (n < 0) {
          break;
        }
        out.write(buf, 0, n);
        left -= n;
        metrics.inputBytes(n);
        reporter.progress();
      }
    }
    if (left != 0) {
      throw new IOException(
          "incomplete map output of "
              + getMapId()
              + " from "
              + host.getHostName()
              + ": "
              + left
              + " of "
              + compressedLength
              + " bytes missing");
    }
  }

  @Override
  public void commit() {
    manager.closeSpilled(new SpilledSegment(file, getSize(), true));
  }

  @Override
  public void abort() {
    try {
      file.delete();
    } catch (IOException e) {
      LOG.warn("could not free {} of aborted fetch of {}", file, getMapId(), e);
    }
  }

  @Override
  public String getDescription() {
    return "SPONGE";
  }
}
