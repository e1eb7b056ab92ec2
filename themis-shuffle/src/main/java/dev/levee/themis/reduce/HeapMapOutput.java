package dev.levee.themis.reduce;

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
 * One map's segment of this reducer's partition, fetched by Hadoop's own fetcher (HTTP from the
 * ShuffleHandler, or the local fetcher) into the reducer's heap: checksum verified, decompressed,
 * kept as framed records. It is never written to local disk; {@link ThemisMergeManager} sorts it
 * with the rest of the partition once everything is in.
 */
final class HeapMapOutput<K, V> extends MapOutput<K, V> {
  private final Configuration conf;
  private final CompressionCodec codec;
  private final ThemisMergeManager<K, V> manager;
  private final long charge;
  private final SegmentLoader loader;

  HeapMapOutput(
      TaskAttemptID mapId,
      long size,
      long charge,
      Configuration conf,
      CompressionCodec codec,
      ThemisMergeManager<K, V> manager,
      SegmentLoader loader) {
    super(mapId, size, true);
    this.conf = conf;
    this.codec = codec;
    this.manager = manager;
    this.charge = charge;
    this.loader = loader;
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
    InputStream in = new IFileInputStream(input, compressedLength, conf);
    Decompressor decompressor = null;
    try {
      if (codec != null) {
        decompressor = CodecPool.getDecompressor(codec);
        decompressor.reset();
        in = codec.createInputStream(in, decompressor);
      }
      loader.load(in, decompressedLength, "map output of " + getMapId());
      metrics.inputBytes(decompressedLength);
      reporter.progress();
      // Reading past the end makes the decompressor drain and the checksum stream verify its CRC.
      if (in.read() >= 0) {
        throw new IOException("unexpected extra bytes in the map output of " + getMapId());
      }
    } finally {
      if (decompressor != null) {
        CodecPool.returnDecompressor(decompressor);
      }
    }
  }

  @Override
  public void commit() throws IOException {
    manager.commit(this);
  }

  @Override
  public void abort() {
    manager.abort(this);
  }

  @Override
  public String getDescription() {
    return "THEMIS-MEMORY";
  }

  long charge() {
    return charge;
  }

  SegmentLoader loader() {
    return loader;
  }
}
