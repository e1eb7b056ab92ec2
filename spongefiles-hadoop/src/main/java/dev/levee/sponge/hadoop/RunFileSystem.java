package dev.levee.sponge.hadoop;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * A flat, read-only Hadoop {@link FileSystem} over runs spilled into SpongeFiles: Hadoop's {@code
 * Merger} reads on-disk segments only through a file system, so the runs are offered as one.
 * Subclasses say how a run opens and what it is; everything that would write is refused with a
 * message naming the operation and the path.
 */
abstract class RunFileSystem extends FileSystem {
  private final URI root;
  private final String what;

  /**
   * @param root the scheme-only URI the runs' paths live under
   * @param what the runs, for messages ("spilled map runs")
   */
  RunFileSystem(URI root, String what) {
    this.root = root;
    this.what = what;
  }

  @Override
  public URI getUri() {
    return root;
  }

  @Override
  public Path getWorkingDirectory() {
    return new Path(root);
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    // One flat namespace of runs: there is nothing to change to.
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    throw readOnly("list", f);
  }

  @Override
  public FSDataOutputStream create(
      Path f,
      FsPermission permission,
      boolean overwrite,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress)
      throws IOException {
    throw readOnly("create", f);
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress)
      throws IOException {
    throw readOnly("append to", f);
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    throw readOnly("rename", src);
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    throw readOnly("delete", f);
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    throw readOnly("create directory", f);
  }

  private IOException readOnly(String op, Path f) {
    return new IOException(
        "cannot " + op + " " + f + ": " + what + " are written by the sponge, read-only here");
  }
}
