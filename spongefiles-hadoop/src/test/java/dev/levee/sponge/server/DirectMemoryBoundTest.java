package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.protocol.Capability;
import dev.levee.sponge.protocol.Frame;
import dev.levee.sponge.protocol.FrameCodec;
import dev.levee.sponge.protocol.Op;
import dev.levee.sponge.protocol.Payload;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.protocol.Status;
import dev.levee.sponge.testing.TempDirs;
import java.io.DataInputStream;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Direct memory (issue 13, item 6): many short connections reading chunks must not grow the
 * server's direct memory past what configuration allows (transfer buffers × chunk size). Before,
 * every connection allocated its own chunk-sized direct buffer and only a GC freed it.
 */
@Timeout(120)
class DirectMemoryBoundTest {
  private static final int CHUNK = 1 << 20;
  private static final int BUFFERS = 2;
  private static final int THREADS = 8;
  private static final int CONNECTIONS_PER_THREAD = 40;

  /** Client-side temporary buffers of the JDK's socket streams and the like, not the server's. */
  private static final long SLACK = 4L << 20;

  private Path dir;
  private SpongeService node;
  private SpongeServerAddress server;

  @BeforeEach
  void setUp() throws IOException {
    dir = TempDirs.newShmDir("directmem");
    Configuration conf = TestNodes.conf(dir, 4);
    conf.set(SpongeConf.CHUNK_SIZE.name(), Integer.toString(CHUNK));
    conf.set(SpongeConf.LOCAL_POOL_SIZE.name(), Long.toString(4L * CHUNK));
    conf.set("levee.sponge.server.transfer-buffers", Integer.toString(BUFFERS));
    conf.set(SpongeConf.MAX_CONNECTIONS.name(), "64");
    node = SpongeService.start(SpongeServerConfig.from(conf));
    server = node.address();
  }

  @AfterEach
  void tearDown() {
    node.close();
    TempDirs.deleteRecursively(dir);
  }

  private static long directUsed() {
    for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if (b.getName().equals("direct")) {
        return b.getMemoryUsed();
      }
    }
    throw new AssertionError("no direct buffer pool bean");
  }

  private Socket connect() throws IOException {
    Socket s = new Socket(server.host(), server.port());
    s.setSoTimeout(10_000);
    return s;
  }

  private static byte[] frame(Op op, byte[] payload) {
    return FrameCodec.encode(op.code(), 1, payload);
  }

  /** Reads one reply frame in small pieces (so the JDK's own temporary buffers stay small). */
  private static ByteBuffer reply(Socket s) throws IOException {
    DataInputStream in = new DataInputStream(s.getInputStream());
    int length = in.readInt();
    byte[] body = new byte[length];
    for (int off = 0; off < length; ) {
      int n = in.read(body, off, Math.min(8192, length - off));
      if (n < 0) {
        throw new IOException("reply cut short");
      }
      off += n;
    }
    return ByteBuffer.wrap(body);
  }

  @Test
  void manyConnectionsReadingChunksStayWithinTheConfiguredBound() throws Exception {
    byte[] data = TestNodes.randomBytes(CHUNK, 5).array();
    String app = "application_1_0001";
    ByteBuffer alloc =
        ByteBuffer.allocate(
            Payload.stringBytes(app) + 8 + Payload.stringBytes("127.0.0.1:1") + 4 + CHUNK);
    Payload.putString(alloc, app);
    alloc.putLong(ProcessHandle.current().pid());
    Payload.putString(alloc, "127.0.0.1:1");
    alloc.putInt(CHUNK).put(data);
    int index;
    byte[] cap = new byte[Capability.BYTES];
    try (Socket s = connect()) {
      s.getOutputStream().write(frame(Op.ALLOCATE_WRITE, alloc.array()));
      ByteBuffer r = reply(s);
      assertEquals(Status.OK, Status.fromCode(r.get(1)));
      r.position(Frame.HEADER_BYTES);
      index = r.getInt();
      r.get(cap);
    }
    byte[] read = ByteBuffer.allocate(4 + Capability.BYTES).putInt(index).put(cap).array();

    System.gc();
    long baseline = directUsed();
    AtomicLong peak = new AtomicLong(baseline);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> runs = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        runs.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < CONNECTIONS_PER_THREAD; i++) {
                    try (Socket s = connect()) {
                      s.getOutputStream().write(frame(Op.READ, read));
                      ByteBuffer r = reply(s);
                      assertEquals(Status.OK, Status.fromCode(r.get(1)), "READ served");
                      r.position(Frame.HEADER_BYTES);
                      assertEquals(CHUNK, r.getInt());
                      assertEquals(ByteBuffer.wrap(data), r, "the chunk's bytes");
                    }
                    peak.accumulateAndGet(directUsed(), Math::max);
                  }
                  return null;
                }));
      }
      for (Future<?> f : runs) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    long grew = peak.get() - baseline;
    assertTrue(
        grew <= (long) BUFFERS * CHUNK + SLACK,
        "direct memory grew by "
            + grew
            + " bytes over "
            + THREADS * CONNECTIONS_PER_THREAD
            + " connections; the bound is "
            + BUFFERS
            + " transfer buffers of "
            + CHUNK
            + " bytes (+ "
            + SLACK
            + " of client-side slack)");
  }
}
