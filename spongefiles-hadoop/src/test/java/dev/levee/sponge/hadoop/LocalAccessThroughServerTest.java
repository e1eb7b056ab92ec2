package dev.levee.sponge.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.levee.sponge.SpongeFile;
import dev.levee.sponge.SpongeFileSystem;
import dev.levee.sponge.Tier;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.tier.StoredChunk;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.Random;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 13, item 2: a task that may not map its node's pool (on a secure cluster it runs as the
 * job's user, and the pool is private to the sponge server's user) still spills to its node's
 * memory, through the node's sponge server over loopback, with a capability per chunk; and the
 * server's garbage collector keeps those chunks while the task lives although the task holds no
 * lease in the pool.
 */
@Timeout(60)
class LocalAccessThroughServerTest {
  private static final TaskAttemptID REDUCE = TaskAttemptID.forName("attempt_1_0001_r_000000_0");

  private LocalSponge sponge;

  @BeforeEach
  void setUp() throws Exception {
    sponge = LocalSponge.startInTempDir("via-server");
  }

  @AfterEach
  void tearDown() {
    sponge.close();
  }

  @Test
  void serverAccessStoresLocalChunksInTheNodesServerAndKeepsThemWhileTheTaskLives()
      throws Exception {
    JobConf job = sponge.configure(new JobConf(false));
    job.set(SpongeConf.LOCAL_ACCESS.name(), "server");
    SpongeAttacher.Attachment a = SpongeAttacher.attach(job, REDUCE);
    assertTrue(a.available(), "server access needs only the server: " + a.unavailableReason());
    try (SpongeFileSystem fs = a.fs()) {
      assertFalse(fs.localPool().isPresent(), "server access must not map the pool");
      assertEquals(sponge.node().address(), fs.localServer().orElseThrow());
      roundTripThroughTheServer(fs);
    }
    assertEquals(
        LocalSponge.POOL_CHUNKS,
        sponge.node().metrics().getChunksFree(),
        "closing the task's sponge frees its chunks in the server's pool");
  }

  /**
   * The secure-cluster case itself: the pool directory belongs to another user than the task's.
   * Changing a directory's owner needs root, so elsewhere this case is skipped; the mechanism is
   * the same as in {@link DeletedPoolDirectoryTest}, which any user runs.
   */
  @Test
  void autoAccessGoesThroughTheServerWhenThePoolBelongsToAnotherUser() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "changing an owner needs root");
    Path pool = sponge.poolDir();
    UserPrincipal nobody =
        pool.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
    UserPrincipal owner = Files.getOwner(pool);
    Files.setOwner(pool, nobody);
    try {
      JobConf direct = sponge.configure(new JobConf(false));
      direct.set(SpongeConf.LOCAL_ACCESS.name(), "direct");
      SpongeAttacher.Attachment refused = SpongeAttacher.attach(direct, REDUCE);
      assertFalse(refused.available(), "a pool of another user was mapped");
      assertTrue(
          refused.unavailableReason().contains(pool.toString()), refused.unavailableReason());

      SpongeAttacher.Attachment a =
          SpongeAttacher.attach(sponge.configure(new JobConf(false)), REDUCE);
      assertTrue(
          a.available(), "auto access must fall back to the server: " + a.unavailableReason());
      try (SpongeFileSystem fs = a.fs()) {
        assertFalse(fs.localPool().isPresent());
        roundTripThroughTheServer(fs);
      }
    } finally {
      Files.setOwner(pool, owner);
    }
  }

  /** Three and a half chunks through the server: stored there, kept by a GC round, read back. */
  private void roundTripThroughTheServer(SpongeFileSystem fs) throws Exception {
    byte[] data = new byte[LocalSponge.CHUNK * 7 / 2];
    new Random(13).nextBytes(data);
    SpongeFile file = fs.create("via-server");
    try (OutputStream out = file.output()) {
      out.write(data);
    }
    assertEquals(4, file.chunks().size());
    for (StoredChunk c : file.chunks()) {
      assertEquals(Tier.LOCAL_SERVER, c.tier(), "chunk not in the node's memory: " + c);
    }
    assertEquals(LocalSponge.POOL_CHUNKS - 4, sponge.node().metrics().getChunksFree());

    // The task holds no lease in the pool; its renewals with the server keep it alive.
    sponge.node().collectGarbage();
    assertEquals(
        LocalSponge.POOL_CHUNKS - 4,
        sponge.node().metrics().getChunksFree(),
        "the GC freed the chunks of a live task that stores through the server");

    byte[] back;
    try (InputStream in = file.input()) {
      back = in.readAllBytes();
    }
    assertArrayEquals(data, back);
    assertEquals(Long.valueOf(data.length), fs.metrics().asMap().get("local_server.bytes_read"));
    file.delete();
    assertEquals(LocalSponge.POOL_CHUNKS, sponge.node().metrics().getChunksFree());
  }
}
