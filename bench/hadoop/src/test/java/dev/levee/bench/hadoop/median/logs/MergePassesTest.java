package dev.levee.bench.hadoop.median.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class MergePassesTest {
  private static final String MM = "org.apache.hadoop.mapreduce.task.reduce.MergeManagerImpl";
  private static final String MERGER = "org.apache.hadoop.mapred.Merger";
  private static final String ON_DISK = "OnDiskMerger - Thread to merge on-disk map-outputs";
  private static final String IN_MEMORY =
      "InMemoryMerger - Thread to merge in-memory shuffled map-outputs";

  private static String line(String thread, String logger, String msg) {
    return "2026-11-22 02:43:10,971 INFO [" + thread + "] " + logger + ": " + msg;
  }

  @Test
  void twelveDiskRunsWithFactorTenTakeOneIntermediatePassAndTheLast() {
    // Verbatim shape of a stock reduce's syslog.shuffle from this cluster (12 maps, io.sort.factor
    // 10).
    List<String> log =
        List.of(
            line(
                "main",
                MM,
                "MergerManager: memoryLimit=24346624, maxSingleShuffleLimit=6086656, mergeThreshold=16068772,"
                    + " ioSortFactor=10, memToMemMergeOutputsThreshold=10"),
            line(
                "fetcher#1",
                "org.apache.hadoop.mapreduce.task.reduce.MergeManagerImpl",
                "attempt_1_0001_m_000000_0: Shuffling to disk since 8333334 is greater than maxSingleShuffleLimit"),
            line(
                "main",
                MM,
                "finalMerge called with 0 in-memory map-outputs and 12 on-disk map-outputs"),
            line("main", MM, "Merging 12 files, 100000072 bytes from disk"),
            line("main", MM, "Merging 0 segments, 0 bytes from memory into reduce"),
            line("main", MERGER, "Merging 12 sorted segments"),
            line("main", MERGER, "Merging 3 intermediate segments out of a total of 12"),
            line(
                "main",
                MERGER,
                "Down to the last merge-pass, with 10 segments left of total size: 99999920 bytes"));
    MergePasses p = MergePasses.parse(log);
    assertEquals(2, p.rounds());
    assertEquals(1, p.intermediatePasses());
    assertEquals(0, p.onDiskMerges());
    assertTrue(p.finalMergeFromDisk());
  }

  @Test
  void backgroundOnDiskMergesCountAsRoundsButInMemoryMergesDoNot() {
    List<String> log =
        List.of(
            line(IN_MEMORY, MM, "Initiating in-memory merge with 7 segments..."),
            line(IN_MEMORY, MERGER, "Merging 7 sorted segments"),
            line(
                IN_MEMORY,
                MERGER,
                "Down to the last merge-pass, with 7 segments left of total size: 5000000 bytes"),
            line(ON_DISK, MM, "OnDiskMerger: We have  19 map outputs on disk. Triggering merge..."),
            line(ON_DISK, MERGER, "Merging 10 sorted segments"),
            line(
                ON_DISK,
                MERGER,
                "Down to the last merge-pass, with 10 segments left of total size: 75000000 bytes"),
            line(
                "main",
                MM,
                "finalMerge called with 0 in-memory map-outputs and 23 on-disk map-outputs"),
            line("main", MM, "Merging 23 files, 240000000 bytes from disk"),
            line("main", MM, "Merging 0 segments, 0 bytes from memory into reduce"),
            line("main", MERGER, "Merging 23 sorted segments"),
            line("main", MERGER, "Merging 5 intermediate segments out of a total of 23"),
            line("main", MERGER, "Merging 10 intermediate segments out of a total of 19"),
            line(
                "main",
                MERGER,
                "Down to the last merge-pass, with 10 segments left of total size: 240000000 bytes"));
    MergePasses p = MergePasses.parse(log);
    assertEquals(1 + 2 + 1, p.rounds());
    assertEquals(1, p.onDiskMerges());
    assertEquals(2, p.intermediatePasses());
    assertEquals(1, p.memoryMerges());
  }

  @Test
  void aReducerFedFromMemoryHasNoRoundAndItsJoiningPassIsNotCounted() {
    List<String> log =
        List.of(
            line(
                "main",
                MM,
                "finalMerge called with 32 in-memory map-outputs and 0 on-disk map-outputs"),
            line("main", MM, "Merging 0 files, 0 bytes from disk"),
            line("main", MM, "Merging 32 segments, 240000000 bytes from memory into reduce"),
            line("main", MERGER, "Merging 32 sorted segments"),
            line(
                "main",
                MERGER,
                "Down to the last merge-pass, with 32 segments left of total size: 240000000 bytes"));
    MergePasses p = MergePasses.parse(log);
    assertEquals(0, p.rounds());
    assertFalse(p.finalMergeFromDisk());
  }

  @Test
  void aLogWithoutTheFinalMergeIsRefusedRatherThanReadAsZeroRounds() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                MergePasses.parse(
                    List.of(line("main", "org.apache.hadoop.mapred.Task", "Task done"))));
    assertTrue(e.getMessage().contains("Merging N files"), e.getMessage());
  }
}
