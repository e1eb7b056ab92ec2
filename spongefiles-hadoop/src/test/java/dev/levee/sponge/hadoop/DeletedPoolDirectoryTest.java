package dev.levee.sponge.hadoop;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.testing.TempDirs;
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
 * the directory alone.
 */
@Timeout(60)
class DeletedPoolDirectoryTest {
  private Path work;
  private LocalSponge sponge;

  @BeforeEach
  void setUp() throws Exception {
    work = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "deleted-pool");
    sponge = LocalSponge.start(work);
  }

  @AfterEach
  void tearDown() {
    sponge.close();
    TempDirs.deleteRecursively(work);
  }

  @Test
  void aTaskNeverRecreatesAPoolDeletedUnderItsServer() throws Exception {
    JobConf job = sponge.configure(new JobConf(false));
    TaskAttemptID reduce = TaskAttemptID.forName("attempt_1_0001_r_000000_0");
    Path pool = work.resolve("pool");

    SpongeAttacher.Attachment before = SpongeAttacher.attach(job, reduce);
    assertTrue(before.available(), "the server's pool attaches: " + before.unavailableReason());
    before.fs().close();

    TempDirs.deleteRecursively(pool);
    SpongeAttacher.Attachment after = SpongeAttacher.attach(job, reduce);
    assertFalse(after.available(), "a task attached a pool no server serves");
    assertTrue(
        after.unavailableReason().contains(pool.toString())
            && after.unavailableReason().contains("only this node's sponge server creates"),
        after.unavailableReason());
    assertFalse(Files.exists(pool), "the task re-created the deleted pool directory");
  }
}
