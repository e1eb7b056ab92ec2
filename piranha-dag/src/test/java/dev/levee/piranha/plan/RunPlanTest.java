package dev.levee.piranha.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.piranha.dag.DagException;
import dev.levee.piranha.dag.PiranhaDag;
import dev.levee.piranha.dag.Stage;
import dev.levee.piranha.dag.Step;
import dev.levee.piranha.dag.TaskId;
import dev.levee.piranha.examples.TopWords;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Mapper;
import org.junit.jupiter.api.Test;

class RunPlanTest {
  private final PiranhaDag dag = TopWords.dag(new Path("/in"), new Path("/out"), 3, 5);

  @Test
  void wiringOfTasks() {
    RunPlan plan = RunPlan.resolve(dag, Map.of("scan", 4));
    assertEquals(4 + 3 + 3 + 1, plan.taskCount());
    // count tasks hear from every scan task (scatter-gather)...
    assertEquals(
        Set.of(new TaskId(0, 0), new TaskId(0, 1), new TaskId(0, 2), new TaskId(0, 3)),
        plan.parentsOf(new TaskId(1, 2)));
    // ...invert task i from count task i (forward)...
    assertEquals(Set.of(new TaskId(1, 2)), plan.parentsOf(new TaskId(2, 2)));
    assertEquals(Set.of(new TaskId(2, 1)), plan.childrenOf(new TaskId(1, 1)));
    // ...and the one top task from all of them.
    assertEquals(3, plan.parentsOf(new TaskId(3, 0)).size());
    assertEquals(3, plan.terminalStage());
    assertEquals("scan->count", plan.edgeName(0, 1));
  }

  @Test
  void forwardToFewerTasksGathersByModulo() {
    PiranhaDag d =
        dag.withStages(
            List.of(
                dag.stage("scan"),
                dag.stage("count"),
                dag.stage("invert").withParallelism(2),
                dag.stage("top")));
    RunPlan plan = RunPlan.resolve(d, Map.of("scan", 2));
    assertEquals(Set.of(new TaskId(1, 0), new TaskId(1, 2)), plan.parentsOf(new TaskId(2, 0)));
    assertEquals(Set.of(new TaskId(1, 1)), plan.parentsOf(new TaskId(2, 1)));
  }

  @Test
  void encodingRoundTrips() {
    RunPlan plan = RunPlan.resolve(dag, Map.of("scan", 7));
    RunPlan back = RunPlan.decode(plan.encode());
    assertEquals(plan.taskCount(), back.taskCount());
    for (int i = 0; i < plan.stageCount(); i++) {
      Stage a = plan.stage(i);
      Stage b = back.stage(i);
      assertEquals(a.name(), b.name());
      assertEquals(a.parallelism(), b.parallelism());
      assertEquals(a.parents(), b.parents());
      assertEquals(a.steps().size(), b.steps().size());
      for (int s = 0; s < a.steps().size(); s++) {
        assertEquals(a.steps().get(s).conf(), b.steps().get(s).conf());
      }
    }
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> RunPlan.decode("bm90IGEgcGxhbg=="));
    assertTrue(e.getMessage().contains("unreadable"), e.getMessage());
  }

  @Test
  void theRedundantMapStageRunsInsideThePreviousReduce() {
    RunPlan plan =
        RunPlan.resolve(dag, Map.of("scan", 4)).withoutRedundantStages(new Configuration());
    assertEquals(
        List.of("scan", "count", "top"), plan.dag().stages().stream().map(Stage::name).toList());
    Stage count = plan.dag().stage("count");
    assertEquals(
        List.of(Step.Kind.REDUCE, Step.Kind.MAP), count.steps().stream().map(Step::kind).toList());
    assertEquals(List.of("count"), plan.dag().stage("top").parents());
    assertEquals(4 + 3 + 1, plan.taskCount());
  }

  @Test
  void aMapperThatDrivesItsOwnInputStaysAStage() {
    PiranhaDag d =
        PiranhaDag.builder("d")
            .initial("a")
            .inputFormat(org.apache.hadoop.mapreduce.lib.input.TextInputFormat.class)
            .inputPaths(new Path("/in"))
            .shuffle("b", 2)
            .from("a")
            .forward("c")
            .from("b")
            .mapper(RunOverriding.class)
            .outputFormat(
                org.apache.hadoop.mapreduce.lib.output.TextOutputFormat.class, new Path("/o"))
            .build();
    RunPlan plan = RunPlan.resolve(d, Map.of("a", 1)).withoutRedundantStages(new Configuration());
    assertEquals(3, plan.stageCount());
  }

  @Test
  void anEmptyInputIsReportedByStage() {
    DagException e =
        assertThrows(DagException.class, () -> RunPlan.resolve(dag, Map.of("scan", 0)));
    assertTrue(
        e.getMessage().contains("stage 'scan'") && e.getMessage().contains("no splits"),
        e.getMessage());
  }

  /** A mapper like MultithreadedMapper, which pulls its own records. */
  public static final class RunOverriding extends Mapper<Object, Object, Object, Object> {
    @Override
    public void run(Context context) {}
  }
}
