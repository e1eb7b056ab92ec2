package dev.levee.piranha.runner;

import dev.levee.piranha.dag.TaskId;
import dev.levee.piranha.exec.TaskTimeline;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.mapreduce.Counters;

/**
 * How a DAG ran: as Piranha (and in which attempt) or as chained MapReduce (and why), with its
 * counters, wall time and, for Piranha, every task's timeline for the stage breakdown.
 */
public record RunResult(
    Mode mode,
    int attempts,
    List<String> failedAttempts,
    String fallbackReason,
    Counters counters,
    long submittedMillis,
    long finishedMillis,
    List<String> stageNames,
    Map<TaskId, TaskTimeline> timelines,
    List<String> jobIds,
    StageBreakdown stageBreakdown) {

  /** How the DAG produced its output. */
  public enum Mode {
    PIRANHA,
    CHAINED_MAPREDUCE
  }

  public double seconds() {
    return (finishedMillis - submittedMillis) / 1000.0;
  }

  /** The paper-style breakdown (Figs 7-8) of a Piranha run; empty for chained MapReduce. */
  public StageBreakdown breakdown() {
    return breakdownOrEmpty();
  }

  StageBreakdown breakdownOrEmpty() {
    return stageBreakdown == null ? StageBreakdown.empty() : stageBreakdown;
  }
}
