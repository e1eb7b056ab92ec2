package dev.levee.themis.records;

import java.io.Closeable;
import java.io.IOException;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.RawKeyValueIterator;

/**
 * A sorted stream of records, one at a time: an in-memory range of pointers or an IFile run on
 * disk. The current key and value stay valid until the next call to {@link #next()}.
 */
public interface RecordCursor extends Closeable {
  boolean next() throws IOException;

  DataInputBuffer key();

  DataInputBuffer value();

  static RecordCursor of(RawKeyValueIterator iterator) {
    return new RecordCursor() {
      @Override
      public boolean next() throws IOException {
        return iterator.next();
      }

      @Override
      public DataInputBuffer key() {
        try {
          return iterator.getKey();
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }

      @Override
      public DataInputBuffer value() {
        try {
          return iterator.getValue();
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }

      @Override
      public void close() throws IOException {
        iterator.close();
      }
    };
  }

  static RecordCursor of(IFile.Reader<?, ?> reader) {
    return new RecordCursor() {
      private final DataInputBuffer key = new DataInputBuffer();
      private final DataInputBuffer value = new DataInputBuffer();

      @Override
      public boolean next() throws IOException {
        if (!reader.nextRawKey(key)) {
          return false;
        }
        reader.nextRawValue(value);
        return true;
      }

      @Override
      public DataInputBuffer key() {
        return key;
      }

      @Override
      public DataInputBuffer value() {
        return value;
      }

      @Override
      public void close() throws IOException {
        reader.close();
      }
    };
  }
}
