package dev.levee.themis.plan;

import java.io.IOException;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * The first {@code prefix} bytes of a split, as far as its reader's progress tells: the mapper sees
 * the split's beginning and then its end.
 */
final class PrefixReader<K, V> extends RecordReader<K, V> {
  private final RecordReader<K, V> reader;
  private final long length;
  private long prefix;
  private float progress;

  PrefixReader(RecordReader<K, V> reader, long length, long prefix) {
    this.reader = reader;
    this.length = length;
    this.prefix = prefix;
  }

  @Override
  public void initialize(InputSplit split, TaskAttemptContext context) {}

  @Override
  public boolean nextKeyValue() throws IOException, InterruptedException {
    if (bytesRead() >= prefix) {
      return false;
    }
    boolean more = reader.nextKeyValue();
    progress = more ? reader.getProgress() : 1f;
    return more;
  }

  @Override
  public K getCurrentKey() throws IOException, InterruptedException {
    return reader.getCurrentKey();
  }

  @Override
  public V getCurrentValue() throws IOException, InterruptedException {
    return reader.getCurrentValue();
  }

  @Override
  public float getProgress() {
    return progress;
  }

  @Override
  public void close() {}

  /** Input bytes consumed so far, from the reader's progress. */
  long bytesRead() {
    return (long) Math.min(length, Math.ceil(progress * (double) length));
  }

  /** Ends the prefix where the reader is now. */
  void stop() {
    prefix = 0;
  }

  /** The same for the old API. */
  static final class Old<K, V> implements org.apache.hadoop.mapred.RecordReader<K, V> {
    private final org.apache.hadoop.mapred.RecordReader<K, V> reader;
    private final long length;
    private long prefix;
    private float progress;

    Old(org.apache.hadoop.mapred.RecordReader<K, V> reader, long length, long prefix) {
      this.reader = reader;
      this.length = length;
      this.prefix = prefix;
    }

    @Override
    public boolean next(K key, V value) throws IOException {
      if (bytesRead() >= prefix) {
        return false;
      }
      boolean more = reader.next(key, value);
      progress = more ? reader.getProgress() : 1f;
      return more;
    }

    @Override
    public K createKey() {
      return reader.createKey();
    }

    @Override
    public V createValue() {
      return reader.createValue();
    }

    @Override
    public long getPos() throws IOException {
      return reader.getPos();
    }

    @Override
    public void close() {}

    @Override
    public float getProgress() {
      return progress;
    }

    long bytesRead() {
      return (long) Math.min(length, Math.ceil(progress * (double) length));
    }

    void stop() {
      prefix = 0;
    }
  }
}
