package dev.levee.sponge.tier;

import dev.levee.sponge.Tier;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A file's last-resort chunks, appended to one file on a Hadoop FileSystem. The output stream stays
 * open while the SpongeFile is written (HDFS files are write-once) and is closed by {@link
 * #finishWrites()}; reads are positional.
 */
public final class DfsTier implements ChunkTier {
  private final FileSystem fs;
  private final Path file;
  private FSDataOutputStream out;
  private FSDataInputStream in;
  private byte[] staging;
  private int chunks;
  private boolean created;

  public DfsTier(FileSystem fs, Path file) {
    this.fs = fs;
    this.file = file;
  }

  @Override
  public Tier tier() {
    return Tier.DFS;
  }

  public Path file() {
    return file;
  }

  @Override
  public synchronized Optional<StoredChunk> store(ByteBuffer data) throws IOException {
    if (out == null) {
      out = fs.create(file, false);
      created = true;
    }
    int length = data.remaining();
    long offset = out.getPos();
    out.write(stage(data.duplicate(), length), 0, length);
    chunks++;
    return Optional.of(new StoredChunk.Dfs(file, offset, length));
  }

  @Override
  public synchronized void finishWrites() throws IOException {
    if (out != null) {
      out.close();
      out = null;
    }
  }

  @Override
  public synchronized void read(StoredChunk chunk, ByteBuffer dst) throws IOException {
    StoredChunk.Dfs c = (StoredChunk.Dfs) chunk;
    if (in == null) {
      in = fs.open(file);
    }
    byte[] b = stagingFor(c.length());
    in.readFully(c.offset(), b, 0, c.length());
    dst.put(b, 0, c.length());
  }

  @Override
  public synchronized int releaseAll() throws IOException {
    int freed = chunks;
    chunks = 0;
    staging = null;
    IOException first = null;
    for (java.io.Closeable c : new java.io.Closeable[] {out, in}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    out = null;
    in = null;
    if (created) {
      // Only files that touched the DFS cost it a call: deleting a memory-only SpongeFile must not
      // reach the NameNode.
      fs.delete(file, false);
      created = false;
    }
    if (first != null) {
      throw first;
    }
    return freed;
  }

  private byte[] stage(ByteBuffer src, int length) {
    if (src.hasArray()) {
      // Heap buffer: write from its array directly, no copy.
      if (src.arrayOffset() + src.position() == 0) {
        return src.array();
      }
    }
    byte[] b = stagingFor(length);
    src.get(b, 0, length);
    return b;
  }

  private byte[] stagingFor(int length) {
    if (staging == null || staging.length < length) {
      staging = new byte[length];
    }
    return staging;
  }
}
