package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.client.RemoteChunk;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.testing.ChildJvm;
import dev.levee.sponge.testing.TempDirs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.IntSupplier;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Chunks of owners killed with SIGKILL go back to the pool within one GC period; live owners keep
 * theirs.
 */
@Timeout(120)
class OrphanCollectionTest {
  private static final int CHUNKS = 32;
  private static final long GC_PERIOD_MS = 500;
  private Path dirA;
  private Path dirB;
  private Path stderr;
  private SpongeService a;
  private SpongeService b;

  @BeforeEach
  void setUp() throws IOException {
    dirA = TempDirs.newShmDir("gc-a");
    dirB = TempDirs.newShmDir("gc-b");
    stderr = Path.of(System.getProperty("java.io.tmpdir"), "sponge-gc-children.err");
    Files.createDirectories(stderr.getParent());
    b = SpongeService.start(SpongeServerConfig.from(conf(dirB)));
    // Without ZooKeeper a server asks only the owner nodes it is told about (issue 13, item 7).
    Configuration ca = conf(dirA);
    ca.set(SpongeConf.GC_OWNER_NODES.name(), b.nodeName());
    a = SpongeService.start(SpongeServerConfig.from(ca));
  }

  private static Configuration conf(Path dir) {
    Configuration c = TestNodes.conf(dir, CHUNKS);
    c.set(SpongeConf.GC_PERIOD_MS.name(), Long.toString(GC_PERIOD_MS));
    return c;
  }

  @AfterEach
  void tearDown() {
    a.close();
    b.close();
    TempDirs.deleteRecursively(dirA);
    TempDirs.deleteRecursively(dirB);
  }

  @Test
  void localOwnerKilledMidTaskIsReclaimedWithinOneGcPeriod() throws Exception {
    try (ChildJvm task =
        ChildJvm.start(
            SpongeChild.class,
            stderr,
            "local",
            dirA.toString(),
            Long.toString((long) CHUNKS * TestNodes.CHUNK),
            Integer.toString(TestNodes.CHUNK),
            TestNodes.OWNER_HOST,
            "10")) {
      assertEquals("HOLDING 10", task.awaitLine("HOLDING"));
      assertEquals(CHUNKS - 10, a.metrics().getChunksFree());
      Thread.sleep(2 * GC_PERIOD_MS);
      assertEquals(
          CHUNKS - 10,
          a.metrics().getChunksFree(),
          "a live owner keeps its chunks across GC rounds");
      task.kill9();
      long reclaimedAfter = awaitFree(() -> a.metrics().getChunksFree(), CHUNKS);
      assertTrue(reclaimedAfter <= GC_PERIOD_MS + 300, "reclaimed after " + reclaimedAfter + " ms");
      assertEquals(10, a.metrics().getGcReclaimedChunks());
    }
  }

  /**
   * Issue 13, item 2: a task of this node that may not map the pool stores through the server
   * (levee.sponge.local.access=server). It holds no lease in the pool, so the collector judged it
   * dead and freed its live chunks at the next round; now its lease with the server keeps them, and
   * once it dies they come back one grace period after its last renewal.
   */
  @Test
  void anOwnerOfThisNodeStoringThroughTheServerKeepsItsChunksWhileItLives() throws Exception {
    Path dirC = TempDirs.newShmDir("gc-c");
    Configuration cc = conf(dirC);
    long grace = 1500;
    cc.set(SpongeConf.GC_PEER_GRACE_MS.name(), Long.toString(grace));
    try (SpongeService c = SpongeService.start(SpongeServerConfig.from(cc));
        ChildJvm task =
            ChildJvm.start(
                SpongeChild.class,
                stderr,
                "remote",
                c.address().host(),
                Integer.toString(c.address().port()),
                c.nodeName(),
                "5")) {
      assertEquals("HOLDING 5", task.awaitLine("HOLDING"));
      c.collectGarbage();
      c.collectGarbage();
      assertEquals(
          CHUNKS - 5,
          c.metrics().getChunksFree(),
          "a live task of this node lost the chunks it stored through the server");
      task.kill9();
      awaitFree(() -> c.metrics().getChunksFree(), CHUNKS); // fails after 30 s
    } finally {
      TempDirs.deleteRecursively(dirC);
    }
  }

  @Test
  void remoteOwnerKilledIsReclaimedAfterAskingItsNode() throws Exception {
    // This JVM holds chunks on A too, as a remote client of node B: they must survive every GC
    // round.
    try (SpongeClient liveClient =
            TestNodes.client("application_1_0002", b.nodeName(), List.of(a.address()));
        ChildJvm task =
            ChildJvm.start(
                SpongeChild.class,
                stderr,
                "remote",
                a.address().host(),
                Integer.toString(a.address().port()),
                b.nodeName(),
                "6")) {
      RemoteChunk kept =
          liveClient.store(a.address(), TestNodes.randomBytes(777, 3).duplicate()).orElseThrow();
      assertEquals("HOLDING 6", task.awaitLine("HOLDING"));
      assertEquals(CHUNKS - 7, a.metrics().getChunksFree());
      assertEquals(7, a.metrics().getRemoteChunksHeld());
      task.kill9();
      long reclaimedAfter = awaitFree(() -> a.metrics().getChunksFree(), CHUNKS - 1);
      assertTrue(reclaimedAfter <= GC_PERIOD_MS + 300, "reclaimed after " + reclaimedAfter + " ms");
      assertEquals(
          1, a.metrics().getRemoteChunksHeld(), "grants of reclaimed chunks are dropped too");
      Thread.sleep(2 * GC_PERIOD_MS);
      ByteBuffer back = ByteBuffer.allocate(777);
      liveClient.read(kept, back);
      assertEquals(
          TestNodes.randomBytes(777, 3), back.flip(), "the live remote owner's chunk is untouched");
    }
  }

  @Test
  void ownersOfAnUnreachableNodeAreKeptDuringTheGraceThenReclaimed() throws Exception {
    String deadNode = "127.0.0.1:1"; // nothing listens on port 1
    try (SpongeClient client =
        TestNodes.client("application_1_0003", deadNode, List.of(b.address()))) {
      client.store(b.address(), TestNodes.randomBytes(10, 1)).orElseThrow();
    }
    b.close();
    Configuration c = conf(dirB);
    c.set(SpongeConf.GC_PERIOD_MS.name(), "60000");
    c.set(SpongeConf.GC_PEER_GRACE_MS.name(), "1500");
    // A restarted server frees remote chunks it can no longer serve (their capabilities died with
    // it).
    b = SpongeService.start(SpongeServerConfig.from(c));
    assertEquals(CHUNKS, b.metrics().getChunksFree());

    try (SpongeClient client =
        TestNodes.client("application_1_0003", deadNode, List.of(b.address()))) {
      client.store(b.address(), TestNodes.randomBytes(10, 1)).orElseThrow();
    }
    assertEquals(
        0, b.collectGarbage(), "first failure to reach the owner's node starts the grace period");
    assertEquals(CHUNKS - 1, b.metrics().getChunksFree());
    Thread.sleep(1600);
    assertEquals(1, b.collectGarbage(), "after the grace period the owner counts as dead");
    assertEquals(CHUNKS, b.metrics().getChunksFree());
  }

  /** Waits until {@code free} reaches {@code expected}; returns the milliseconds it took. */
  private static long awaitFree(IntSupplier free, int expected) throws InterruptedException {
    long start = System.nanoTime();
    while (free.getAsInt() != expected) {
      if (System.nanoTime() - start > 30_000_000_000L) {
        throw new AssertionError(
            "free chunks stayed at " + free.getAsInt() + ", expected " + expected);
      }
      Thread.sleep(20);
    }
    return (System.nanoTime() - start) / 1_000_000;
  }
}
