package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.client.RemoteChunk;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.protocol.FrameFuzzer;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.testing.TempDirs;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A short, seeded fuzz run over every operation of the protocol (and unknown ops and versions):
 * valid frames of each op mutated by bit flips, truncation, lying lengths, random field values and
 * random tails, a few frames per connection. It checks that the server never crashes or hangs (each
 * connection ends with replies or a close within the socket timeout), that it never holds a chunk
 * it did not grant, that it still serves a normal client afterwards, and that hostile input cannot
 * flood its log (issue 13: a fuzz run once wrote 42,077 WARN lines). The long run is the {@code
 * sponge-fuzz} bench suite; {@code -Dlevee.fuzz.seed} reproduces a failure.
 */
@Timeout(120)
class ProtocolFuzzTest {
  private static final int CHUNKS = 16;
  private static final int CONNECTIONS = 600;
  private static final int FRAMES_PER_CONNECTION = 5;
  private Path dir;
  private SpongeService node;
  private SpongeServerAddress server;
  private final WarnCounter warns = new WarnCounter();

  /** Counts WARN and worse from the sponge server's loggers. */
  static final class WarnCounter extends AppenderSkeleton {
    final AtomicInteger count = new AtomicInteger();

    @Override
    protected void append(LoggingEvent e) {
      if (e.getLevel().isGreaterOrEqual(Level.WARN)
          && e.getLoggerName().startsWith("dev.levee.sponge.server")) {
        count.incrementAndGet();
      }
    }

    @Override
    public void close() {}

    @Override
    public boolean requiresLayout() {
      return false;
    }
  }

  @BeforeEach
  void setUp() throws IOException {
    dir = TempDirs.newShmDir("fuzz");
    Configuration conf = TestNodes.conf(dir, CHUNKS);
    conf.set(SpongeConf.SOCKET_TIMEOUT_MS.name(), "2000");
    conf.set(SpongeConf.QUOTA_CHUNKS_PER_APP.name(), "4");
    node = SpongeService.start(SpongeServerConfig.from(conf));
    server = node.address();
    Logger.getRootLogger().addAppender(warns);
  }

  @AfterEach
  void tearDown() {
    Logger.getRootLogger().removeAppender(warns);
    node.close();
    TempDirs.deleteRecursively(dir);
  }

  @Test
  void fuzzedFramesOfEveryOpAreAnsweredOrClosedNeverServedWrong() throws Exception {
    long seed = Long.getLong("levee.fuzz.seed", 20261123L);
    FrameFuzzer fuzzer = new FrameFuzzer(new Random(seed), TestNodes.CHUNK, CHUNKS + 2);
    int hangs = 0;
    int replies = 0;
    int inputs = 0;
    for (int c = 0; c < CONNECTIONS; c++) {
      List<byte[]> frames = new ArrayList<>();
      for (int i = 0; i < FRAMES_PER_CONNECTION; i++) {
        frames.add(fuzzer.next());
      }
      inputs += frames.size();
      try (Socket s = new Socket(server.host(), server.port())) {
        s.setSoTimeout(10_000);
        try {
          for (byte[] f : frames) {
            s.getOutputStream().write(f);
          }
          s.shutdownOutput();
        } catch (IOException closedEarly) {
          // the server closed after an unsyncable frame: fine, read what it said
        }
        DataInputStream in = new DataInputStream(s.getInputStream());
        try {
          while (true) {
            int len = in.readInt();
            in.skipNBytes(len);
            replies++;
          }
        } catch (EOFException | java.net.SocketException done) {
          // closed by the server: the expected end
        } catch (SocketTimeoutException e) {
          hangs++;
        }
      }
    }
    assertEquals(0, hangs, "connections left hanging (seed " + seed + ")");
    assertTrue(replies > inputs / 4, replies + " replies to " + inputs + " inputs");

    // Never a chunk without a grant; the grants the fuzz earned (valid ALLOCATE_WRITEs) go back
    // when their applications end.
    assertEquals(
        node.metrics().getChunksUsed(),
        node.metrics().getRemoteChunksHeld(),
        "every used chunk is one the server granted");
    for (int i = 0; i < 8; i++) {
      node.releaseApplication("application_1_000" + i);
    }
    try (SpongeClient good =
        TestNodes.client("application_1_0042", "127.0.0.1:1", List.of(server))) {
      ByteBuffer data = TestNodes.randomBytes(3000, 42);
      RemoteChunk ch = good.store(server, data.duplicate()).orElseThrow();
      ByteBuffer back = ByteBuffer.allocate(3000);
      good.read(ch, back);
      assertEquals(data, back.flip(), "still serving after the fuzz run (seed " + seed + ")");
      good.free(ch);
    }
    assertTrue(
        warns.count.get() <= 20,
        warns.count.get()
            + " WARN lines for "
            + inputs
            + " hostile inputs: repeated warnings must be rate-limited");
  }
}
