package dev.levee.piranha.exchange;

import java.io.Closeable;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.WritableUtils;

/**
 * Steps through the records of a run (see {@link Records}), exposing each one's key and value
 * bytes; the bytes stay valid until the next {@link #next()}. A run that ends inside a record, or
 * holds a negative length, is corrupt and fails with a message that says so.
 */
public abstract class RecordCursor implements Closeable {
  protected byte[] keyBytes;
  protected int keyOffset;
  protected int keyLength;
  protected byte[] valueBytes;
  protected int valueOffset;
  protected int valueLength;
  protected long records;

  public static RecordCursor over(byte[] data, int offset, int length) {
    return new ArrayCursor(data, offset, length);
  }

  public static RecordCursor over(InputStream in, long bytes) {
    return new StreamCursor(in, bytes);
  }

  /** Moves to the next record; false at the end of the run. */
  public abstract boolean next() throws IOException;

  public boolean nullKey() {
    return keyLength == Records.NULL_KEY;
  }

  public byte[] keyBytes() {
    return keyBytes;
  }

  public int keyOffset() {
    return keyOffset;
  }

  public int keyLength() {
    return keyLength;
  }

  public byte[] valueBytes() {
    return valueBytes;
  }

  public int valueOffset() {
    return valueOffset;
  }

  public int valueLength() {
    return valueLength;
  }

  /** Records passed so far. */
  public long records() {
    return records;
  }

  public void key(DataInputBuffer into) {
    into.reset(keyBytes, keyOffset, Math.max(keyLength, 0));
  }

  public void value(DataInputBuffer into) {
    into.reset(valueBytes, valueOffset, valueLength);
  }

  @Override
  public void close() throws IOException {}

  private static final class ArrayCursor extends RecordCursor {
    private final byte[] data;
    private final int end;
    private final DataInputBuffer in = new DataInputBuffer();

    ArrayCursor(byte[] data, int offset, int length) {
      this.data = data;
      this.end = offset + length;
      in.reset(data, offset, length);
      keyBytes = data;
      valueBytes = data;
    }

    @Override
    public boolean next() throws IOException {
      if (in.getPosition() >= end) {
        return false;
      }
      try {
        int kl = WritableUtils.readVInt(in);
        int vl = WritableUtils.readVInt(in);
        int pos = in.getPosition();
        if (kl < Records.NULL_KEY || vl < 0 || (long) pos + Math.max(kl, 0) + vl > end) {
          throw new IOException(
              "corrupt run: record "
                  + records
                  + " has key length "
                  + kl
                  + " and value length "
                  + vl
                  + " with "
                  + (end - pos)
                  + " bytes left");
        }
        keyOffset = pos;
        keyLength = kl;
        valueOffset = pos + Math.max(kl, 0);
        valueLength = vl;
        in.skip(Math.max(kl, 0) + vl);
        records++;
        return true;
      } catch (EOFException e) {
        throw new IOException("corrupt run: record " + records + " is cut short", e);
      }
    }
  }

  private static final class StreamCursor extends RecordCursor {
    private final DataInputStream in;
    private final long bytes;
    private long position;

    StreamCursor(InputStream in, long bytes) {
      this.in = new DataInputStream(in);
      this.bytes = bytes;
      keyBytes = new byte[64];
      valueBytes = new byte[256];
    }

    @Override
    public boolean next() throws IOException {
      if (position >= bytes) {
        return false;
      }
      try {
        int kl = WritableUtils.readVInt(in);
        int vl = WritableUtils.readVInt(in);
        position += WritableUtils.getVIntSize(kl) + WritableUtils.getVIntSize(vl);
        if (kl < Records.NULL_KEY || vl < 0 || position + Math.max(kl, 0) + vl > bytes) {
          throw new IOException(
              "corrupt run file: record "
                  + records
                  + " has key length "
                  + kl
                  + " and value length "
                  + vl
                  + " with "
                  + (bytes - position)
                  + " bytes left");
        }
        if (kl > 0) {
          if (keyBytes.length < kl) {
            keyBytes = new byte[Math.max(kl, keyBytes.length * 2)];
          }
          in.readFully(keyBytes, 0, kl);
        }
        if (valueBytes.length < vl) {
          valueBytes = new byte[Math.max(vl, valueBytes.length * 2)];
        }
        in.readFully(valueBytes, 0, vl);
        position += Math.max(kl, 0) + vl;
        keyOffset = 0;
        keyLength = kl;
        valueOffset = 0;
        valueLength = vl;
        records++;
        return true;
      } catch (EOFException e) {
        throw new IOException("corrupt run file: record " + records + " is cut short", e);
      }
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
