package dev.levee.themis.plan;

import dev.levee.themis.records.FramedRecord;
import dev.levee.themis.records.RecordSerializer;
import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Partitioner;

/**
 * Where the sampled mapper's output goes: each record is serialized as the map would serialize it,
 * measured, partitioned by the job's own partitioner, and offered to the reservoir.
 */
final class OutputCapture<K, V> {
  /** The job's partitioner, in either API. */
  interface UserPartitioner<K, V> {
    int partition(K key, V value);
  }

  private final RecordSerializer<K, V> serializer;
  private final UserPartitioner<K, V> partitioner;
  private final Reservoir<SampledRecord> reservoir;
  private long records;
  private long bytes;

  OutputCapture(JobConf job, UserPartitioner<K, V> partitioner, Reservoir<SampledRecord> reservoir)
      throws IOException {
    serializer = RecordSerializer.forMapOutput(job);
    this.partitioner = partitioner;
    this.reservoir = reservoir;
  }

  static <K, V> UserPartitioner<K, V> of(Partitioner<K, V> p, int reducers) {
    return (k, v) -> reducers <= 1 ? 0 : p.getPartition(k, v, reducers);
  }

  static <K, V> UserPartitioner<K, V> of(
      org.apache.hadoop.mapred.Partitioner<K, V> p, int reducers) {
    return (k, v) -> reducers <= 1 ? 0 : p.getPartition(k, v, reducers);
  }

  void write(K key, V value) throws IOException {
    serializer.serialize(key, value);
    int keyLength = serializer.keyLength();
    int valueLength = serializer.valueLength();
    int framed = FramedRecord.framedLength(keyLength, valueLength);
    records++;
    bytes += framed;
    reservoir.offer(
        new SampledRecord(
            Arrays.copyOf(serializer.data(), keyLength),
            framed,
            key.hashCode(),
            partitioner.partition(key, value)));
  }

  long records() {
    return records;
  }

  long bytes() {
    return bytes;
  }
}
