package dev.levee.piranha.runner;

import dev.levee.piranha.dag.TaskId;
import dev.levee.piranha.exec.TaskTimeline;
import dev.levee.piranha.plan.RunPlan;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Where a Piranha run's time went, as the paper breaks runs down (Figs 7-8): one phase per stage on
 * the critical path, each counted from the moment its latest parent stage finished (a child's
 * start-up overlaps its parents, so only the time after its input is complete is its own) to the
 * moment its last task finished; the first phase from its first task's start. Whatever remains of
 * the wall time (ApplicationMaster start, container scheduling, JVM start-up, job commit) is
 * "other".
 */
public record StageBreakdown(List<Phase> phases, double totalSeconds, double otherSeconds) {

  /** One stage's share. */
  public record Phase(String stage, double seconds) {}

  static StageBreakdown empty() {
    return new StageBreakdown(List.of(), 0, 0);
  }

  static StageBreakdown of(RunResult r) {
    return r.breakdownOrEmpty();
  }

  /** From the tasks' timelines of a successful attempt. */
  public static StageBreakdown of(
      RunPlan plan, Map<TaskId, TaskTimeline> timelines, long submitted, long finished) {
    int n = plan.stageCount();
    long[] start = new long[n];
    long[] end = new long[n];
    java.util.Arrays.fill(start, Long.MAX_VALUE);
    for (Map.Entry<TaskId, TaskTimeline> e : timelines.entrySet()) {
      int s = e.getKey().stage();
      Long st = e.getValue().get(TaskTimeline.START);
      Long d = e.getValue().get(TaskTimeline.DONE);
      if (st != null) {
        start[s] = Math.min(start[s], st);
      }
      if (d != null) {
        end[s] = Math.max(end[s], d);
      }
    }
    List<Phase> path = new ArrayList<>();
    int s = plan.terminalStage();
    while (true) {
      List<Integer> parents = plan.parentStages(s);
      int latest = -1;
      for (int p : parents) {
        if (latest < 0 || end[p] > end[latest]) {
          latest = p;
        }
      }
      long from = latest < 0 ? start[s] : end[latest];
      path.add(new Phase(plan.stage(s).name(), Math.max(0, end[s] - from) / 1000.0));
      if (latest < 0) {
        break;
      }
      s = latest;
    }
    Collections.reverse(path);
    double total = (finished - submitted) / 1000.0;
    double sum = path.stream().mapToDouble(Phase::seconds).sum();
    return new StageBreakdown(List.copyOf(path), total, Math.max(0, total - sum));
  }
}
