package dev.levee.piranha.exchange;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.io.serializer.Serializer;

/**
 * Serializes keys and values with the job's own serializations ({@code io.serializations}:
 * Writable, Avro, or the user's) into one buffer, recording where each part landed. A null key is
 * allowed here and encoded as such; sorted edges refuse it later.
 */
final class RecordSerializer {
  private final DataOutputBuffer target;
  private final Serializer<Object> keys;
  private final Serializer<Object> values;
  int keyStart;
  int keyLength;
  int valueStart;
  int valueLength;

  @SuppressWarnings("unchecked")
  RecordSerializer(
      Configuration conf, Class<?> keyClass, Class<?> valueClass, DataOutputBuffer target)
      throws IOException {
    SerializationFactory factory = new SerializationFactory(conf);
    this.target = target;
    this.keys = (Serializer<Object>) factory.getSerializer(keyClass);
    this.values = (Serializer<Object>) factory.getSerializer(valueClass);
    if (keys == null || values == null) {
      throw new IOException(
          "no serialization in io.serializations for "
              + (keys == null ? keyClass.getName() : valueClass.getName()));
    }
    keys.open(target);
    values.open(target);
  }

  void serialize(Object key, Object value) throws IOException {
    keyStart = target.getLength();
    if (key == null) {
      keyLength = Records.NULL_KEY;
    } else {
      keys.serialize(key);
      keyLength = target.getLength() - keyStart;
    }
    valueStart = target.getLength();
    values.serialize(value);
    valueLength = target.getLength() - valueStart;
  }
}
