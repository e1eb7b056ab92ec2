package dev.levee.bench.hadoop.sponge;

import dev.levee.bench.progress.ProgressReporter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/**
 * Spills one buffer {@code chunks} times to a {@link ChunkSink} and reads every chunk back, in
 * batches of the sink's capacity, timing each write and each read. Every chunk is stamped with its
 * sequence number at both ends and checked on read, so a medium that loses or mixes up chunks fails
 * the run instead of reporting a speed.
 */
final class SpillRun {
  /** Checked between batches, e.g. that background load is still running. */
  interface BatchCheck {
    void check() throws IOException;
  }

  record Result(ChunkLatencies writes, ChunkLatencies reads, long bytes) {}

  private SpillRun() {}

  static Result run(
      ChunkSink sink, long chunks, int chunkSize, ProgressReporter progress, BatchCheck check)
      throws IOException {
    if (chunks < 1 || chunks > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "chunks must be in 1.." + Integer.MAX_VALUE + ", got " + chunks);
    }
    // A heap buffer, like the byte[] a Hadoop merge spills from.
    ByteBuffer src = ByteBuffer.allocate(chunkSize);
    new SplittableRandom(7).ints(chunkSize / 4).forEach(src::putInt);
    ChunkLatencies writes = new ChunkLatencies((int) chunks);
    ChunkLatencies reads = new ChunkLatencies((int) chunks);
    int batch = sink.batchCapacity();
    for (long first = 0; first < chunks; first += batch) {
      int n = (int) Math.min(batch, chunks - first);
      long batchStart = System.nanoTime();
      for (int slot = 0; slot < n; slot++) {
        stamp(src, first + slot);
        long t = System.nanoTime();
        sink.write(slot, src);
        writes.add(System.nanoTime() - t);
      }
      sink.endWrites();
      writes.addWallNanos(System.nanoTime() - batchStart);
      for (int slot = 0; slot < n; slot++) {
        long t = System.nanoTime();
        ByteBuffer got = sink.read(slot);
        long took = System.nanoTime() - t;
        reads.add(took);
        reads.addWallNanos(took);
        verify(got, first + slot, chunkSize);
      }
      sink.freeBatch();
      progress.advance(n);
      check.check();
    }
    return new Result(writes, reads, chunks * chunkSize);
  }

  static void stamp(ByteBuffer chunk, long sequence) {
    chunk.clear();
    chunk.putLong(0, sequence);
    chunk.putLong(chunk.capacity() - 8, ~sequence);
  }

  static void verify(ByteBuffer got, long sequence, int chunkSize) throws IOException {
    if (got.remaining() != chunkSize) {
      throw new IOException(
          "chunk "
              + sequence
              + " came back with "
              + got.remaining()
              + " bytes, expected "
              + chunkSize);
    }
    long head = got.getLong(got.position());
    long tail = got.getLong(got.position() + chunkSize - 8);
    if (head != sequence || tail != ~sequence) {
      throw new IOException(
          "chunk " + sequence + " came back holding chunk " + head + " (tail " + ~tail + ")");
    }
  }
}
