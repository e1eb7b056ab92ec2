package dev.levee.bench.hadoop.median.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FinalMergeTimeTest {
  private static final String ATTEMPT = "attempt_1795333072959_0002_r_000000_0";
  private static final String DONE =
      "2026-11-22 07:40:02,374 INFO [main] org.apache.hadoop.mapred.Task: Task:"
          + ATTEMPT
          + " is done. And is in the process of committing";

  @TempDir Path root;

  @Test
  void stockIsTimedFromFinalMergeCalledInTheShuffleLogToTheDoneLineInTheTasksSyslog()
      throws Exception {
    // Stock's container logging sends the merge manager to syslog.shuffle and the task's lines to
    // syslog.
    Path dir =
        Files.createDirectories(
            root.resolve("logDir-nm-1_0/application_1795333072959_0002/container_1"));
    Files.writeString(
        dir.resolve("syslog"),
        String.join(
            "\n",
            "2026-11-22 07:39:01,405 INFO [main] org.apache.hadoop.mapred.ReduceTask: Using ShuffleConsumerPlugin: "
                + "org.apache.hadoop.mapreduce.task.reduce.Shuffle@714465",
            DONE,
            ""));
    Files.writeString(
        dir.resolve(ContainerLogs.SHUFFLE_LOG),
        String.join(
            "\n",
            "2026-11-22 07:39:55,100 INFO [main] org.apache.hadoop.mapreduce.task.reduce.MergeManagerImpl: "
                + "finalMerge called with 0 in-memory map-outputs and 24 on-disk map-outputs",
            "2026-11-22 07:39:55,130 INFO [main] org.apache.hadoop.mapreduce.task.reduce.MergeManagerImpl: "
                + "Merging 24 files, 240000144 bytes from disk",
            ""));

    // The application master's syslog names the attempt too, and sorts first.
    Path am =
        Files.createDirectories(
            root.resolve("logDir-nm-0_0/application_1795333072959_0002/container_0"));
    Files.writeString(
        am.resolve("syslog"),
        "2026-11-22 07:40:02,500 INFO [AsyncDispatcher event handler] "
            + "org.apache.hadoop.mapreduce.v2.app.job.impl.TaskAttemptImpl: "
            + ATTEMPT
            + " TaskAttempt Transitioned from COMMIT_PENDING to SUCCESS_FINISHING_CONTAINER\n");

    List<String> lines = new ContainerLogs(root).attemptLines(TaskAttemptID.forName(ATTEMPT));
    assertEquals(7.274, FinalMergeTime.seconds(lines, ATTEMPT).orElseThrow(), 1e-9);
  }

  @Test
  void spongeFilesIsTimedFromItsMarkerLine() {
    List<String> lines =
        List.of(
            "2026-11-22 07:39:56,584 INFO [main] dev.levee.sponge.hadoop.SpongeMergeManager: "
                + ATTEMPT
                + ": final merge begins with 0 in-memory map outputs and 24 SpongeFile runs",
            DONE);
    assertEquals(5.79, FinalMergeTime.seconds(lines, ATTEMPT).orElseThrow(), 1e-9);
  }

  @Test
  void missingLinesOrAnotherAttemptsDoneLineGiveNothing() {
    String start =
        "2026-11-22 07:39:56,584 INFO [main] dev.levee.sponge.hadoop.SpongeMergeManager: "
            + ATTEMPT
            + ": final merge begins with 0 in-memory map outputs and 24 SpongeFile runs";
    assertTrue(FinalMergeTime.seconds(List.of(start), ATTEMPT).isEmpty());
    assertTrue(FinalMergeTime.seconds(List.of(DONE), ATTEMPT).isEmpty());
    assertTrue(
        FinalMergeTime.seconds(List.of(start, DONE.replace("_r_000000_0", "_r_000000_1")), ATTEMPT)
            .isEmpty());
  }
}
