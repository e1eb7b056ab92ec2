package dev.levee.mapred;

import java.io.IOException;

/**
 * What Hadoop's own collector (MapTask.MapOutputBuffer.collect) checks of each map output record,
 * and a collector that replaces it owes its users too: the key and value of the job's declared
 * classes exactly (a subclass would be written under the wrong serializer) and a partition the
 * partitioner may return.
 */
public final class MapOutputChecks {
  private MapOutputChecks() {}

  public static void check(
      Object key,
      Class<?> keyClass,
      Object value,
      Class<?> valueClass,
      int partition,
      int partitions)
      throws IOException {
    if (key.getClass() != keyClass) {
      throw new IOException(
          "Type mismatch in key from map: expected "
              + keyClass.getName()
              + ", received "
              + key.getClass().getName());
    }
    if (value.getClass() != valueClass) {
      throw new IOException(
          "Type mismatch in value from map: expected "
              + valueClass.getName()
              + ", received "
              + value.getClass().getName());
    }
    if (partition < 0 || partition >= partitions) {
      throw new IOException("Illegal partition for " + key + " (" + partition + ")");
    }
  }
}
