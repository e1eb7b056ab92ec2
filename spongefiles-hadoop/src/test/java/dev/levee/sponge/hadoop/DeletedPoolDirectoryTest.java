package dev.levee.sponge.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.SpongeFile;
import dev.levee.sponge.SpongeFileSystem;
import dev.levee.sponge.Tier;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.testing.TempDirs;
import dev.levee.sponge.tier.StoredChunk;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 13: a pool directory deleted under the running sponge server split the node in two. The
 * next task made a new pool there that no server served (no collector for its dead tasks' chunks,
 * no remote serving, and tasks on either side unable to see each other's memory). Only the server
 * creates a pool now: a task that finds no pool falls back to its next tier, saying why, and leaves
 * the directory alone (with {@code levee.sponge.local.access=auto}, the default, it asks the
 * server, which has no room in a pool it stopped using).
 */
@Timeout(60)
class DeletedPoolDirectoryTest {
  private LocalSponge sponge;

  @BeforeEach
  void setUp() throws Exception {
    sponge = LocalSponge.startInTempDir("deleted-pool");
  }

  @AfterEach
  void tearDown() {
    sponge.close();
  }

  @Test
  void aTaskNeverRecreatesAPoolDeletedUnderItsServer() throws Exception {
    JobConf job = sponge.configure(new JobConf(false));
    TaskAttemptID reduce = TaskAttemptID.forName("attempt_1_0001_r_000000_0");
    Path pool = sponge.poolDir();

    SpongeAttacher.Attachment before = SpongeAttacher.attach(job, reduce);
    assertTrue(before.available(), "the server's pool attaches: " + before.unavailableReason());
    before.fs().close();

    TempDirs.deleteRecursively(pool);
    job.set(SpongeConf.LOCAL_ACCESS.name(), "direct");
    SpongeAttacher.Attachment direct = SpongeAttacher.attach(job, reduce);
    assertFalse(direct.available(), "a task attached a pool no server serves");
    assertTrue(
        direct.unavailableReason().contains(pool.toString())
            && direct.unavailableReason().contains("only this node's sponge server creates"),
        direct.unavailableReason());
    assertFalse(Files.exists(pool), "the task re-created the deleted pool directory");

    // The default (auto) goes through the server instead, which answers from its own pool: no
    // room in a pool it stopped using, so every chunk goes to the next tier.
    job.set(SpongeConf.LOCAL_ACCESS.name(), "auto");
    sponge.node().collectGarbage(); // the server notices that its pool is gone
    SpongeAttacher.Attachment auto = SpongeAttacher.attach(job, reduce);
    assertTrue(auto.available(), auto.unavailableReason());
    try (SpongeFileSystem fs = auto.fs()) {
      assertFalse(fs.localPool().isPresent(), "a task mapped a pool after its directory went");
      SpongeFile file = fs.create("after-delete");
      try (OutputStream out = file.output()) {
        out.write(new byte[LocalSponge.CHUNK * 2]);
      }
      assertEquals(2, file.chunks().size());
      for (StoredChunk c : file.chunks()) {
        assertEquals(Tier.LOCAL_DISK, c.tier(), "a chunk went to a pool no server uses: " + c);
      }
      file.delete();
    }
    assertFalse(Files.exists(pool), "the task re-created the deleted pool directory");
  }
}
