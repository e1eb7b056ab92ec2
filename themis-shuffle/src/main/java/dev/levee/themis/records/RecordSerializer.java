package dev.levee.themis.records;

import java.io.IOException;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.io.serializer.Serializer;
import org.apache.hadoop.mapred.JobConf;

/**
 * Serializes a job's map output records with the job's own serializations ({@code
 * io.serializations}), one at a time into a reused buffer: the key's bytes first, then the value's.
 */
public final class RecordSerializer<K, V> {
  private final DataOutputBuffer buffer = new DataOutputBuffer();
  private final Serializer<K> keys;
  private final Serializer<V> values;
  private int keyLength;

  private RecordSerializer(Serializer<K> keys, Serializer<V> values) throws IOException {
    this.keys = keys;
    this.values = values;
    keys.open(buffer);
    values.open(buffer);
  }

  /** For the job's map output key and value classes; fails naming the class without one. */
  @SuppressWarnings("unchecked")
  public static <K, V> RecordSerializer<K, V> forMapOutput(JobConf job) throws IOException {
    Class<K> keyClass = (Class<K>) job.getMapOutputKeyClass();
    Class<V> valueClass = (Class<V>) job.getMapOutputValueClass();
    SerializationFactory serialization = new SerializationFactory(job);
    Serializer<K> keys = serialization.getSerializer(keyClass);
    Serializer<V> values = serialization.getSerializer(valueClass);
    if (keys == null || values == null) {
      throw new IOException(
          "no serializer (io.serializations) for the map output "
              + (keys == null ? "key " + keyClass.getName() : "value " + valueClass.getName()));
    }
    return new RecordSerializer<>(keys, values);
  }

  /** Replaces the buffer's content with {@code key} and {@code value}. */
  public void serialize(K key, V value) throws IOException {
    buffer.reset();
    keys.serialize(key);
    keyLength = buffer.getLength();
    values.serialize(value);
  }

  /** The last record: its key in the first {@link #keyLength()} bytes, then its value. */
  public DataOutputBuffer buffer() {
    return buffer;
  }

  public byte[] data() {
    return buffer.getData();
  }

  public int keyLength() {
    return keyLength;
  }

  public int valueLength() {
    return buffer.getLength() - keyLength;
  }
}
