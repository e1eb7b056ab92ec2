package dev.levee.sponge.hadoop;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.server.SpongeNodeDescriptor;
import dev.levee.sponge.testing.TempDirs;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A reduce on a node whose NodeManager died with SIGKILL finds the descriptor it left behind: the
 * task treats the node as having no sponge server (stock spilling, with the reason), instead of
 * pointing its merge at a dead port.
 */
@Timeout(60)
class StaleNodeDescriptorTest {
  private Path localDirs;

  @BeforeEach
  void setUp() throws Exception {
    localDirs =
        Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "nm-stale");
  }

  @AfterEach
  void tearDown() {
    TempDirs.deleteRecursively(localDirs);
  }

  @Test
  void aStaleDescriptorMeansNoLocalServerAndIsReportedOnce() throws Exception {
    Path nmDir = localDirs.resolve("nm");
    Path descriptor = SpongeNodeDescriptor.in(nmDir);
    int deadPort;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      deadPort = s.getLocalPort(); // closed again before the task looks: nothing listens there
    }
    new SpongeNodeDescriptor(
            localDirs.resolve("pool"),
            8L << 20,
            1 << 20,
            "127.0.0.1",
            "127.0.0.1",
            deadPort,
            null,
            "",
            "/levee/sponge",
            999_999_999L,
            true)
        .writeTo(descriptor);

    JobConf job = new JobConf(false);
    job.set(
        MRConfig.LOCAL_DIR,
        nmDir.resolve("usercache/alice/appcache/application_1_0001").toString());
    TaskAttemptID reduce = TaskAttemptID.forName("attempt_1_0001_r_000000_0");

    SpongeAttacher.Attachment first = SpongeAttacher.attach(job, reduce);
    assertFalse(first.available(), "no sponge server on this node: stock spilling");
    String reason = first.unavailableReason();
    assertTrue(
        reason.contains(descriptor + " is stale")
            && reason.contains("127.0.0.1:" + deadPort)
            && reason.contains("server process 999999999 is gone"),
        reason);

    SpongeAttacher.Attachment second = SpongeAttacher.attach(job, reduce);
    assertFalse(second.available());
    assertFalse(
        SpongeAttacher.warnStaleOnce(descriptor, "again"),
        "the stale descriptor was already reported once");
  }
}
