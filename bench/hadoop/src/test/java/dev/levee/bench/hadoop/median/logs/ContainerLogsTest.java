package dev.levee.bench.hadoop.median.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContainerLogsTest {
  @TempDir Path root;

  private Path container(String nm, String app, String container, String shuffleLog)
      throws Exception {
    Path dir =
        Files.createDirectories(
            root.resolve("levee/yarn-1/levee-logDir-" + nm + "/" + app + "/" + container));
    Files.writeString(dir.resolve(ContainerLogs.SHUFFLE_LOG), shuffleLog);
    return dir.resolve(ContainerLogs.SHUFFLE_LOG);
  }

  @Test
  void findsTheShuffleLogOfTheAttemptAmongOtherApplicationsAndContainers() throws Exception {
    TaskAttemptID attempt = TaskAttemptID.forName("attempt_1795315304466_0002_r_000000_0");
    String fetcher =
        "2026-11-22 02:43:10,473 INFO [EventFetcher for fetching Map Completion Events] "
            + "org.apache.hadoop.mapreduce.task.reduce.EventFetcher: attempt_1795315304466_0002_r_000000_0 Thread started\n";
    String merge =
        String.join(
            "\n",
            "2026-11-22 02:43:10,971 INFO [main] org.apache.hadoop.mapreduce.task.reduce.MergeManagerImpl: "
                + "Merging 12 files, 100000072 bytes from disk",
            "2026-11-22 02:43:10,985 INFO [main] org.apache.hadoop.mapred.Merger: "
                + "Merging 3 intermediate segments out of a total of 12",
            "2026-11-22 02:43:13,923 INFO [main] org.apache.hadoop.mapred.Merger: "
                + "Down to the last merge-pass, with 10 segments left of total size: 99999920 bytes",
            "");
    // The same attempt name in another application's log (an earlier job) must not match.
    container(
        "nm-0_0",
        "application_1795315304466_0001",
        "container_1795315304466_0001_01_000015",
        fetcher.replace("_0002_", "_0001_"));
    container(
        "nm-1_0",
        "application_1795315304466_0002",
        "container_1795315304466_0002_01_000003",
        "map log\n");
    Path mine =
        container(
            "nm-2_0",
            "application_1795315304466_0002",
            "container_1795315304466_0002_01_000014",
            fetcher + merge);

    ContainerLogs logs = new ContainerLogs(root);
    assertEquals(mine, logs.shuffleLog(attempt).orElseThrow());
    assertEquals(2, logs.mergePasses(attempt).orElseThrow().rounds());
    assertTrue(
        logs.shuffleLog(TaskAttemptID.forName("attempt_1795315304466_0003_r_000000_0")).isEmpty());
  }
}
