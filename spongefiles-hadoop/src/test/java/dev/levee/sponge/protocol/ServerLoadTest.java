package dev.levee.sponge.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The load tail of an ALLOCATE_WRITE reply: optional (servers before it sent none), and never able
 * to cost the client the chunk the reply grants, whatever bytes it holds.
 */
class ServerLoadTest {
  /** An OK reply's payload: chunk index, capability, then {@code tail}. */
  private static Payload reply(byte[] tail) throws MalformedFrameException {
    ByteBuffer b = ByteBuffer.allocate(4 + Capability.BYTES + tail.length);
    b.putInt(7).put(Capability.random().bytes()).put(tail).flip();
    Payload p = new Payload(b, 1);
    assertEquals(7, p.getInt("chunk index"));
    p.getBytes("capability", Capability.BYTES);
    return p;
  }

  @Test
  void theTailRoundTripsAndAReplyWithoutOneIsUnknown() throws Exception {
    ByteBuffer tail = ByteBuffer.allocate(ServerLoad.BYTES);
    new ServerLoad(3, 120).put(tail);
    assertEquals(new ServerLoad(3, 120), ServerLoad.read(reply(tail.array())));
    ServerLoad old = ServerLoad.read(reply(new byte[0]));
    assertEquals(ServerLoad.UNKNOWN, old, "an older server's reply");
    assertTrue(!old.known());
  }

  @Test
  void fuzzedTailsReadAsALoadOrUnknownNeverFail() throws Exception {
    Random r = new Random(20261127L);
    for (int i = 0; i < 2000; i++) {
      byte[] tail = new byte[r.nextInt(2 * ServerLoad.BYTES + 1)];
      r.nextBytes(tail);
      if (r.nextBoolean() && tail.length >= ServerLoad.BYTES) {
        tail[0] &= 0x7f; // make non-negative counts common too
        tail[4] &= 0x7f;
      }
      ServerLoad load = ServerLoad.read(reply(tail));
      if (tail.length < ServerLoad.BYTES) {
        assertEquals(ServerLoad.UNKNOWN, load, "a short tail");
      } else {
        ByteBuffer b = ByteBuffer.wrap(tail);
        int queued = b.getInt();
        int free = b.getInt();
        boolean valid = queued >= 0 && free >= 0;
        assertEquals(valid ? new ServerLoad(queued, free) : ServerLoad.UNKNOWN, load);
      }
    }
  }
}
