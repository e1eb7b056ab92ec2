package dev.levee.sponge.server;

import dev.levee.sponge.protocol.Payload;
import dev.levee.sponge.protocol.Status;
import java.nio.ByteBuffer;

/**
 * A reply before framing: status, a small head, and an optional bulk body (chunk bytes, sent
 * without a copy).
 */
record Reply(Status status, ByteBuffer head, ByteBuffer body) {
  private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

  static Reply ok(ByteBuffer head) {
    return new Reply(Status.OK, head, null);
  }

  static Reply ok(ByteBuffer head, ByteBuffer body) {
    return new Reply(Status.OK, head, body);
  }

  static Reply okEmpty() {
    return new Reply(Status.OK, EMPTY, null);
  }

  static Reply error(Status status, String message) {
    // A reply that does not fit its string field would close the connection with no reply at all.
    String m = Payload.fitString(message);
    ByteBuffer head = ByteBuffer.allocate(Payload.stringBytes(m));
    Payload.putString(head, m);
    return new Reply(status, head.flip(), null);
  }
}
