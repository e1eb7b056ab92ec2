package dev.levee.mapred;

import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.mapred.IFileInputStream;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.MapHost;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;

/**
 * A map output a reducer's fetcher reads into memory as stock's in-memory output does: through the
 * IFile checksum stream, decompressed with a pooled decompressor when the job compresses map
 * output, every byte accounted, and read past its end so that the checksum trailer is verified and
 * a map output longer than announced fails the fetch. Where the bytes go is the subclass's {@link
 * #load}.
 */
public abstract class DecompressedMapOutput<K, V> extends MapOutput<K, V> {
  private final Configuration conf;
  private final CompressionCodec codec;

  protected DecompressedMapOutput(
      TaskAttemptID mapId, long size, boolean primary, Configuration conf, CompressionCodec codec) {
    super(mapId, size, primary);
    this.conf = conf;
    this.codec = codec;
  }

  /** Reads exactly {@code decompressedLength} bytes of the map output from {@code in}. */
  protected abstract void load(InputStream in, long decompressedLength) throws IOException;

  @Override
  public final void shuffle(
      MapHost host,
      InputStream input,
      long compressedLength,
      long decompressedLength,
      ShuffleClientMetrics metrics,
      Reporter reporter)
      throws IOException {
    InputStream in = new IFileInputStream(input, compressedLength, conf);
    Decompressor decompressor = codec == null ? null : CodecPool.getDecompressor(codec);
    try {
      if (codec != null) {
        decompressor.reset();
        in = codec.createInputStream(in, decompressor);
      }
      load(in, decompressedLength);
      metrics.inputBytes(decompressedLength);
      reporter.progress();
      if (in.read() >= 0) {
        throw new IOException("unexpected extra bytes in the map output of " + getMapId());
      }
    } finally {
      CodecPool.returnDecompressor(decompressor);
    }
  }
}
