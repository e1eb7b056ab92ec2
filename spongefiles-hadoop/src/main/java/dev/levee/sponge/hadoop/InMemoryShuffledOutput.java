package dev.levee.sponge.hadoop;

import dev.levee.mapred.DecompressedMapOutput;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapreduce.TaskAttemptID;

/**
 * A map output held on the reducer's heap, decompressed (as stock does, so in-memory merges need no
 * codec), in memory reserved from the {@link SpongeMergeManager}'s budget.
 */
final class InMemoryShuffledOutput<K, V> extends DecompressedMapOutput<K, V> {
  private final SpongeMergeManager<K, V> manager;
  private final byte[] memory;

  InMemoryShuffledOutput(
      Configuration conf,
      TaskAttemptID mapId,
      SpongeMergeManager<K, V> manager,
      int size,
      CompressionCodec codec,
      boolean primaryMapOutput) {
    super(mapId, size, primaryMapOutput, conf, codec);
    this.manager = manager;
    this.memory = new byte[size];
  }

  byte[] memory() {
    return memory;
  }

  @Override
  protected void load(InputStream in, long decompressedLength) throws IOException {
    IOUtils.readFully(in, memory, 0, memory.length);
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
