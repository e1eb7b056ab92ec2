package dev.levee.bench.hadoop.sponge;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * One spill medium of the micro benchmark, used in batches: {@link #write} chunks into slots {@code
 * 0..n-1}, {@link #endWrites}, {@link #read} every slot back, then {@link #freeBatch} releases them
 * all so the next batch can reuse the space. Batching keeps the memory held at once bounded while
 * every one of the N chunks is really written and read back.
 */
interface ChunkSink extends AutoCloseable {

  /** Most chunks a batch may hold. */
  int batchCapacity();

  /** Stores {@code chunk} (position..limit) as slot {@code slot} of the current batch. */
  void write(int slot, ByteBuffer chunk) throws IOException;

  /**
   * Finishes the batch's writes (seals a file, waits for asynchronous writes); timed with the write
   * phase.
   */
  default void endWrites() throws IOException {}

  /** The bytes of slot {@code slot}, in a buffer the sink owns and may reuse on the next call. */
  ByteBuffer read(int slot) throws IOException;

  /** Releases every chunk of the batch. */
  void freeBatch() throws IOException;

  /** Frees whatever the sink still holds and deletes its files. */
  @Override
  void close() throws IOException;
}
