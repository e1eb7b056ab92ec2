package dev.levee.sponge.hadoop;

import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IOUtils;
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
 * A map output held on the reducer's heap, decompressed (as stock does, so in-memory merges need no
 * codec), in memory reserved from the {@link SpongeMergeManager}'s budget.
 */
final class InMemoryShuffledOutput<K, V> extends MapOutput<K, V> {
  private final Configuration conf;
  private final SpongeMergeManager<K, V> manager;
  private final CompressionCodec codec;
  private final byte[] memory;

  InMemoryShuffledOutput(
      Configuration conf,
      TaskAttemptID mapId,
      SpongeMergeManager<K, V> manager,
      int size,
      CompressionCodec codec,
      boolean primaryMapOutput) {
    super(mapId, size, primaryMapOutput);
    this.conf = conf;
    this.manager = manager;
    this.codec = codec;
    this.memory = new byte[size];
  }

  byte[] memory() {
    return memory;
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
    Decompressor decompressor = codec == null ? null : CodecPool.getDecompressor(codec);
    try {
      if (codec != null) {
        decompressor.reset();
        in = codec.createInputStream(in, decompressor);
      }
      IOUtils.readFully(in, memory, 0, memory.length);
      metrics.inputBytes(memory.length);
      reporter.progress();
      // Draining the stream makes the checksum stream verify its trailer and catches a map output
      // longer than said.
      if (in.read() >= 0) {
        throw new IOException("unexpected extra bytes in the map output of " + getMapId());
      }
    } finally {
      CodecPool.returnDecompressor(decompressor);
    }
  }

  @Override
  public void commit() {
    manager.closeInMemory(this);
  }

  @Override
  public void abort() {
    manager.unreserve(memory.length);
  }

  @Override
  public String getDescription() {
    return "MEMORY";
  }
}
