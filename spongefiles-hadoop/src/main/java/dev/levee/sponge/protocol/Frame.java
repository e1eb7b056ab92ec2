package dev.levee.sponge.protocol;

import java.nio.ByteBuffer;

/**
 * One protocol frame after its length prefix: version, op or status code, request id, payload.
 *
 * <p>Wire format (big-endian): {@code int32 length | u8 version | u8 code | int64 requestId |
 * payload}, where {@code length} counts every byte after itself. Requests carry an {@link Op} code,
 * replies a {@link Status} code and echo the request id. A client may pipeline requests on a
 * connection (send the next before the previous reply); the server serves a connection's requests
 * in order, so replies come back in request order.
 */
public record Frame(byte version, byte code, long requestId, ByteBuffer payload) {
  public static final byte VERSION = 1;

  /** version + code + request id. */
  public static final int HEADER_BYTES = 1 + 1 + 8;

  /** Room for every field of the largest request besides the chunk bytes themselves. */
  public static final int MAX_METADATA_BYTES = 2048;

  /** The largest frame a peer may send when chunks are {@code chunkSize} bytes. */
  public static int maxFrameBytes(int chunkSize) {
    return HEADER_BYTES + MAX_METADATA_BYTES + chunkSize;
  }
}
