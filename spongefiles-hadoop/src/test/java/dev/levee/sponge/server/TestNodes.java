package dev.levee.sponge.server;

import dev.levee.sponge.client.ClientIdentity;
import dev.levee.sponge.client.ClientSettings;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.discovery.StaticServerList;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
    c.set(SpongeConf.LOCAL_POOL_DIR.name(), poolDir.toString());
    c.set(SpongeConf.LOCAL_POOL_SIZE.name(), Long.toString((long) chunks * CHUNK));
    c.set(SpongeConf.CHUNK_SIZE.name(), Integer.toString(CHUNK));
    c.set(SpongeConf.OWNER_HOST.name(), OWNER_HOST);
    c.set(SpongeConf.BIND_HOST.name(), "127.0.0.1");
    c.set(SpongeConf.PORT.name(), "0");
    c.set(SpongeConf.ADVERTISED_HOST.name(), "127.0.0.1");
    c.set(SpongeConf.GC_PERIOD_MS.name(), "500");
    c.set(SpongeConf.SOCKET_TIMEOUT_MS.name(), "10000");
    c.set(SpongeConf.CLIENT_READ_TIMEOUT_MS.name(), "5000");
    // The explicit opt-out: these tests drive the wire with unauthenticated clients; the
    // authentication tests set their own secrets and turn it back on.
    c.set(SpongeConf.AUTH_REQUIRED.name(), "false");
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

  /**
   * A cluster secret file holding {@code secret}, private to this user (mode 600) as servers
   * require; the caller deletes it.
   */
  static Path secretFile(byte[] secret) throws IOException {
    Path f = Files.createTempFile("sponge-secret", ".key");
    Files.write(f, secret);
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
    return f;
  }

  static ByteBuffer randomBytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return ByteBuffer.wrap(b);
  }
}
