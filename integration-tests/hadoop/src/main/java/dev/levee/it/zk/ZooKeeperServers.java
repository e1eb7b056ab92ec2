package dev.levee.it.zk;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

/**
 * Real ZooKeeper servers from curator-test, with their data under a directory the caller owns
 * (curator-test's default is a fresh directory in java.io.tmpdir per server) and deleted when they
 * close.
 */
public final class ZooKeeperServers {

  private ZooKeeperServers() {}

  /** A started standalone server on a free loopback port. */
  public static TestingServer standalone(Path baseDir) throws Exception {
    return new TestingServer(spec(baseDir, 1), true);
  }

  /**
   * A started standalone server whose tick is {@code tickTimeMs}; sessions may be as short as two
   * ticks (ZooKeeper's default tick of 3 s makes 6 s the shortest), which keeps session-loss tests
   * short.
   */
  public static TestingServer standalone(Path baseDir, int tickTimeMs) throws Exception {
    Files.createDirectories(baseDir);
    Path dataDir = Files.createTempDirectory(baseDir.toAbsolutePath(), "zk-1-");
    return new TestingServer(
        new InstanceSpec(dataDir.toFile(), -1, -1, -1, true, 1, tickTimeMs, -1), true);
  }

  /**
   * The longest session an ensemble grants (ZooKeeper's default is 20 ticks). A failover test needs
   * sessions longer than the election after a leader's death, and on a loaded 2-core CI machine the
   * survivors of a killed leader took 24 s to elect (the default cap then expired every client's
   * session).
   */
  static final int MAX_SESSION_TIMEOUT_MS = 120_000;

  /** A started ensemble of {@code size} servers (3 tolerates one failure, 5 two). */
  public static ZooKeeperEnsemble ensemble(int size, Path baseDir) throws Exception {
    if (size < 1) {
      throw new IllegalArgumentException(
          "ensemble size=" + size + ": must be at least 1 (3 or 5 for failover)");
    }
    // curator-test picks each port on its own, so two of one server's three ports could come out
    // equal ("Client and election port must be different!", seen once in CI): take all of them
    // while holding every one open, so they are distinct.
    int[] ports = distinctFreePorts(3 * size);
    InstanceSpec[] specs = new InstanceSpec[size];
    for (int i = 0; i < size; i++) {
      Files.createDirectories(baseDir);
      Path dataDir = Files.createTempDirectory(baseDir.toAbsolutePath(), "zk-" + (i + 1) + "-");
      specs[i] =
          new InstanceSpec(
              dataDir.toFile(),
              ports[3 * i],
              ports[3 * i + 1],
              ports[3 * i + 2],
              true,
              i + 1,
              -1,
              -1,
              Map.of("maxSessionTimeout", Integer.toString(MAX_SESSION_TIMEOUT_MS)));
    }
    return ZooKeeperEnsemble.start(specs);
  }

  private static int[] distinctFreePorts(int n) throws IOException {
    List<ServerSocket> held = new ArrayList<>();
    try {
      int[] ports = new int[n];
      for (int i = 0; i < n; i++) {
        ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        held.add(s);
        ports[i] = s.getLocalPort();
      }
      return ports;
    } finally {
      for (ServerSocket s : held) {
        s.close();
      }
    }
  }

  private static InstanceSpec spec(Path baseDir, int serverId) throws IOException {
    Files.createDirectories(baseDir);
    Path dataDir = Files.createTempDirectory(baseDir.toAbsolutePath(), "zk-" + serverId + "-");
    // -1: curator-test picks free ports and its default tick time.
    return new InstanceSpec(dataDir.toFile(), -1, -1, -1, true, serverId);
  }
}
