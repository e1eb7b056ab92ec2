package dev.levee.sponge.hadoop;

import dev.levee.sponge.SpongeFile;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;

/**
 * Reads a sealed SpongeFile for Hadoop's IFile reader, which insists on an {@code
 * FSDataInputStream} and therefore on {@link Seekable} and {@link PositionedReadable}. SpongeFiles
 * are sequential by design, and a merge only ever reads forward, so only "seeks" to the current
 * position are honoured. Closing the stream deletes the file: a run is read exactly once, and
 * freeing its chunks as soon as the merge has drained it returns sponge memory to other tasks
 * early. The merge does not wait for those frees (a round trip per chunk outside the local sponge):
 * they run in the background, and a failed one is logged and counted, never thrown into the merge.
 */
final class SpongeSegmentStream extends InputStream implements Seekable, PositionedReadable {
  private final SpongeFile file;
  private final InputStream in;
  private long position;
  private boolean closed;

  /**
   * @param bufferSize the read buffer, like the one stock's local file system puts under an IFile
   *     reader: the reader takes record lengths a byte at a time, and each unbuffered byte would
   *     cross every layer of the SpongeFile
   */
  SpongeSegmentStream(SpongeFile file, boolean prefetch, int bufferSize) throws IOException {
    this.file = file;
    this.in = new BufferedInputStream(file.input(prefetch), bufferSize);
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b >= 0) {
      position++;
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = in.read(b, off, len);
    if (n > 0) {
      position += n;
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    long skipped = in.skip(n);
    position += skipped;
    return skipped;
  }

  @Override
  public int available() throws IOException {
    return in.available();
  }

  @Override
  public void seek(long pos) throws IOException {
    if (pos != position) {
      throw new IOException(
          file + " is read sequentially: cannot seek to " + pos + " from " + position);
    }
  }

  @Override
  public long getPos() {
    return position;
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false;
  }

  @Override
  public int read(long pos, byte[] buffer, int offset, int length) throws IOException {
    throw new IOException(file + " is read sequentially: no positioned reads");
  }

  @Override
  public void readFully(long pos, byte[] buffer, int offset, int length) throws IOException {
    throw new EOFException(file + " is read sequentially: no positioned reads");
  }

  @Override
  public void readFully(long pos, byte[] buffer) throws IOException {
    readFully(pos, buffer, 0, buffer.length);
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      in.close();
    } finally {
      file.deleteInBackground();
    }
  }
}
