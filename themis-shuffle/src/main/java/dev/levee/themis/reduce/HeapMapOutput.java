package dev.levee.themis.reduce;

import dev.levee.mapred.DecompressedMapOutput;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapreduce.TaskAttemptID;

/**
 * One map's segment of this reducer's partition, fetched by Hadoop's own fetcher (HTTP from the
 * ShuffleHandler, or the local fetcher) into the reducer's heap: checksum verified, decompressed,
 * kept as framed records. It is never written to local disk; {@link ThemisMergeManager} sorts it
 * with the rest of the partition once everything is in.
 */
final class HeapMapOutput<K, V> extends DecompressedMapOutput<K, V> {
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
    super(mapId, size, true, conf, codec);
    this.manager = manager;
    this.charge = charge;
    this.loader = loader;
  }

  @Override
  protected void load(InputStream in, long decompressedLength) throws IOException {
    loader.load(in, decompressedLength, "map output of " + getMapId());
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
