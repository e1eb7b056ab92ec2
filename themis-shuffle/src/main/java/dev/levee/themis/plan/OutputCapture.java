package dev.levee.themis.plan;

import dev.levee.themis.records.FramedRecord;
import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.io.serializer.Serializer;
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

  private final Serializer<K> keySerializer;
  private final Serializer<V> valueSerializer;
  private final DataOutputBuffer buffer = new DataOutputBuffer();
  private final UserPartitioner<K, V> partitioner;
  private final Reservoir<SampledRecord> reservoir;
  private long records;
  private long bytes;

  @SuppressWarnings("unchecked")
  OutputCapture(JobConf job, UserPartitioner<K, V> partitioner, Reservoir<SampledRecord> reservoir)
      throws IOException {
    SerializationFactory serialization = new SerializationFactory(job);
    Class<K> keyClass = (Class<K>) job.getMapOutputKeyClass();
    Class<V> valueClass = (Class<V>) job.getMapOutputValueClass();
    keySerializer = serialization.getSerializer(keyClass);
    valueSerializer = serialization.getSerializer(valueClass);
    if (keySerializer == null || valueSerializer == null) {
      throw new IOException("no serializer for " + keyClass + " or " + valueClass);
    }
    keySerializer.open(buffer);
    valueSerializer.open(buffer);
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
    buffer.reset();
    keySerializer.serialize(key);
    int keyLength = buffer.getLength();
    valueSerializer.serialize(value);
    int valueLength = buffer.getLength() - keyLength;
    int framed = FramedRecord.framedLength(keyLength, valueLength);
    records++;
    bytes += framed;
    reservoir.offer(
        new SampledRecord(
            Arrays.copyOf(buffer.getData(), keyLength),
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
