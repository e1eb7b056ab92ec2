package dev.levee.piranha.exchange;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataOutputBuffer;

/** Accumulates records in the run layout ({@link Records}) until {@link #build}. */
public final class RunBuilder {
  private final DataOutputBuffer data = new DataOutputBuffer();
  private final DataOutputBuffer scratch = new DataOutputBuffer();
  private RecordSerializer serializer;
  private long records;

  /** A builder that takes already serialized records only. */
  public RunBuilder() {}

  /** A builder that also serializes objects with the job's serializations. */
  public RunBuilder(Configuration conf, Class<?> keyClass, Class<?> valueClass) throws IOException {
    this.serializer = new RecordSerializer(conf, keyClass, valueClass, scratch);
  }

  public void addRaw(byte[] key, int keyOff, int keyLen, byte[] value, int valueOff, int valueLen)
      throws IOException {
    Records.write(data, key, keyOff, keyLen, value, valueOff, valueLen);
    records++;
  }

  public void add(Object key, Object value) throws IOException {
    scratch.reset();
    serializer.serialize(key, value);
    addRaw(
        key == null ? null : scratch.getData(),
        serializer.keyStart,
        serializer.keyLength,
        scratch.getData(),
        serializer.valueStart,
        serializer.valueLength);
  }

  public long records() {
    return records;
  }

  public int bytes() {
    return data.getLength();
  }

  /** The run so far; the builder starts empty again. */
  public Run build(boolean sorted) {
    byte[] copy = java.util.Arrays.copyOf(data.getData(), data.getLength());
    Run run = Run.inMemory(copy, copy.length, records, sorted);
    data.reset();
    records = 0;
    return run;
  }
}
