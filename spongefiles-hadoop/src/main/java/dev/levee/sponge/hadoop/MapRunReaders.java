package dev.levee.sponge.hadoop;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;

/**
 * A map's spilled runs, seen by Hadoop's {@code Merger} as files of a read-only file system, so
 * that each partition's segment is an ordinary on-disk segment to it (read through a stream into
 * the merger's own buffers; see {@link SpilledRunFiles} for why a reader-only segment would not
 * do).
 *
 * <p>A run holds every partition, one after the other, and a SpongeFile is read once, forward. The
 * merge into file.out takes partitions in order and drains each segment before it closes it, so
 * each run needs one sequential reader for the whole merge: opening a run's path again gives a new
 * window on that same reader, which seeks forward by skipping and leaves the reader open when it
 * closes. {@link #close()} frees every run.
 */
final class MapRunReaders extends RunFileSystem {
  private static final URI ROOT = URI.create("levee-sponge-map-run:///");

  private final int bufferSize;
  private final Map<Path, SharedReader> runs = new LinkedHashMap<>();

  /**
   * @param bufferSize the read buffer over each run ({@code io.file.buffer.size}): IFile reads
   *     record lengths a byte at a time
   */
  MapRunReaders(Configuration conf, int bufferSize) {
    super(ROOT, "spilled map runs");
    setConf(conf);
    this.bufferSize = bufferSize;
  }

  /** Registers {@code run} and returns the path the merger's segments open. */
  Path add(MapRun run, boolean prefetch) {
    Path path = new Path(ROOT.toString() + "run-" + runs.size());
    runs.put(path, new SharedReader(run, prefetch));
    return path;
  }

  @Override
  public FSDataInputStream open(Path f, int ignoredBufferSize) throws IOException {
    return new FSDataInputStream(new Window(reader(f)));
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    return new FileStatus(reader(f).run.length(), false, 1, bufferSize, 0, f);
  }

  private SharedReader reader(Path f) throws FileNotFoundException {
    SharedReader r = runs.get(f);
    if (r == null) {
      throw new FileNotFoundException(f + ": no such spilled map run");
    }
    return r;
  }

  /** Closes every run's reader and deletes its SpongeFile; keeps going past a failure. */
  @Override
  public void close() throws IOException {
    IOException first = null;
    for (SharedReader r : runs.values()) {
      try {
        r.close();
      } catch (IOException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    runs.clear();
    if (first != null) {
      throw first;
    }
  }

  /** The one forward reader of a run, opened on first use. */
  private final class SharedReader {
    private final MapRun run;
    private final boolean prefetch;
    private InputStream in;
    private long position;

    SharedReader(MapRun run, boolean prefetch) {
      this.run = run;
      this.prefetch = prefetch;
    }

    InputStream stream() throws IOException {
      if (in == null) {
        in = new BufferedInputStream(run.file().input(prefetch), bufferSize);
      }
      return in;
    }

    void skipTo(long target) throws IOException {
      if (target < position) {
        throw new IOException(
            run.file()
                + " is read forward once: cannot go back to byte "
                + target
                + " from "
                + position
                + " (segments must be read in partition order)");
      }
      InputStream s = stream();
      while (position < target) {
        long n = s.skip(target - position);
        if (n <= 0) {
          if (s.read() < 0) {
            throw new EOFException(
                run.file() + " ends at byte " + position + ", before segment offset " + target);
          }
          n = 1;
        }
        position += n;
      }
    }

    void close() throws IOException {
      try {
        if (in != null) {
          in.close();
        }
      } finally {
        run.file().delete();
      }
    }
  }

  /** One segment's view of a run: reads move the shared reader, close leaves it open. */
  private static final class Window extends InputStream implements Seekable, PositionedReadable {
    private final SharedReader reader;
    private boolean closed;

    Window(SharedReader reader) {
      this.reader = reader;
    }

    @Override
    public int read() throws IOException {
      ensureOpen();
      int b = reader.stream().read();
      if (b >= 0) {
        reader.position++;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      ensureOpen();
      int n = reader.stream().read(b, off, len);
      if (n > 0) {
        reader.position += n;
      }
      return n;
    }

    @Override
    public void seek(long pos) throws IOException {
      ensureOpen();
      reader.skipTo(pos);
    }

    @Override
    public long getPos() {
      return reader.position;
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
      return false;
    }

    @Override
    public int read(long pos, byte[] buffer, int offset, int length) throws IOException {
      throw new IOException(reader.run.file() + " is read sequentially: no positioned reads");
    }

    @Override
    public void readFully(long pos, byte[] buffer, int offset, int length) throws IOException {
      throw new IOException(reader.run.file() + " is read sequentially: no positioned reads");
    }

    @Override
    public void readFully(long pos, byte[] buffer) throws IOException {
      readFully(pos, buffer, 0, buffer.length);
    }

    @Override
    public void close() {
      closed = true;
    }

    private void ensureOpen() throws IOException {
      if (closed) {
        throw new IOException(reader.run.file() + ": this segment's stream is closed");
      }
    }
  }
}
