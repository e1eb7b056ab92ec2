package dev.levee.piranha.plan;

import dev.levee.piranha.dag.PiranhaDag;
import dev.levee.piranha.dag.Stage;
import dev.levee.piranha.dag.Step;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * Removes the stages a chain of MapReduce jobs imposes but a DAG does not need (the paper's "No
 * Redundant" configurations): a stage that starts with a map, has one parent, and is that parent's
 * only child with as many tasks, runs inside its parent's tasks instead of as tasks of its own. The
 * map of job k+1 then runs on the reduce output of job k as it is produced, as Hadoop's {@code
 * ChainReducer} would, but across a job boundary.
 *
 * <p>A mapper that overrides {@link Mapper#run} drives its own input and cannot be fed records one
 * at a time; its stage stays a stage of its own.
 */
public final class RedundantStageEliminator {
  private RedundantStageEliminator() {}

  /** {@code plan} with every fusable stage fused into its parent, repeatedly. */
  public static PiranhaDag eliminate(PiranhaDag dag, Configuration conf) {
    PiranhaDag current = dag;
    boolean changed = true;
    while (changed) {
      changed = false;
      for (Stage s : current.stages()) {
        if (fusable(current, s, conf)) {
          current = fuse(current, s);
          changed = true;
          break;
        }
      }
    }
    return current;
  }

  /** The names of the stages {@link #eliminate} would remove. */
  public static List<String> redundantStages(PiranhaDag dag, Configuration conf) {
    List<String> names = new ArrayList<>();
    PiranhaDag current = dag;
    boolean changed = true;
    while (changed) {
      changed = false;
      for (Stage s : current.stages()) {
        if (fusable(current, s, conf)) {
          names.add(s.name());
          current = fuse(current, s);
          changed = true;
          break;
        }
      }
    }
    return names;
  }

  private static boolean fusable(PiranhaDag dag, Stage s, Configuration conf) {
    if (s.initial() || s.first().kind() != Step.Kind.MAP || s.parents().size() != 1) {
      return false;
    }
    Stage parent = dag.stage(s.parents().get(0));
    if (dag.children(parent.name()).size() != 1 || parent.parallelism() != s.parallelism()) {
      return false;
    }
    for (Step step : s.steps()) {
      if (step.kind() != Step.Kind.MAP || overridesRun(step, dag.apply(conf))) {
        return false;
      }
    }
    return true;
  }

  private static boolean overridesRun(Step step, Configuration conf) {
    try {
      Class<?> mapper = step.context(conf).getMapperClass();
      return mapper.getMethod("run", Mapper.Context.class).getDeclaringClass() != Mapper.class;
    } catch (ClassNotFoundException | NoSuchMethodException | RuntimeException e) {
      // Not loadable here: keep the stage, which runs it the way MapReduce does.
      return true;
    }
  }

  private static PiranhaDag fuse(PiranhaDag dag, Stage s) {
    String parentName = s.parents().get(0);
    List<Stage> out = new ArrayList<>();
    for (Stage t : dag.stages()) {
      if (t.name().equals(s.name())) {
        continue;
      }
      if (t.name().equals(parentName)) {
        List<Step> steps = new ArrayList<>(t.steps());
        steps.addAll(s.steps());
        out.add(t.withSteps(steps));
      } else if (t.parents().contains(s.name())) {
        List<String> ps = new ArrayList<>();
        for (String p : t.parents()) {
          ps.add(p.equals(s.name()) ? parentName : p);
        }
        out.add(t.withParents(ps));
      } else {
        out.add(t);
      }
    }
    return dag.withStages(out);
  }
}
