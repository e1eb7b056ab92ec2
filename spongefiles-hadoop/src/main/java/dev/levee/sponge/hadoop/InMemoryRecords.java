package dev.levee.sponge.hadoop;

import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.Progress;

/**
 * A {@link RawKeyValueIterator} over records already in memory: {@link #next} points {@link #key}
 * and {@link #value} at the next record's bytes; nothing to close, no progress of its own.
 */
abstract class InMemoryRecords implements RawKeyValueIterator {
  protected final DataInputBuffer key = new DataInputBuffer();
  protected final DataInputBuffer value = new DataInputBuffer();

  /** No records. */
  static InMemoryRecords empty() {
    return new InMemoryRecords() {
      @Override
      public boolean next() {
        return false;
      }
    };
  }

  @Override
  public DataInputBuffer getKey() {
    return key;
  }

  @Override
  public DataInputBuffer getValue() {
    return value;
  }

  @Override
  public void close() {}

  @Override
  public Progress getProgress() {
    return null;
  }
}
