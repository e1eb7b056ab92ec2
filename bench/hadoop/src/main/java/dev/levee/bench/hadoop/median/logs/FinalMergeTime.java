package dev.levee.bench.hadoop.median.logs;

import dev.levee.sponge.hadoop.SpongeShuffle;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How long a reduce attempt took from the start of its final merge to its last record, read from
 * the attempt's own log lines. This is the part of the reducer the two variants do differently once
 * every map output has arrived: stock's intermediate passes over disk and its last pass, against
 * SpongeFiles' single pass over memory. Hadoop's phase times cannot show it: the shuffle phase ends
 * only after the final merge has set up its passes.
 *
 * <p>The start is stock's {@code MergeManagerImpl} line "finalMerge called" or SpongeFiles' line
 * containing {@link SpongeShuffleKeys#FINAL_MERGE_LOG_MARKER}; both are logged once the copy and
 * the background merges are over. The end is the task's "Task:&lt;attempt&gt; is done." line,
 * written after the reducer's last record and before the output commit.
 */
public final class FinalMergeTime {
  private static final Pattern LINE =
      Pattern.compile(
          "^(?<time>\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3}) +\\w+"
              + " +\\[[^\\]]*\\] (?<logger>\\S+): (?<msg>.*)$");
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");
  private static final String STOCK_MERGE_MANAGER =
      "org.apache.hadoop.mapreduce.task.reduce.MergeManagerImpl";
  private static final String STOCK_START = "finalMerge called";

  private FinalMergeTime() {}

  /**
   * @param lines the attempt's log lines, from any of its log files and in any order
   * @param attempt the reduce attempt's id, as it appears in the "is done" line
   * @return seconds from the final merge's start to the attempt's last record; empty when either
   *     line is missing
   */
  public static Optional<Double> seconds(List<String> lines, String attempt) {
    LocalDateTime start = null;
    LocalDateTime done = null;
    String doneText = "Task:" + attempt + " is done.";
    for (String line : lines) {
      Matcher m = LINE.matcher(line);
      if (!m.matches()) {
        continue;
      }
      String msg = m.group("msg");
      boolean isStart =
          (m.group("logger").equals(STOCK_MERGE_MANAGER) && msg.startsWith(STOCK_START))
              || msg.contains(SpongeShuffle.FINAL_MERGE_LOG_MARKER);
      boolean isDone = msg.startsWith(doneText);
      if (!isStart && !isDone) {
        continue;
      }
      LocalDateTime t;
      try {
        t = LocalDateTime.parse(m.group("time"), TIME);
      } catch (DateTimeParseException e) {
        continue;
      }
      if (isStart) {
        start = t;
      } else {
        done = t;
      }
    }
    if (start == null || done == null || done.isBefore(start)) {
      return Optional.empty();
    }
    return Optional.of(Duration.between(start, done).toMillis() / 1000.0);
  }
}
