package dev.levee.themis.io;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * A local intermediate file (a map's {@code file.out}, or an overflow run) opened for large
 * sequential writes. Writes go through Hadoop's local file system, so the task's FILE_BYTES_WRITTEN
 * counter sees every byte, which is what {@link dev.levee.themis.IoAudit} proves the 2-IO property
 * from.
 */
public final class IntermediateFile implements AutoCloseable {
  /** What the stock collector gives file.out and its index, so the ShuffleHandler can read them. */
  public static final FsPermission SHUFFLE_OUTPUT_PERM = new FsPermission((short) 0640);

  private final Path path;
  private final FSDataOutputStream out;

  private IntermediateFile(Path path, FSDataOutputStream out) {
    this.path = path;
    this.out = out;
  }

  /**
   * Creates (or replaces) {@code path} on {@code rawLocal}; writes reach the file in blocks of
   * {@code writeBuffer} bytes.
   */
  public static IntermediateFile create(
      FileSystem rawLocal, Path path, int writeBuffer, WriteStats stats) throws IOException {
    FSDataOutputStream file = rawLocal.create(path, true, writeBuffer);
    // getPos() counts from 0, as the file does: segment offsets and the encryption header's
    // position field stay right.
    return new IntermediateFile(
        path, new FSDataOutputStream(new CoalescingOutputStream(file, writeBuffer, stats), null));
  }

  public Path path() {
    return path;
  }

  public FSDataOutputStream stream() {
    return out;
  }

  public long position() {
    return out.getPos();
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
