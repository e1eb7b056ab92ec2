package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.client.ClientIdentity;
import dev.levee.sponge.client.ClientSettings;
import dev.levee.sponge.client.RemoteChunk;
import dev.levee.sponge.client.RemoteChunkHandle;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.discovery.StaticServerList;
import dev.levee.sponge.protocol.Capability;
import dev.levee.sponge.protocol.Frame;
import dev.levee.sponge.protocol.FrameCodec;
import dev.levee.sponge.protocol.Handshake;
import dev.levee.sponge.protocol.Op;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.protocol.Status;
import dev.levee.sponge.testing.TempDirs;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Authentication on the wire (issue 13, items 10 and 11): a replayed READ is refused, quotas are
 * charged to the proven application, unknown applications and non-servers are refused.
 */
@Timeout(60)
class AuthenticationTest {
  private static final String APP = "application_1_0001";
  private static final byte[] APP_SECRET = "job-token-secret-of-app-1".getBytes();
  private Path dir;
  private Path secretFile;
  private byte[] clusterSecret;
  private SpongeService node;
  private SpongeServerAddress server;

  @BeforeEach
  void setUp() throws IOException {
    dir = TempDirs.newShmDir("auth");
    clusterSecret = new byte[32];
    new Random(3).nextBytes(clusterSecret);
    secretFile = TestNodes.secretFile(clusterSecret);
    Configuration conf = TestNodes.conf(dir, 8);
    conf.set(SpongeConf.AUTH_REQUIRED.name(), "true");
    conf.set(SpongeConf.AUTH_SECRET_FILE.name(), secretFile.toString());
    conf.set(SpongeConf.QUOTA_CHUNKS_PER_APP.name(), "4");
    node = SpongeService.start(SpongeServerConfig.from(conf));
    server = node.address();
    node.secrets().register(APP, APP_SECRET);
  }

  @AfterEach
  void tearDown() throws IOException {
    node.close();
    TempDirs.deleteRecursively(dir);
    Files.deleteIfExists(secretFile);
  }

  private SpongeClient client(String app, Handshake.Credential credential) {
    return new SpongeClient(
        ClientIdentity.ofCurrentProcess(app, "127.0.0.1:1", null),
        new StaticServerList(List.of(new ServerListEntry(server, 1, 1))),
        new ClientSettings(2000, 5000, TestNodes.CHUNK, 2).withCredential(credential));
  }

  private static Handshake.Credential app(String id, byte[] secret) {
    return new Handshake.Credential(Handshake.Kind.APPLICATION, id, secret);
  }

  private static byte[] frame(Op op, byte[] payload) {
    return FrameCodec.encode(op.code(), 1, payload);
  }

  private Frame exchange(Socket s, byte[] frame) throws IOException {
    s.getOutputStream().write(frame);
    return FrameCodec.read(new DataInputStream(s.getInputStream()), 1 << 20);
  }

  @Test
  void aReplayedReadOrHandshakeOnANewConnectionIsRefused() throws IOException {
    ByteBuffer data = TestNodes.randomBytes(3000, 1);
    try (SpongeClient owner = client(APP, app(APP, APP_SECRET))) {
      RemoteChunkHandle chunk =
          (RemoteChunkHandle) owner.store(server, data.duplicate()).orElseThrow();
      ByteBuffer back = ByteBuffer.allocate(3000);
      owner.read(chunk, back);
      assertEquals(data, back.flip(), "the owner reads its chunk on its authenticated connection");

      // What an eavesdropper saw: the READ (index and capability) and a handshake's proof.
      byte[] read =
          frame(
              Op.READ,
              ByteBuffer.allocate(4 + Capability.BYTES)
                  .putInt(chunk.index())
                  .put(chunk.capability().bytes())
                  .array());
      ByteBuffer oldProof = Handshake.authenticateRequest(app(APP, APP_SECRET), Handshake.nonce());
      byte[] replayedAuth = new byte[oldProof.remaining()];
      oldProof.get(replayedAuth);
      int served = 0;
      for (int i = 0; i < 10; i++) {
        try (Socket s = new Socket(server.host(), server.port())) {
          s.setSoTimeout(5000);
          Frame f = exchange(s, read);
          served += f.code() == Status.OK.code() ? 1 : 0;
          assertEquals(Status.UNAUTHENTICATED, Status.fromCode(f.code()));
          assertEquals(
              Status.OK, Status.fromCode(exchange(s, frame(Op.CHALLENGE, new byte[0])).code()));
          assertEquals(
              Status.UNAUTHENTICATED,
              Status.fromCode(exchange(s, frame(Op.AUTHENTICATE, replayedAuth)).code()),
              "a proof over another connection's nonce");
          served += exchange(s, read).code() == Status.OK.code() ? 1 : 0;
        }
      }
      assertEquals(0, served, "replayed READs served");
      owner.free(chunk);
    }
  }

  @Test
  void quotaIsChargedToTheProvenApplicationAndIdCyclingGetsNothing() throws IOException {
    try (SpongeClient owner = client(APP, app(APP, APP_SECRET))) {
      int stored = 0;
      for (int i = 0; i < 8; i++) {
        stored += owner.store(server, TestNodes.randomBytes(100, i)).isPresent() ? 1 : 0;
      }
      assertEquals(4, stored, "the quota of 4 holds for the authenticated application");
    }
    for (int i = 0; i < 8; i++) {
      // Another application id on a connection proven as APP: refused, not charged to anyone.
      try (SpongeClient cycler = client("application_1_100" + i, app(APP, APP_SECRET))) {
        IOException e =
            assertThrows(
                IOException.class, () -> cycler.store(server, TestNodes.randomBytes(100, 9)));
        assertTrue(e.toString().contains("UNAUTHENTICATED"), e.toString());
      }
    }
    assertEquals(4, node.metrics().getRemoteChunksHeld());
    node.releaseApplication(APP);
  }

  /**
   * A free whose handshake the server refuses is an error, not the quiet "its server is gone" a
   * free on an unreachable server is: the chunk is still held, and silence would hide a wrong
   * secret (the container tier's intruder saw such frees "succeed").
   */
  @Test
  void aFreeOnAConnectionThatFailedItsHandshakeFailsAndFreesNothing() throws IOException {
    try (SpongeClient task = client(APP, app(APP, APP_SECRET));
        SpongeClient impostor = client(APP, app(APP, "guess".getBytes()))) {
      RemoteChunk c = task.store(server, TestNodes.randomBytes(10, 1)).orElseThrow();
      IOException e = assertThrows(IOException.class, () -> impostor.free(c));
      assertTrue(
          e.getMessage().startsWith("cannot free ") && e.toString().contains("UNAUTHENTICATED"),
          e.toString());
      assertEquals(7, task.freeSpace(server).freeChunks(), "the chunk is still held");
      ByteBuffer back = ByteBuffer.allocate(10);
      task.read(c, back);
      assertEquals(TestNodes.randomBytes(10, 1), back.flip(), "and still readable by its owner");
      task.free(c);
    }
  }

  @Test
  void unknownApplicationsUnauthenticatedClientsAndNonServersAreRefused() throws IOException {
    try (SpongeClient stranger =
        client("application_1_0002", app("application_1_0002", "guess".getBytes()))) {
      IOException e =
          assertThrows(
              IOException.class, () -> stranger.store(server, TestNodes.randomBytes(10, 1)));
      assertTrue(e.toString().contains("UNAUTHENTICATED"), e.toString());
    }
    try (SpongeClient anonymous = client(APP, null)) {
      IOException e =
          assertThrows(
              IOException.class, () -> anonymous.store(server, TestNodes.randomBytes(10, 1)));
      assertTrue(e.toString().contains("requires an authenticated connection"), e.toString());
      assertEquals(8, anonymous.freeSpace(server).freeChunks(), "FREE_SPACE stays public");
    }
    try (SpongeClient task = client(APP, app(APP, APP_SECRET))) {
      IOException e =
          assertThrows(
              IOException.class, () -> task.isAlive(server, ProcessHandle.current().pid()));
      assertTrue(e.toString().contains("only servers may ask"), e.toString());
    }
    Handshake.Credential peer =
        new Handshake.Credential(Handshake.Kind.SERVER, "127.0.0.1:9", clusterSecret);
    try (SpongeClient otherServer = client("sponge-server", peer)) {
      assertTrue(otherServer.isAlive(server, ProcessHandle.current().pid()));
    }
    // Outside YARN: an application proves the secret derived from the cluster's.
    byte[] derived = Handshake.derivedApplicationSecret(clusterSecret, "daemon-app");
    try (SpongeClient daemonApp = client("daemon-app", app("daemon-app", derived))) {
      RemoteChunk c = daemonApp.store(server, TestNodes.randomBytes(10, 1)).orElseThrow();
      daemonApp.free(c);
    }
  }

  @Test
  void theJobTokenTheNodeManagerHandsOverIsTheSecret() throws IOException {
    byte[] password = "shuffle-secret".getBytes();
    Token<?> token =
        new Token<>("id".getBytes(), password, new Text("mapreduce.job"), new Text(""));
    DataOutputBuffer out = new DataOutputBuffer();
    token.write(out);
    ByteBuffer serviceData = ByteBuffer.wrap(out.getData(), 0, out.getLength());
    assertArrayEquals(password, JobTokenServiceData.secret(serviceData).orElseThrow());
    assertTrue(JobTokenServiceData.secret(ByteBuffer.allocate(0)).isEmpty());
    assertTrue(JobTokenServiceData.secret(ByteBuffer.wrap(new byte[] {1, 2, 3})).isEmpty());
  }

  /**
   * A task's job secret is known only where its application started a container. Its own node's
   * server, having checked that secret, grants the cluster-derived one, which a server that never
   * heard of the application accepts: with authentication required, remote memory reaches every
   * node, not only those the job runs on.
   */
  @Test
  void theGrantedDerivedSecretAuthenticatesOnNodesTheJobNeverStartedOn() throws IOException {
    Path dirB = TempDirs.newShmDir("auth-b");
    Configuration conf = TestNodes.conf(dirB, 8);
    conf.set(SpongeConf.AUTH_REQUIRED.name(), "true");
    conf.set(SpongeConf.AUTH_SECRET_FILE.name(), secretFile.toString());
    try (SpongeService elsewhere = SpongeService.start(SpongeServerConfig.from(conf))) {
      SpongeServerAddress b = elsewhere.address();
      byte[] granted;
      try (SpongeClient task = client(APP, app(APP, APP_SECRET))) {
        IOException refused =
            assertThrows(IOException.class, () -> task.store(b, TestNodes.randomBytes(10, 1)));
        assertTrue(refused.toString().contains("UNAUTHENTICATED"), refused.toString());
        granted = task.grantSecret(server);
      }
      assertArrayEquals(Handshake.derivedApplicationSecret(clusterSecret, APP), granted);
      try (SpongeClient task = client(APP, app(APP, granted))) {
        RemoteChunk onB = task.store(b, TestNodes.randomBytes(10, 2)).orElseThrow();
        RemoteChunk onA = task.store(server, TestNodes.randomBytes(10, 3)).orElseThrow();
        ByteBuffer back = ByteBuffer.allocate(10);
        task.read(onB, back);
        assertEquals(TestNodes.randomBytes(10, 2), back.flip());
        task.free(onB);
        task.free(onA);
        // Holding the derived secret is not holding the job's: it is never granted onwards.
        IOException again = assertThrows(IOException.class, () -> task.grantSecret(server));
        assertTrue(again.getMessage().contains("job) secret"), again.getMessage());
      }
    } finally {
      TempDirs.deleteRecursively(dirB);
    }
  }

  /**
   * Issue 28: the derived secret never expired on nodes where the application never ran. Such a
   * node asks who knows (the ResourceManager, for a NodeManager's server) and, once the application
   * has ended, refuses its derived secret on every new connection, also where it ran (whose
   * NodeManager voids the job secret only when it stops the application there).
   */
  @Test
  void aDerivedSecretIsVoidOnceTheApplicationHasEnded() throws IOException {
    Path dirB = TempDirs.newShmDir("auth-ended");
    Configuration conf = TestNodes.conf(dirB, 8);
    conf.set(SpongeConf.AUTH_REQUIRED.name(), "true");
    conf.set(SpongeConf.AUTH_SECRET_FILE.name(), secretFile.toString());
    java.util.Set<String> endedApps = java.util.concurrent.ConcurrentHashMap.newKeySet();
    java.util.concurrent.atomic.AtomicInteger asked =
        new java.util.concurrent.atomic.AtomicInteger();
    node.secrets().endedWhen(a -> asked.incrementAndGet() > 0 && endedApps.contains(a));
    try (SpongeService elsewhere = SpongeService.start(SpongeServerConfig.from(conf))) {
      java.util.concurrent.atomic.AtomicInteger askedOnB =
          new java.util.concurrent.atomic.AtomicInteger();
      elsewhere.secrets().endedWhen(a -> askedOnB.incrementAndGet() > 0 && endedApps.contains(a));
      SpongeServerAddress b = elsewhere.address();
      // A wrong proof never makes the server ask (for a NodeManager, a ResourceManager call).
      try (SpongeClient liar = client(APP, app(APP, "not-the-secret".getBytes()))) {
        assertThrows(IOException.class, () -> liar.store(b, TestNodes.randomBytes(10, 9)));
      }
      assertEquals(0, askedOnB.get(), "asked only after a proof matched the derived secret");
      byte[] derived = Handshake.derivedApplicationSecret(clusterSecret, APP);
      try (SpongeClient task = client(APP, app(APP, derived))) {
        RemoteChunk running = task.store(b, TestNodes.randomBytes(10, 1)).orElseThrow();
        task.free(running);
      }
      endedApps.add(APP);
      try (SpongeClient late = client(APP, app(APP, derived))) {
        IOException refused =
            assertThrows(IOException.class, () -> late.store(b, TestNodes.randomBytes(10, 2)));
        assertTrue(refused.toString().contains("UNAUTHENTICATED"), refused.toString());
        IOException refusedHere =
            assertThrows(IOException.class, () -> late.store(server, TestNodes.randomBytes(10, 3)));
        assertTrue(refusedHere.toString().contains("UNAUTHENTICATED"), refusedHere.toString());
        assertTrue(asked.get() > 0, "a node running the application asks too");
      }
      // Where the application ran, its job secret stays until the NodeManager stops it there.
      try (SpongeClient own = client(APP, app(APP, APP_SECRET))) {
        RemoteChunk here = own.store(server, TestNodes.randomBytes(10, 4)).orElseThrow();
        own.free(here);
      }
    } finally {
      TempDirs.deleteRecursively(dirB);
    }
  }

  @Test
  void theSecretIsGrantedOnlyToAConnectionThatProvedTheJobsSecret() throws IOException {
    try (SpongeClient anonymous = client(APP, null)) {
      IOException e = assertThrows(IOException.class, () -> anonymous.grantSecret(server));
      assertTrue(e.getMessage().contains("GRANT_SECRET refused"), e.getMessage());
    }
    try (SpongeClient otherApp =
        client("application_1_0002", app("application_1_0002", APP_SECRET))) {
      assertThrows(IOException.class, () -> otherApp.grantSecret(server), "wrong proof");
    }
    // A server without a cluster secret has nothing other servers could check.
    Path dirC = TempDirs.newShmDir("auth-c");
    Configuration conf = TestNodes.conf(dirC, 8); // requiring authentication needs the file
    try (SpongeService noClusterSecret = SpongeService.start(SpongeServerConfig.from(conf));
        SpongeClient task =
            new SpongeClient(
                ClientIdentity.ofCurrentProcess(APP, "127.0.0.1:1", null),
                new StaticServerList(List.of()),
                new ClientSettings(2000, 5000, TestNodes.CHUNK, 2)
                    .withCredential(app(APP, APP_SECRET)))) {
      noClusterSecret.secrets().register(APP, APP_SECRET);
      IOException e =
          assertThrows(IOException.class, () -> task.grantSecret(noClusterSecret.address()));
      assertTrue(e.getMessage().contains(SpongeConf.AUTH_SECRET_FILE.name()), e.getMessage());
    } finally {
      TempDirs.deleteRecursively(dirC);
    }
  }
}
