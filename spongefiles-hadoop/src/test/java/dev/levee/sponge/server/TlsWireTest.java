package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.config.ConfigException;
import dev.levee.sponge.client.ClientIdentity;
import dev.levee.sponge.client.ClientSettings;
import dev.levee.sponge.client.RemoteChunk;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.discovery.StaticServerList;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.protocol.WireTls;
import dev.levee.sponge.testing.TempDirs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Security;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * TLS on the wire (issue 13, item 11): chunks round-trip over TLS and never cross the wire in
 * clear; a plaintext client of a TLS server, a TLS client of a plaintext server and a client that
 * does not trust the server's certificate all fail with a message naming what to set, while the
 * server keeps serving everyone else.
 */
@Timeout(60)
class TlsWireTest {
  private static final String PASSWORD = "changeit";
  private static final int FRAME_TIMEOUT_MS = 2000;
  private static final byte[] MARKER = "LEVEE-TLS-MARKER;".getBytes(StandardCharsets.US_ASCII);
  private static Path stores;
  private static Path keyStore;
  private static Path trustStore;

  private Path tlsPool;
  private Path plainPool;
  private SpongeService tlsNode;
  private SpongeService plainNode;

  /** A self-signed certificate for 127.0.0.1 and localhost, and a trust store holding it. */
  @BeforeAll
  static void makeStores() throws Exception {
    // A TLS 1.3 key update every 16 KB instead of every 2^37 bytes, so that these tests also cross
    // the path where a reader must answer one while a writer sends (about 250 requested updates
    // in this class). Read once, when the JDK's TLS first loads: should another test in this JVM
    // load it first, these tests still pass, only without the updates.
    Security.setProperty("jdk.tls.keyLimits", "AES/GCM/NoPadding KeyUpdate 2^14");
    stores = Files.createTempDirectory("sponge-tls");
    keyStore = stores.resolve("server.p12");
    trustStore = stores.resolve("trust.p12");
    Path cert = stores.resolve("server.crt");
    keytool(
        "-genkeypair -alias sponge -keyalg EC -groupname secp256r1 -dname CN=localhost"
            + " -ext SAN=dns:localhost,ip:127.0.0.1 -validity 2 -storetype PKCS12"
            + (" -keystore " + keyStore + " -storepass " + PASSWORD + " -keypass " + PASSWORD));
    keytool(
        "-exportcert -rfc -alias sponge -keystore "
            + (keyStore + " -storepass " + PASSWORD + " -file " + cert));
    keytool(
        "-importcert -noprompt -alias sponge -storetype PKCS12 -file "
            + (cert + " -keystore " + trustStore + " -storepass " + PASSWORD));
  }

  /** Runs the JDK's keytool with {@code args} (split at spaces: the temp paths have none). */
  private static void keytool(String args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    cmd.addAll(List.of(args.split(" ")));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), "keytool " + args + ": " + out);
  }

  @AfterAll
  static void deleteStores() {
    TempDirs.deleteRecursively(stores);
  }

  @BeforeEach
  void setUp() throws IOException {
    tlsPool = TempDirs.newShmDir("tls");
    plainPool = TempDirs.newShmDir("tls-plain");
    Configuration tls = tlsConf(TestNodes.conf(tlsPool, 8));
    tls.set(SpongeConf.FRAME_TIMEOUT_MS.name(), Integer.toString(FRAME_TIMEOUT_MS));
    tlsNode = SpongeService.start(SpongeServerConfig.from(tls));
    plainNode = SpongeService.start(SpongeServerConfig.from(TestNodes.conf(plainPool, 8)));
  }

  @AfterEach
  void tearDown() {
    tlsNode.close();
    plainNode.close();
    TempDirs.deleteRecursively(tlsPool);
    TempDirs.deleteRecursively(plainPool);
  }

  private static Configuration tlsConf(Configuration c) {
    c.set(SpongeConf.TLS_ENABLED.name(), "true");
    c.set(SpongeConf.TLS_KEYSTORE_PATH.name(), keyStore.toString());
    c.set(SpongeConf.TLS_KEYSTORE_PASSWORD.name(), PASSWORD);
    c.set(SpongeConf.TLS_TRUSTSTORE_PATH.name(), trustStore.toString());
    c.set(SpongeConf.TLS_TRUSTSTORE_PASSWORD.name(), PASSWORD);
    return c;
  }

  /** A task's TLS, read from its configuration the way a task reads it. */
  private static WireTls clientTls(Configuration c) {
    return SpongeServerConfig.from(c).tls().forClient();
  }

  private static Configuration trusting(Configuration c) {
    c.set(SpongeConf.TLS_ENABLED.name(), "true");
    c.set(SpongeConf.TLS_TRUSTSTORE_PATH.name(), trustStore.toString());
    c.set(SpongeConf.TLS_TRUSTSTORE_PASSWORD.name(), PASSWORD);
    return c;
  }

  private static WireTls trustingClientTls() {
    return clientTls(trusting(TestNodes.conf(Path.of("/unused"), 8)));
  }

  private static SpongeClient client(SpongeServerAddress server, WireTls tls) {
    return new SpongeClient(
        ClientIdentity.ofCurrentProcess("application_1_0001", "127.0.0.1:1", null),
        new StaticServerList(List.of(new ServerListEntry(server, 1, 1))),
        new ClientSettings(2000, 5000, TestNodes.CHUNK, 2).withTls(tls));
  }

  private static ByteBuffer markedChunk() {
    ByteBuffer b = ByteBuffer.allocate(TestNodes.CHUNK);
    while (b.remaining() >= MARKER.length) {
      b.put(MARKER);
    }
    return b.clear();
  }

  /** Stores, reads back and frees one marked chunk through {@code server}. */
  private static void roundTrip(SpongeClient c, SpongeServerAddress server) throws IOException {
    ByteBuffer data = markedChunk();
    RemoteChunk chunk = c.store(server, data.duplicate()).orElseThrow();
    ByteBuffer back = ByteBuffer.allocate(TestNodes.CHUNK);
    c.read(chunk, back);
    assertEquals(data, back.flip(), "the chunk reads back as stored");
    c.free(chunk);
  }

  @Test
  void chunksRoundTripOverTlsAndTheMarkerNeverCrossesTheWire() throws Exception {
    try (Relay relay = new Relay(tlsNode.address().port());
        SpongeClient c = client(relay.address(), trustingClientTls())) {
      roundTrip(c, relay.address());
      assertEquals(8, c.freeSpace(relay.address()).freeChunks(), "the chunk was freed");
      c.close();
      relay.awaitQuiet();
      assertTrue(
          relay.toServer().length > TestNodes.CHUNK && relay.toClient().length > TestNodes.CHUNK,
          "the chunk crossed the relay both ways");
      assertFalse(contains(relay.toServer(), MARKER), "chunk bytes in clear towards the server");
      assertFalse(contains(relay.toClient(), MARKER), "chunk bytes in clear towards the client");
    }
    // The same relay in front of a plaintext server sees the marker: the check above can fail.
    try (Relay relay = new Relay(plainNode.address().port());
        SpongeClient c = client(relay.address(), null)) {
      roundTrip(c, relay.address());
      c.close();
      relay.awaitQuiet();
      assertTrue(contains(relay.toServer(), MARKER) && contains(relay.toClient(), MARKER));
    }
  }

  @Test
  void pipelinedStoresOverTlsReadBackIntact() throws Exception {
    SpongeServerAddress server = tlsNode.address();
    try (SpongeClient c = client(server, trustingClientTls())) {
      // One connection, a writer and a reader thread at once (StorePipeline) over one TLS session.
      List<CompletableFuture<Optional<RemoteChunk>>> stores = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        stores.add(c.storeAsync(server, TestNodes.randomBytes(TestNodes.CHUNK, i)));
      }
      for (int i = 0; i < 6; i++) {
        RemoteChunk chunk = stores.get(i).get(30, TimeUnit.SECONDS).orElseThrow();
        ByteBuffer back = ByteBuffer.allocate(TestNodes.CHUNK);
        c.read(chunk, back);
        assertEquals(TestNodes.randomBytes(TestNodes.CHUNK, i), back.flip(), "chunk " + i);
        c.free(chunk);
      }
    }
    assertEquals(8, tlsNode.metrics().getChunksFree());
  }

  @Test
  void serversProbeEachOtherOverTls() throws IOException {
    Path poolA = TempDirs.newShmDir("tls-a");
    Path poolB = TempDirs.newShmDir("tls-b");
    try (SpongeService b = SpongeService.start(SpongeServerConfig.from(tlsConf(conf(poolB))))) {
      Configuration a = tlsConf(conf(poolA));
      a.set(SpongeConf.GC_OWNER_NODES.name(), b.nodeName());
      a.set(SpongeConf.GC_PEER_GRACE_MS.name(), "0");
      a.set(SpongeConf.GC_PERIOD_MS.name(), "86400000"); // rounds run by the test only
      try (SpongeService nodeA = SpongeService.start(SpongeServerConfig.from(a));
          SpongeClient task =
              new SpongeClient(
                  ClientIdentity.ofCurrentProcess("application_1_0001", b.nodeName(), null),
                  new StaticServerList(List.of()),
                  new ClientSettings(2000, 5000, TestNodes.CHUNK, 2)
                      .withTls(trustingClientTls()))) {
        // A chunk on A whose owner lives on B's node: A's collector asks B, over TLS.
        task.store(nodeA.address(), markedChunk()).orElseThrow();
        assertEquals(0, nodeA.collectGarbage(), "B answered that the owner is alive");
        b.close();
        assertEquals(1, nodeA.collectGarbage(), "with B gone (no grace) the chunk is reclaimed");
      }
    } finally {
      TempDirs.deleteRecursively(poolA);
      TempDirs.deleteRecursively(poolB);
    }
  }

  private static Configuration conf(Path pool) {
    return TestNodes.conf(pool, 8);
  }

  @Test
  void aPlaintextClientOfATlsServerIsToldWhatToSetAndOthersKeepBeingServed() throws IOException {
    SpongeServerAddress server = tlsNode.address();
    try (SpongeClient tls = client(server, trustingClientTls())) {
      roundTrip(tls, server); // leaves a pooled TLS connection open
      try (SpongeClient plain = client(server, null)) {
        IOException e = assertThrows(IOException.class, () -> plain.store(server, markedChunk()));
        assertTrue(e.getMessage().contains("requires TLS"), e.toString());
        assertTrue(e.getMessage().contains(WireTls.ENABLED_KEY + "=true"), e.toString());
      }
      roundTrip(tls, server);
    }
    assertEquals(8, tlsNode.metrics().getChunksFree());
  }

  @Test
  void aTlsClientOfAPlaintextServerIsToldWhatToSetAndOthersKeepBeingServed() throws IOException {
    SpongeServerAddress server = plainNode.address();
    try (SpongeClient plain = client(server, null)) {
      roundTrip(plain, server);
      try (SpongeClient tls = client(server, trustingClientTls())) {
        IOException e = assertThrows(IOException.class, () -> tls.store(server, markedChunk()));
        assertTrue(e.getMessage().contains("does not speak TLS"), e.toString());
        assertTrue(e.getMessage().contains(WireTls.ENABLED_KEY), e.toString());
      }
      roundTrip(plain, server);
    }
  }

  @Test
  void stalledOrGarbledHandshakesAreCutWhileOthersAreServed() throws IOException {
    SpongeServerAddress server = tlsNode.address();
    try (Socket stalled = new Socket(server.host(), server.port());
        Socket garbled = new Socket(server.host(), server.port());
        SpongeClient c = client(server, trustingClientTls())) {
      // A TLS record header announcing 512 bytes of ClientHello, then nothing; and one followed by
      // 512 bytes that are no ClientHello.
      stalled.getOutputStream().write(new byte[] {22, 3, 1, 2, 0});
      byte[] junk = TestNodes.randomBytes(5 + 512, 7).array();
      System.arraycopy(new byte[] {22, 3, 1, 2, 0}, 0, junk, 0, 5);
      garbled.getOutputStream().write(junk);
      roundTrip(c, server);
      assertClosedByServer(garbled);
      assertClosedByServer(stalled);
      roundTrip(c, server);
    }
  }

  /** Reads what the server still sends (an alert, perhaps) until it closes; fails on a timeout. */
  private static void assertClosedByServer(Socket s) throws IOException {
    s.setSoTimeout(10 * FRAME_TIMEOUT_MS);
    try {
      InputStream in = s.getInputStream();
      while (in.read() >= 0) {
        // drain
      }
    } catch (java.net.SocketException reset) {
      // closed with our bytes unread: closed all the same
    }
  }

  @Test
  void aClientThatDoesNotTrustTheCertificateIsRefused() throws IOException {
    SpongeServerAddress server = tlsNode.address();
    Configuration cacerts = TestNodes.conf(Path.of("/unused"), 8);
    cacerts.set(SpongeConf.TLS_ENABLED.name(), "true"); // the JDK's: not our self-signed cert
    try (SpongeClient untrusting = client(server, clientTls(cacerts))) {
      IOException e =
          assertThrows(IOException.class, () -> untrusting.store(server, markedChunk()));
      assertTrue(e.getMessage().contains("TLS handshake with sponge server"), e.toString());
      assertTrue(e.getMessage().contains("default trust store"), e.toString());
    }
    try (SpongeClient trusting = client(server, trustingClientTls())) {
      roundTrip(trusting, server);
    }
    // A trusted certificate that does not name the host dialled (127.0.0.2: loopback on Linux).
    try (Relay elsewhere = new Relay(InetAddress.getByName("127.0.0.2"), server.port());
        SpongeClient c = client(elsewhere.address(), trustingClientTls())) {
      IOException e =
          assertThrows(IOException.class, () -> c.store(elsewhere.address(), markedChunk()));
      assertTrue(e.getMessage().contains("127.0.0.2"), e.toString());
    }
    Configuration noHostCheck = TestNodes.conf(Path.of("/unused"), 8);
    trusting(noHostCheck).set(SpongeConf.TLS_VERIFY_HOSTNAME.name(), "false");
    try (Relay elsewhere = new Relay(InetAddress.getByName("127.0.0.2"), server.port());
        SpongeClient c = client(elsewhere.address(), clientTls(noHostCheck))) {
      roundTrip(c, elsewhere.address());
    }
  }

  @Test
  void aMissingStoreStopsTheServerAndTheClientNamingKeyAndFile() throws IOException {
    Path missing = stores.resolve("no-such.p12");
    Path pool = TempDirs.newShmDir("tls-bad");
    try {
      Configuration server = tlsConf(TestNodes.conf(pool, 8));
      server.set(SpongeConf.TLS_KEYSTORE_PATH.name(), missing.toString());
      ConfigException e =
          assertThrows(
              ConfigException.class, () -> SpongeService.start(SpongeServerConfig.from(server)));
      assertEquals(SpongeConf.TLS_KEYSTORE_PATH.name(), e.key());
      assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());

      Configuration client = tlsConf(TestNodes.conf(pool, 8));
      client.set(SpongeConf.TLS_TRUSTSTORE_PATH.name(), missing.toString());
      e = assertThrows(ConfigException.class, () -> clientTls(client));
      assertEquals(SpongeConf.TLS_TRUSTSTORE_PATH.name(), e.key());
      assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());

      Configuration noTrustPassword = tlsConf(TestNodes.conf(pool, 8));
      noTrustPassword.unset(SpongeConf.TLS_TRUSTSTORE_PASSWORD.name());
      e = assertThrows(ConfigException.class, () -> clientTls(noTrustPassword));
      assertTrue(
          e.getMessage().contains(SpongeConf.TLS_TRUSTSTORE_PASSWORD.name()), e.getMessage());

      Configuration wrongPassword = tlsConf(TestNodes.conf(pool, 8));
      wrongPassword.set(SpongeConf.TLS_KEYSTORE_PASSWORD.name(), "Xq7-not-it");
      e =
          assertThrows(
              ConfigException.class,
              () -> SpongeService.start(SpongeServerConfig.from(wrongPassword)));
      assertEquals(SpongeConf.TLS_KEYSTORE_PATH.name(), e.key());
      assertTrue(e.getMessage().contains(SpongeConf.TLS_KEYSTORE_PASSWORD.name()), e.getMessage());
      assertFalse(e.getMessage().contains("Xq7-not-it"), "never the password: " + e.getMessage());
    } finally {
      TempDirs.deleteRecursively(pool);
    }
  }

  private static boolean contains(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  /** A loopback TCP relay to a server port that keeps a copy of every byte in each direction. */
  private static final class Relay implements AutoCloseable {
    private final ServerSocket listener;
    private final int target;
    private final ByteArrayOutputStream toServer = new ByteArrayOutputStream();
    private final ByteArrayOutputStream toClient = new ByteArrayOutputStream();
    private final List<Thread> pumps = new ArrayList<>();
    private final List<Socket> sockets = new ArrayList<>();
    private final Thread acceptor;

    Relay(int target) throws IOException {
      this(InetAddress.getLoopbackAddress(), target);
    }

    Relay(InetAddress bind, int target) throws IOException {
      this.target = target;
      this.listener = new ServerSocket(0, 50, bind);
      this.acceptor = new Thread(this::acceptLoop, "tls-test-relay");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    SpongeServerAddress address() {
      return new SpongeServerAddress(
          listener.getInetAddress().getHostAddress(), listener.getLocalPort(), null);
    }

    private void acceptLoop() {
      while (true) {
        try {
          Socket client = listener.accept();
          Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
          synchronized (this) {
            sockets.add(client);
            sockets.add(server);
            pumps.add(pump(client, server, toServer));
            pumps.add(pump(server, client, toClient));
          }
        } catch (IOException closed) {
          return;
        }
      }
    }

    private static Thread pump(Socket from, Socket to, ByteArrayOutputStream copy) {
      Thread t =
          new Thread(
              () -> {
                byte[] buf = new byte[8192];
                try (InputStream in = from.getInputStream()) {
                  OutputStream out = to.getOutputStream();
                  int n;
                  while ((n = in.read(buf)) > 0) {
                    synchronized (copy) {
                      copy.write(buf, 0, n);
                    }
                    out.write(buf, 0, n);
                  }
                  to.shutdownOutput();
                } catch (IOException ignored) {
                  // one side went away; the other pump ends too
                }
              },
              "tls-test-pump");
      t.setDaemon(true);
      t.start();
      return t;
    }

    /** Waits for every relayed connection to end (the client closed them). */
    void awaitQuiet() throws InterruptedException {
      List<Thread> all;
      synchronized (this) {
        all = List.copyOf(pumps);
      }
      for (Thread t : all) {
        t.join(10_000);
      }
    }

    byte[] toServer() {
      synchronized (toServer) {
        return toServer.toByteArray();
      }
    }

    byte[] toClient() {
      synchronized (toClient) {
        return toClient.toByteArray();
      }
    }

    @Override
    public void close() throws IOException {
      listener.close();
      synchronized (this) {
        for (Socket s : sockets) {
          s.close();
        }
      }
    }
  }
}
