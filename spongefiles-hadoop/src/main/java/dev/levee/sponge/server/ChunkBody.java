package dev.levee.sponge.server;

import dev.levee.sponge.protocol.Payload;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The chunk bytes of an ALLOCATE_WRITE request, read into the allocated chunk only once the chunk
 * exists.
 */
interface ChunkBody {
  /** Bytes of the body not yet read. */
  long remaining();

  /**
   * Reads the whole remaining body into {@code dst}, which has exactly {@link #remaining()} bytes
   * of room.
   */
  void readInto(ByteBuffer dst) throws IOException;

  /** The bytes of {@code p} after the fields decoded so far: a body already in memory. */
  static ChunkBody restOf(Payload p) {
    return new ChunkBody() {
      @Override
      public long remaining() {
        return p.remaining();
      }

      @Override
      public void readInto(ByteBuffer dst) {
        dst.put(p.rest());
      }
    };
  }
}
