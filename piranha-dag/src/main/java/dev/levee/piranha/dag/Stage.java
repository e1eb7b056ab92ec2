package dev.levee.piranha.dag;

import java.util.List;
import java.util.Objects;

/**
 * A vertex of the DAG: {@code parallelism} tasks that each run the stage's steps. The first step
 * says where a task's input comes from: an initial stage's first step is a map over the splits of
 * its input format; a stage whose first step is a reduce gets its parents' output partitioned,
 * sorted and combined by that step's settings (a scatter-gather edge); a later stage whose first
 * step is a map gets its parents' records as they were written (a forward edge: parent task i feeds
 * child task i mod parallelism).
 *
 * <p>{@code parallelism} is {@link #SPLITS} for an initial stage (one task per input split), and
 * may be {@link #SAME_AS_PARENT} for a stage that starts with a map (as many tasks as its first
 * parent).
 */
public record Stage(String name, int parallelism, List<String> parents, List<Step> steps) {

  /** An initial stage's parallelism before its splits are computed. */
  public static final int SPLITS = -1;

  /** A forward stage's parallelism when it has as many tasks as its first parent. */
  public static final int SAME_AS_PARENT = 0;

  public Stage {
    Objects.requireNonNull(name, "name");
    parents = List.copyOf(parents);
    steps = List.copyOf(steps);
  }

  public boolean initial() {
    return parents.isEmpty();
  }

  public Step first() {
    return steps.get(0);
  }

  public Step last() {
    return steps.get(steps.size() - 1);
  }

  /** Whether parents reach this stage through a scatter-gather edge (partition, sort, combine). */
  public boolean shuffled() {
    return !initial() && first().kind() == Step.Kind.REDUCE;
  }

  public Stage withParallelism(int p) {
    return new Stage(name, p, parents, steps);
  }

  public Stage withParents(List<String> p) {
    return new Stage(name, parallelism, p, steps);
  }

  public Stage withSteps(List<Step> s) {
    return new Stage(name, parallelism, parents, s);
  }
}
