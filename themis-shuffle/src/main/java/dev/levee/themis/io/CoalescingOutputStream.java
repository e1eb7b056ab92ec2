package dev.levee.themis.io;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Gathers small writes into one buffer and hands the file system only full buffers: the Coalescer
 * and Writer stages of the paper's phase one, which write each chain in one large sequential write.
 * Every write that reaches the file is recorded in {@link WriteStats}.
 */
public final class CoalescingOutputStream extends OutputStream {
  private final OutputStream out;
  private final byte[] buffer;
  private final WriteStats stats;
  private int count;

  public CoalescingOutputStream(OutputStream out, int bufferSize, WriteStats stats) {
    this.out = out;
    this.buffer = new byte[bufferSize];
    this.stats = stats;
  }

  @Override
  public void write(int b) throws IOException {
    if (count == buffer.length) {
      drain();
    }
    buffer[count++] = (byte) b;
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    while (len > 0) {
      if (count == 0 && len >= buffer.length) {
        // Already large: no copy.
        out.write(b, off, len);
        stats.record(len);
        return;
      }
      int n = Math.min(len, buffer.length - count);
      System.arraycopy(b, off, buffer, count, n);
      count += n;
      off += n;
      len -= n;
      if (count == buffer.length) {
        drain();
      }
    }
  }

  /**
   * Does nothing: IFile's checksum stream and the encryption stream flush at the end of every
   * partition segment, and passing that on would turn thousands of small partitions into thousands
   * of small writes. The file is complete when it is closed, which is when Hadoop reads it.
   */
  @Override
  public void flush() {}

  @Override
  public void close() throws IOException {
    try {
      drain();
    } finally {
      out.close();
    }
  }

  private void drain() throws IOException {
    if (count > 0) {
      out.write(buffer, 0, count);
      stats.record(count);
      count = 0;
    }
  }
}
