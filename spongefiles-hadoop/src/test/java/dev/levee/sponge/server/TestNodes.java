package dev.levee.sponge.server;

import dev.levee.sponge.SpongeConfigKeys;
import dev.levee.sponge.remote.SpongeServerAddress;
import dev.levee.sponge.remote.net.ClientIdentity;
import dev.levee.sponge.remote.net.ClientSettings;
import dev.levee.sponge.remote.net.ServerListEntry;
import dev.levee.sponge.remote.net.SpongeClient;
import dev.levee.sponge.remote.net.StaticServerList;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;

/** Configuration and clients for sponge servers on loopback in tests. */
final class TestNodes {
  static final int CHUNK = 64 * 1024;
  static final String OWNER_HOST = "127.0.0.1";

  private TestNodes() {}

  /**
   * A server on an ephemeral loopback port with {@code chunks} chunks of {@link #CHUNK} bytes in
   * {@code poolDir}.
   */
  static Configuration conf(Path poolDir, int chunks) {
    Configuration c = new Configuration(false);
    c.set(SpongeConfigKeys.LOCAL_POOL_DIR, poolDir.toString());
    c.set(SpongeConfigKeys.LOCAL_POOL_SIZE, Long.toString((long) chunks * CHUNK));
    c.set(SpongeConfigKeys.CHUNK_SIZE, Integer.toString(CHUNK));
    c.set(SpongeConfigKeys.OWNER_HOST, OWNER_HOST);
    c.set(SpongeServerConfig.BIND_HOST, "127.0.0.1");
    c.set(SpongeServerConfig.PORT, "0");
    c.set(SpongeServerConfig.ADVERTISED_HOST, "127.0.0.1");
    c.set(SpongeServerConfig.GC_PERIOD_MS, "500");
    c.set(SpongeServerConfig.SOCKET_TIMEOUT_MS, "10000");
    c.set(SpongeServerConfig.CLIENT_READ_TIMEOUT_MS, "5000");
    return c;
  }

  static SpongeClient client(String app, String ownerNode, List<SpongeServerAddress> servers) {
    List<ServerListEntry> entries =
        servers.stream().map(a -> new ServerListEntry(a, 1, 1)).toList();
    return new SpongeClient(
        ClientIdentity.ofCurrentProcess(app, ownerNode, null),
        new StaticServerList(entries),
        new ClientSettings(2000, 5000, CHUNK, 4));
  }

  static ByteBuffer randomBytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return ByteBuffer.wrap(b);
  }
}
