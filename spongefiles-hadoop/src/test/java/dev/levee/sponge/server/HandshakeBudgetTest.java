package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.protocol.Frame;
import dev.levee.sponge.protocol.FrameCodec;
import dev.levee.sponge.protocol.Op;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.protocol.Status;
import dev.levee.sponge.testing.Await;
import dev.levee.sponge.testing.TempDirs;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 28 (S2): sockets trickling their first bytes and reconnecting held every slot, so a
 * well-formed client was refused. A new connection must finish its first request within the
 * handshake budget, and one address may hold only a few connections that have not.
 */
@Timeout(60)
class HandshakeBudgetTest {
  private static final int SLOTS = 8;
  private static final int TRICKLED = 30; // bytes a slow socket sends, one per 200 ms: 6 s

  private static byte[] freeSpaceFrame() {
    return ByteBuffer.allocate(4 + Frame.HEADER_BYTES)
        .putInt(Frame.HEADER_BYTES)
        .put(Frame.VERSION)
        .put(Op.FREE_SPACE.code())
        .putLong(1)
        .array();
  }

  private static Status freeSpaceFrom(SpongeServerAddress server, String local) throws IOException {
    try (Socket s = new Socket()) {
      s.bind(new InetSocketAddress(InetAddress.getByName(local), 0));
      s.connect(new InetSocketAddress(server.host(), server.port()), 2000);
      s.setSoTimeout(5000);
      s.getOutputStream().write(freeSpaceFrame());
      Frame f = FrameCodec.read(new DataInputStream(s.getInputStream()), 1 << 16);
      return Status.fromCode(f.code());
    }
  }

  /** Trickles a frame's first bytes; how many went out before the server cut the connection. */
  private static int trickle(SpongeServerAddress server, AtomicInteger connected)
      throws IOException, InterruptedException {
    try (Socket s = new Socket()) {
      s.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
      s.connect(new InetSocketAddress(server.host(), server.port()), 2000);
      connected.incrementAndGet();
      ByteBuffer frame = ByteBuffer.allocate(64);
      frame.putInt(60).put(Frame.VERSION).put(Op.FREE_SPACE.code()).putLong(2);
      OutputStream out = s.getOutputStream();
      for (int i = 0; i < TRICKLED; i++) {
        try {
          out.write(frame.get(i));
          out.flush();
        } catch (IOException cut) {
          return i;
        }
        Thread.sleep(200);
      }
      return TRICKLED;
    }
  }

  @Test
  void slowFirstRequestsAreCutAtTheBudgetAndCannotHoldEverySlot() throws Exception {
    Path dir = TempDirs.newShmDir("handshake");
    Configuration conf = TestNodes.conf(dir, 4);
    conf.set("levee.sponge.server.max-connections", Integer.toString(SLOTS));
    conf.set("levee.sponge.server.max-connections-per-peer", Integer.toString(SLOTS));
    conf.set("levee.sponge.server.max-handshakes-per-peer", "4");
    conf.set("levee.sponge.server.handshake-timeout-ms", "1000");
    conf.set("levee.sponge.server.socket-timeout-ms", "30000");
    conf.set("levee.sponge.server.frame-timeout-ms", "30000");
    ExecutorService slow = Executors.newFixedThreadPool(SLOTS);
    try (SpongeService node = SpongeService.start(SpongeServerConfig.from(conf))) {
      SpongeServerAddress server = node.address();
      AtomicInteger connected = new AtomicInteger();
      List<Future<Integer>> attackers = new ArrayList<>();
      for (int i = 0; i < SLOTS; i++) {
        attackers.add(slow.submit(() -> trickle(server, connected)));
      }
      Await.until("every slow socket connected", () -> connected.get() == SLOTS);
      // One address trickling into every slot: a well-formed client elsewhere is still served.
      assertEquals(Status.OK, freeSpaceFrom(server, "127.0.0.2"), "a normal client is served");
      for (Future<Integer> a : attackers) {
        int sent = a.get();
        assertTrue(sent < TRICKLED, sent + " bytes trickled: not cut at the 1 s budget");
      }
      assertEquals(Status.OK, freeSpaceFrom(server, "127.0.0.1"), "the slow address again");
    } finally {
      slow.shutdownNow();
      TempDirs.deleteRecursively(dir);
    }
  }
}
