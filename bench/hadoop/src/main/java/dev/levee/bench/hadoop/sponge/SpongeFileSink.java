package dev.levee.bench.hadoop.sponge;

import dev.levee.sponge.SpongeFile;
import dev.levee.sponge.SpongeFileSystem;
import dev.levee.sponge.Tier;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * Chunks through the SpongeFile API with a single tier enabled, one SpongeFile per batch: with the
 * local-memory tier, what the reduce-side merge pays per chunk on top of the raw pool (buffering,
 * placement, metrics); with the remote-memory tier, what a spilling task sees when its chunks go to
 * another node: the task copies each chunk into a staging buffer and moves on while earlier chunks
 * are on the wire (pipelined, up to the file's in-flight limit), so a write's time is what the task
 * waits, not a chunk's round trip. Sealing the file waits for the last replies and is timed with
 * the write phase.
 */
final class SpongeFileSink implements ChunkSink {
  private final SpongeFileSystem fs;
  private final Tier tier;
  private final int batch;
  private final byte[] readBytes;
  private SpongeFile file;
  private OutputStream out;
  private InputStream in;
  private int nextReadSlot;
  private long batches;

  /**
   * @param tier the one tier {@code fs} has enabled: every byte must land there, or the run fails
   */
  SpongeFileSink(SpongeFileSystem fs, Tier tier, int batch) {
    this.fs = fs;
    this.tier = tier;
    this.batch = batch;
    this.readBytes = new byte[fs.config().chunkSize()];
  }

  @Override
  public int batchCapacity() {
    return batch;
  }

  @Override
  public void write(int slot, ByteBuffer chunk) throws IOException {
    if (file == null) {
      file = fs.create("sponge-micro/batch-" + batches++);
      out = file.output();
    }
    out.write(chunk.array(), chunk.arrayOffset() + chunk.position(), chunk.remaining());
    chunk.position(chunk.limit());
  }

  @Override
  public void endWrites() throws IOException {
    out.close();
    long elsewhere = file.length() - file.bytesByTier().getOrDefault(tier, 0L);
    if (elsewhere != 0) {
      throw new IOException(
          file.name()
              + " placed "
              + elsewhere
              + " bytes outside "
              + tier
              + ": "
              + file.bytesByTier());
    }
    in = file.input();
    nextReadSlot = 0;
  }

  @Override
  public ByteBuffer read(int slot) throws IOException {
    if (slot != nextReadSlot++) {
      throw new IllegalStateException(
          "a SpongeFile reads sequentially: expected slot "
              + (nextReadSlot - 1)
              + ", asked for "
              + slot);
    }
    int n = in.readNBytes(readBytes, 0, readBytes.length);
    if (n != readBytes.length) {
      throw new IOException(file.name() + " ended after " + n + " bytes of chunk " + slot);
    }
    return ByteBuffer.wrap(readBytes);
  }

  @Override
  public void freeBatch() throws IOException {
    if (file != null) {
      SpongeFile f = file;
      file = null;
      if (in != null) {
        in.close();
        in = null;
      }
      f.delete();
    }
  }

  @Override
  public void close() throws IOException {
    try {
      freeBatch();
    } finally {
      fs.close();
    }
  }
}
