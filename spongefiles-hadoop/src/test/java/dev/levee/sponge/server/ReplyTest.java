package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.protocol.Payload;
import dev.levee.sponge.protocol.Status;
import org.junit.jupiter.api.Test;

/** Issue 13, item 9: an error reply with a long non-ASCII message is still a reply. */
class ReplyTest {
  @Test
  void aLongNonAsciiErrorStillMakesAReply() {
    // 400 characters of two-byte UTF-8: the old cut at 400 characters left 800 bytes, and framing
    // the reply threw, so the connection closed without one.
    Reply r = Reply.error(Status.BAD_REQUEST, "pool dir /dev/shm/" + "é".repeat(400));
    assertTrue(
        r.head().remaining() <= 2 + Payload.MAX_STRING_BYTES, "head " + r.head().remaining());
  }
}
