package dev.levee.mapred;

import java.io.IOException;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.Progress;

/**
 * A {@link RawKeyValueIterator} that serves every record through the same two buffers: {@link
 * #next} points {@link #key} and {@link #value} at the next record's bytes, wherever they lie (a
 * sort buffer, record pages, a merged run), so no record is copied to be handed on. {@link
 * #progress} is what the subclass makes of it; nothing to close unless the subclass holds
 * something.
 */
public abstract class BufferedRawIterator implements RawKeyValueIterator {
  protected final DataInputBuffer key = new DataInputBuffer();
  protected final DataInputBuffer value = new DataInputBuffer();
  protected final Progress progress = new Progress();

  /** No records. */
  public static BufferedRawIterator empty() {
    return new BufferedRawIterator() {
      @Override
      public boolean next() {
        return false;
      }
    };
  }

  @Override
  public DataInputBuffer getKey() throws IOException {
    return key;
  }

  @Override
  public DataInputBuffer getValue() throws IOException {
    return value;
  }

  @Override
  public Progress getProgress() {
    return progress;
  }

  @Override
  public void close() throws IOException {}
}
