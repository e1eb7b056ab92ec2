package dev.levee.bench.hadoop.median.logs;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How stock Hadoop's reduce-side merge went, read from the reduce attempt's {@code syslog.shuffle},
 * where {@code MergeManagerImpl} and {@code Merger} log every pass. Stock has no counter for it.
 *
 * <p>A merge round is one pass that reads spilled runs back from disk, the definition SpongeFiles'
 * own {@code merge.rounds} counter uses: each background on-disk merge (the {@code OnDiskMerger}
 * thread, triggered once {@code 2 * io.sort.factor - 1} runs are on disk), each intermediate pass
 * of the final merge ({@code Merging N intermediate segments}), and the last pass that feeds the
 * reducer ({@code Down to the last merge-pass}) when it reads from disk. In-memory merges write
 * runs to disk (spills) without reading any back, so they are counted apart.
 *
 * @param rounds every pass that read spilled runs back
 * @param onDiskMerges background on-disk merges during the shuffle
 * @param intermediatePasses intermediate passes of the final merge (and of on-disk merges)
 * @param memoryMerges in-memory merges written to disk during the shuffle
 * @param finalMergeFromDisk whether the final merge read runs from disk at all
 */
public record MergePasses(
    int rounds,
    int onDiskMerges,
    int intermediatePasses,
    int memoryMerges,
    boolean finalMergeFromDisk) {

  /**
   * {@code 2026-11-22 02:43:10,977 INFO [main] org.apache.hadoop.mapred.Merger: Merging 12 sorted
   * segments}.
   */
  private static final Pattern LINE =
      Pattern.compile("^\\S+ \\S+ +\\w+ +\\[(?<thread>[^\\]]*)\\] (?<logger>\\S+): (?<msg>.*)$");

  private static final Pattern FINAL_FROM_DISK =
      Pattern.compile("^Merging (\\d+) files, (\\d+) bytes from disk");
  private static final Pattern INTERMEDIATE =
      Pattern.compile("^Merging \\d+ intermediate segments out of a total of");
  private static final String LAST_PASS = "Down to the last merge-pass";
  private static final String ON_DISK_MERGE = "OnDiskMerger: We have";
  private static final String MEMORY_MERGE = "Initiating in-memory merge with";
  private static final String MERGER = "org.apache.hadoop.mapred.Merger";
  private static final String ON_DISK_MERGER_THREAD = "OnDiskMerger";
  private static final String MERGE_MANAGER =
      "org.apache.hadoop.mapreduce.task.reduce.MergeManagerImpl";

  /**
   * Parses one reduce attempt's shuffle log.
   *
   * @throws IllegalArgumentException if the log has no final merge at all (wrong file, or shuffle
   *     logging is off), so an unreadable log is never reported as zero rounds
   */
  public static MergePasses parse(List<String> lines) {
    int onDisk = 0;
    int onDiskIntermediate = 0;
    int memory = 0;
    int finalIntermediate = 0;
    int finalLast = 0;
    boolean sawFinalMerge = false;
    boolean finalFromDisk = false;
    boolean inFinalDiskMerge = false;
    for (String line : lines) {
      Matcher m = LINE.matcher(line);
      if (!m.matches()) {
        continue;
      }
      String thread = m.group("thread");
      String logger = m.group("logger");
      String msg = m.group("msg");
      boolean main = thread.equals("main");
      if (logger.equals(MERGE_MANAGER)) {
        if (msg.startsWith(ON_DISK_MERGE)) {
          onDisk++;
        } else if (msg.startsWith(MEMORY_MERGE)) {
          memory++;
        } else if (main) {
          Matcher f = FINAL_FROM_DISK.matcher(msg);
          if (f.find()) {
            sawFinalMerge = true;
            finalFromDisk = Long.parseLong(f.group(1)) > 0 && Long.parseLong(f.group(2)) > 0;
            // The next Merger block in this thread merges the disk runs; a later one only joins its
            // stream with the
            // in-memory runs inside the reducer's own pass.
            inFinalDiskMerge = finalFromDisk;
          }
        }
      } else if (logger.equals(MERGER)) {
        boolean intermediate = INTERMEDIATE.matcher(msg).find();
        if (intermediate && thread.startsWith(ON_DISK_MERGER_THREAD)) {
          onDiskIntermediate++;
        } else if (intermediate && main && inFinalDiskMerge) {
          finalIntermediate++;
        } else if (msg.startsWith(LAST_PASS) && main && inFinalDiskMerge) {
          finalLast++;
          inFinalDiskMerge = false;
        }
      }
    }
    if (!sawFinalMerge) {
      throw new IllegalArgumentException(
          "no 'Merging N files, B bytes from disk' line from "
              + MERGE_MANAGER
              + ": not a reduce attempt's shuffle log, or its INFO logging is off");
    }
    return new MergePasses(
        onDisk + onDiskIntermediate + finalIntermediate + finalLast,
        onDisk,
        onDiskIntermediate + finalIntermediate,
        memory,
        finalFromDisk);
  }
}
