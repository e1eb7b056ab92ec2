package dev.levee.sponge.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The fuzz harness's own verdicts: replies counted, a close and a hang told apart. */
@Timeout(30)
class FrameExchangeTest {
  private static final List<byte[]> FRAMES = new FrameFuzzer(new Random(7), 4096, 4).next(3);

  /** What the server side of one accepted connection does. */
  private interface Peer {
    void serve(Socket s) throws Exception;
  }

  /** Runs {@code peer} on the one connection {@code server} accepts, on a thread of its own. */
  private static Thread serveOnce(ServerSocket server, Peer peer) {
    Thread t =
        new Thread(
            () -> {
              try (Socket s = server.accept()) {
                peer.serve(s);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    t.start();
    return t;
  }

  @Test
  void repliesAreCountedUntilTheServerCloses() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread peer =
          serveOnce(
              server,
              s -> {
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                for (int i = 0; i < 2; i++) {
                  FrameCodec.write(out, Status.OK.code(), i, ByteBuffer.allocate(5));
                }
                out.flush();
              });
      try (Socket s = new Socket(server.getInetAddress(), server.getLocalPort())) {
        s.setSoTimeout(10_000);
        FrameFuzzer.Exchange e = FrameFuzzer.exchange(s, FRAMES);
        assertEquals(2, e.replies());
        assertFalse(e.hung());
      }
      peer.join();
    }
  }

  @Test
  void aServerThatNeitherAnswersNorClosesIsAHang() throws Exception {
    CountDownLatch done = new CountDownLatch(1);
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread peer =
          serveOnce(
              server,
              s -> {
                s.getInputStream().readAllBytes(); // the frames, then silence
                done.await(20, TimeUnit.SECONDS);
              });
      try (Socket s = new Socket(server.getInetAddress(), server.getLocalPort())) {
        s.setSoTimeout(300);
        FrameFuzzer.Exchange e = FrameFuzzer.exchange(s, FRAMES);
        assertTrue(e.hung());
        assertEquals(0, e.replies());
      } finally {
        done.countDown();
      }
      peer.join();
    }
  }
}
