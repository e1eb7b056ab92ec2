package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.client.ClientIdentity;
import dev.levee.sponge.client.ClientSettings;
import dev.levee.sponge.client.RemoteChunkHandle;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.discovery.StaticServerList;
import dev.levee.sponge.protocol.Capability;
import dev.levee.sponge.protocol.Handshake;
import dev.levee.sponge.testing.TempDirs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 28: what one authenticated application could learn about or do to another's chunks. A READ
 * or FREE with a junk capability told a held index (UNAUTHENTICATED, "authenticated as") from a
 * free one (NO_SUCH_CHUNK); a RENEW from one application kept another's dead owner alive.
 */
@Timeout(60)
class TenantIsolationTest {
  private static final String VICTIM = "application_1_0001";
  private static final String TENANT = "application_1_0002";
  private static final byte[] VICTIM_SECRET = "job-secret-of-the-victim".getBytes();
  private static final byte[] TENANT_SECRET = "job-secret-of-the-tenant".getBytes();
  private static final long GRACE_MS = 1000;
  private static final String DEAD_NODE = "127.0.0.1:1"; // nothing listens on port 1
  private Path dir;
  private Path secretFile;
  private SpongeService node;

  @BeforeEach
  void setUp() throws IOException {
    dir = TempDirs.newShmDir("tenants");
    Configuration conf = TestNodes.conf(dir, 8);
    conf.set(SpongeConf.AUTH_REQUIRED.name(), "true");
    secretFile = TestNodes.secretFile("a cluster secret of 32 bytes....".getBytes());
    conf.set(SpongeConf.AUTH_SECRET_FILE.name(), secretFile.toString());
    conf.set(SpongeConf.GC_PERIOD_MS.name(), "60000"); // rounds run by hand
    conf.set(SpongeConf.GC_PEER_GRACE_MS.name(), Long.toString(GRACE_MS));
    node = SpongeService.start(SpongeServerConfig.from(conf));
    node.secrets().register(VICTIM, VICTIM_SECRET);
    node.secrets().register(TENANT, TENANT_SECRET);
  }

  @AfterEach
  void tearDown() throws IOException {
    node.close();
    TempDirs.deleteRecursively(dir);
    Files.deleteIfExists(secretFile);
  }

  private SpongeClient client(String app, byte[] secret) {
    return new SpongeClient(
        ClientIdentity.ofCurrentProcess(app, DEAD_NODE, null),
        new StaticServerList(List.of(new ServerListEntry(node.address(), 1, 1))),
        new ClientSettings(2000, 5000, TestNodes.CHUNK, 2)
            .withCredential(new Handshake.Credential(Handshake.Kind.APPLICATION, app, secret)));
  }

  @Test
  void aJunkCapabilityTellsAHeldIndexFromAFreeOneNot() throws IOException {
    try (SpongeClient victim = client(VICTIM, VICTIM_SECRET);
        SpongeClient tenant = client(TENANT, TENANT_SECRET)) {
      RemoteChunkHandle held =
          (RemoteChunkHandle)
              victim.store(node.address(), TestNodes.randomBytes(100, 1)).orElseThrow();
      int free = (held.index() + 1) % 8;
      String onHeld = refusal(tenant, held.index());
      String onFree = refusal(tenant, free);
      assertFalse(onHeld.contains("authenticated as"), onHeld);
      assertEquals(
          onFree.replace(" " + free + " ", " N "), onHeld.replace(" " + held.index() + " ", " N "));
      assertTrue(onHeld.contains("NO_SUCH_CHUNK"), onHeld);
      victim.free(held);
    }
  }

  private String refusal(SpongeClient tenant, int index) {
    RemoteChunkHandle junk = new RemoteChunkHandle(node.address(), index, Capability.random(), 100);
    return assertThrows(IOException.class, () -> tenant.read(junk, ByteBuffer.allocate(100)))
        .getMessage();
  }

  @Test
  void anotherApplicationsRenewalDoesNotKeepADeadOwnerAlive() throws Exception {
    try (SpongeClient victim = client(VICTIM, VICTIM_SECRET);
        SpongeClient tenant = client(TENANT, TENANT_SECRET)) {
      // Same process, same owner node: the tenant's RENEW names exactly the victim's owner.
      victim.store(node.address(), TestNodes.randomBytes(100, 1)).orElseThrow();
      assertEquals(0, node.collectGarbage(), "the owner's node is unreachable: grace starts");
      long until = System.nanoTime() + 2 * GRACE_MS * 1_000_000L;
      while (System.nanoTime() < until) {
        tenant.renewOwnerLease(node.address());
        Thread.sleep(GRACE_MS / 5);
      }
      assertEquals(
          1, node.collectGarbage(), "another application's renewals kept the dead owner's chunk");
    }
  }

  @Test
  void theOwnersOwnApplicationStillRenewsIt() throws Exception {
    try (SpongeClient victim = client(VICTIM, VICTIM_SECRET)) {
      victim.store(node.address(), TestNodes.randomBytes(100, 1)).orElseThrow();
      assertEquals(0, node.collectGarbage());
      long until = System.nanoTime() + 2 * GRACE_MS * 1_000_000L;
      while (System.nanoTime() < until) {
        victim.renewOwnerLease(node.address());
        Thread.sleep(GRACE_MS / 5);
      }
      assertEquals(0, node.collectGarbage(), "the owner's own renewals must keep its chunk");
    }
  }
}
