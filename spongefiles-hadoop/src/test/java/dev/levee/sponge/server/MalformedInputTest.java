package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.client.RemoteChunk;
import dev.levee.sponge.client.RemoteReplyException;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.protocol.Frame;
import dev.levee.sponge.protocol.FrameCodec;
import dev.levee.sponge.protocol.Op;
import dev.levee.sponge.protocol.Payload;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.protocol.Status;
import dev.levee.sponge.testing.TempDirs;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hostile and broken input on raw sockets. Each case checks the reply (or the close), then that a
 * well-behaved client is still served and that no chunk leaked.
 */
@Timeout(60)
class MalformedInputTest {
  private static final int CHUNKS = 8;
  private Path dir;
  private SpongeService node;
  private SpongeServerAddress server;
  private SpongeClient good;

  @BeforeEach
  void setUp() throws IOException {
    dir = TempDirs.newShmDir("malformed");
    Configuration conf = TestNodes.conf(dir, CHUNKS);
    conf.set(SpongeConf.MAX_CONNECTIONS.name(), "6");
    conf.set(SpongeConf.SOCKET_TIMEOUT_MS.name(), "1500");
    node = SpongeService.start(SpongeServerConfig.from(conf));
    server = node.address();
    good = TestNodes.client("application_1_0001", "127.0.0.1:1", List.of(server));
  }

  @AfterEach
  void tearDown() {
    good.close();
    node.close();
    TempDirs.deleteRecursively(dir);
  }

  /**
   * The server still serves a normal client a byte-exact round trip, and holds no chunk it should
   * not.
   */
  private void assertStillServing() throws IOException {
    ByteBuffer data = TestNodes.randomBytes(3000, 42);
    RemoteChunk c = good.store(server, data.duplicate()).orElseThrow();
    ByteBuffer back = ByteBuffer.allocate(3000);
    good.read(c, back);
    assertEquals(data, back.flip());
    good.free(c);
    assertEquals(CHUNKS, node.metrics().getChunksFree(), "no chunk leaked");
  }

  private Socket connect() throws IOException {
    Socket s = new Socket(server.host(), server.port());
    s.setSoTimeout(5000);
    return s;
  }

  private static Frame reply(Socket s) throws IOException {
    return FrameCodec.read(new DataInputStream(s.getInputStream()), 1 << 20);
  }

  private static String message(Frame f) throws IOException {
    return new Payload(f.payload().duplicate(), f.requestId()).getString("message");
  }

  private static ByteBuffer frame(int version, int code, long requestId, byte[] payload) {
    ByteBuffer b = ByteBuffer.allocate(4 + Frame.HEADER_BYTES + payload.length);
    b.putInt(Frame.HEADER_BYTES + payload.length)
        .put((byte) version)
        .put((byte) code)
        .putLong(requestId)
        .put(payload);
    return b.flip();
  }

  private static void send(Socket s, ByteBuffer bytes) throws IOException {
    s.getOutputStream().write(bytes.array(), bytes.position(), bytes.remaining());
    s.getOutputStream().flush();
  }

  @Test
  void garbageBytesGetAnErrorAndTheConnectionClosed() throws IOException {
    try (Socket s = connect()) {
      send(
          s,
          ByteBuffer.wrap("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
      Frame f = reply(s);
      assertEquals(Status.FRAME_TOO_LARGE, Status.fromCode(f.code()));
      assertTrue(message(f).contains("exceeds the limit"), message(f));
      assertNull(reply(s), "connection closed after losing frame sync");
    }
    // Random bytes behind a plausible length prefix: whatever they decode to is refused, never
    // served.
    Random random = new Random(1);
    ByteBuffer noise = ByteBuffer.allocate(4 * (4 + 100));
    for (int i = 0; i < 4; i++) {
      byte[] body = new byte[100];
      random.nextBytes(body);
      noise.putInt(100).put(body);
    }
    try (Socket s = connect()) {
      send(s, noise.flip());
      s.shutdownOutput();
      int replies = 0;
      for (Frame f = reply(s); f != null; f = reply(s)) {
        assertTrue(Status.fromCode(f.code()) != Status.OK, "random bytes are never served");
        replies++;
      }
      assertEquals(4, replies, "each garbage frame gets its own error reply");
    }
    assertStillServing();
  }

  @Test
  void hugeAndNegativeLengthPrefixesAreRefused() throws IOException {
    try (Socket s = connect()) {
      send(s, ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE).flip());
      Frame f = reply(s);
      assertEquals(Status.FRAME_TOO_LARGE, Status.fromCode(f.code()));
      assertNull(reply(s));
    }
    try (Socket s = connect()) {
      send(s, ByteBuffer.allocate(4).putInt(-5).flip());
      Frame f = reply(s);
      assertEquals(Status.BAD_REQUEST, Status.fromCode(f.code()));
      assertNull(reply(s));
    }
    assertStillServing();
  }

  @Test
  void truncatedFramesCloseTheConnectionAndLeakNothing() throws IOException {
    // An ALLOCATE_WRITE whose data never arrives: the server must not have allocated anything for
    // it.
    ByteBuffer whole = allocateWrite("application_1_0009", TestNodes.CHUNK);
    try (Socket s = connect()) {
      send(s, ByteBuffer.wrap(whole.array(), 0, 200));
      s.shutdownOutput();
      assertNull(reply(s), "a frame cut short is never answered");
    }
    // The same, but the sender stalls instead of closing: the socket timeout ends it.
    try (Socket s = connect()) {
      send(s, ByteBuffer.wrap(whole.array(), 0, 200));
      assertNull(reply(s), "a stalled frame is dropped at the socket timeout");
    }
    assertStillServing();
  }

  @Test
  void unknownOpsVersionsAndBadPayloadsAreAnsweredAndTheConnectionKeepsServing()
      throws IOException {
    try (Socket s = connect()) {
      send(s, frame(Frame.VERSION, 99, 7, new byte[0]));
      Frame f = reply(s);
      assertEquals(Status.UNKNOWN_OP, Status.fromCode(f.code()));
      assertEquals(7, f.requestId());

      send(s, frame(42, Op.FREE_SPACE.code(), 8, new byte[0]));
      f = reply(s);
      assertEquals(Status.UNSUPPORTED_VERSION, Status.fromCode(f.code()));
      assertTrue(message(f).contains("version 42"), message(f));

      send(s, frame(Frame.VERSION, Op.READ.code(), 9, new byte[] {0, 0, 1}));
      f = reply(s);
      assertEquals(Status.BAD_REQUEST, Status.fromCode(f.code()));
      assertTrue(message(f).contains("chunk index"), message(f));

      // Declared data length disagrees with the bytes carried: refused before any allocation.
      ByteBuffer lying = allocateWrite("application_1_0009", 100);
      lying.putInt(lying.limit() - 100 - 4, 50);
      send(s, lying);
      f = reply(s);
      assertEquals(Status.BAD_REQUEST, Status.fromCode(f.code()));

      // Over the chunk size (but within the frame limit).
      send(s, allocateWrite("application_1_0009", TestNodes.CHUNK + 1));
      f = reply(s);
      assertEquals(Status.BAD_REQUEST, Status.fromCode(f.code()));

      send(s, frame(Frame.VERSION, Op.FREE_SPACE.code(), 10, new byte[0]));
      f = reply(s);
      assertEquals(Status.OK, Status.fromCode(f.code()), "the same connection still works");
      assertEquals(10, f.requestId());
      assertEquals(CHUNKS, f.payload().getInt(0));
    }
    assertTrue(node.metrics().getProtocolErrors() >= 5);
    assertStillServing();
  }

  /**
   * An owner node the garbage collector could not parse later (a port that is not a number or out
   * of range) is refused when the chunk is stored; stored, it made every GC round throw.
   */
  @Test
  void anOwnerNodeThatNamesNoServerIsRefusedAtStore() throws IOException {
    try (Socket s = connect()) {
      for (String node : List.of("10.0.0.1:x", "10.0.0.1:99999")) {
        send(s, allocateWrite("application_1_0009", 16, node));
        Frame f = reply(s);
        assertEquals(Status.BAD_REQUEST, Status.fromCode(f.code()), node);
        assertTrue(message(f).contains("bad owner"), message(f));
      }
    }
    assertEquals(CHUNKS, node.metrics().getChunksFree(), "nothing was stored");
    assertStillServing();
  }

  @Test
  void connectionsBeyondTheLimitGetBusy() throws Exception {
    Socket[] held = new Socket[6];
    try (SpongeClient probe =
        TestNodes.client("application_1_0001", "127.0.0.1:1", List.of(server))) {
      try {
        for (int i = 0; i < held.length; i++) {
          held[i] = connect();
          send(held[i], frame(Frame.VERSION, Op.FREE_SPACE.code(), i, new byte[0]));
          assertEquals(Status.OK, Status.fromCode(reply(held[i]).code()));
        }
        try (Socket extra = connect()) {
          Frame f = reply(extra);
          assertEquals(Status.BUSY, Status.fromCode(f.code()));
          assertNull(reply(extra));
        }
        // While the limit is reached a client gets a typed BUSY error, not a hang or a garbled
        // reply.
        RemoteReplyException busy =
            assertThrows(RemoteReplyException.class, () -> probe.freeSpace(server));
        assertEquals(Status.BUSY, busy.status());
      } finally {
        for (Socket s : held) {
          if (s != null) {
            s.close();
          }
        }
      }
      // Once the held connections are gone it is served.
      long deadline = System.nanoTime() + 10_000_000_000L;
      boolean served = false;
      while (!served && System.nanoTime() < deadline) {
        try {
          probe.freeSpace(server);
          served = true;
        } catch (RemoteReplyException e) {
          assertEquals(Status.BUSY, e.status());
          Thread.sleep(20);
        }
      }
      assertTrue(served, "a client is served once the held connections are closed");
    }
    assertStillServing();
  }

  private static ByteBuffer allocateWrite(String app, int dataLength) {
    return allocateWrite(app, dataLength, "127.0.0.1:1");
  }

  private static ByteBuffer allocateWrite(String app, int dataLength, String ownerNode) {
    ByteBuffer p =
        ByteBuffer.allocate(
            Payload.stringBytes(app) + 8 + Payload.stringBytes(ownerNode) + 4 + dataLength);
    Payload.putString(p, app);
    p.putLong(ProcessHandle.current().pid());
    Payload.putString(p, ownerNode);
    p.putInt(dataLength);
    return frame(Frame.VERSION, Op.ALLOCATE_WRITE.code(), 1, p.array());
  }
}
