package dev.levee.piranha.plan;

import dev.levee.piranha.dag.DagException;
import dev.levee.piranha.dag.PiranhaDag;
import dev.levee.piranha.dag.Stage;
import dev.levee.piranha.dag.Step;
import dev.levee.piranha.dag.TaskId;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * A DAG ready to run: every stage's parallelism known (initial stages from their splits, forward
 * stages from their parents), redundant stages fused if asked, and the task-level wiring every task
 * derives from it. This is the paper's "configuration file" that each task indexes into; it travels
 * in the job configuration, compressed.
 */
public final class RunPlan {
  private static final int VERSION = 1;

  private final PiranhaDag dag;
  private final List<List<Integer>> parents = new ArrayList<>();
  private final List<List<Integer>> children = new ArrayList<>();

  private RunPlan(PiranhaDag dag) {
    this.dag = dag;
    List<Stage> stages = dag.stages();
    for (Stage s : stages) {
      List<Integer> p = new ArrayList<>();
      for (String name : s.parents()) {
        p.add(dag.indexOf(name));
      }
      parents.add(p);
      children.add(new ArrayList<>());
    }
    for (int i = 0; i < stages.size(); i++) {
      for (int p : parents.get(i)) {
        children.get(p).add(i);
      }
      if (stages.get(i).parallelism() < 1) {
        throw new DagException(
            "stage '" + stages.get(i).name() + "' has no parallelism after planning");
      }
    }
  }

  /**
   * Resolves parallelism: {@code splits} gives each initial stage's number of splits; a forward
   * stage with {@link Stage#SAME_AS_PARENT} takes its first parent's.
   */
  public static RunPlan resolve(PiranhaDag dag, Map<String, Integer> splits) {
    List<Stage> resolved = new ArrayList<>();
    Map<String, Integer> parallelism = new LinkedHashMap<>();
    for (Stage s : dag.stages()) {
      int p = s.parallelism();
      if (s.initial()) {
        Integer n = splits.get(s.name());
        if (n == null) {
          throw new DagException("no split count for initial stage '" + s.name() + "'");
        }
        p = n;
      } else if (p == Stage.SAME_AS_PARENT) {
        p = parallelism.get(s.parents().get(0));
      }
      if (p < 1) {
        throw new DagException(
            "stage '"
                + s.name()
                + "' would run "
                + p
                + " tasks"
                + (s.initial() ? ": its input has no splits (an empty input runs no task)" : ""));
      }
      parallelism.put(s.name(), p);
      resolved.add(s.withParallelism(p));
    }
    return new RunPlan(dag.withStages(resolved));
  }

  /**
   * This plan with its redundant stages fused into their parents ({@link
   * RedundantStageEliminator}).
   */
  public RunPlan withoutRedundantStages(org.apache.hadoop.conf.Configuration conf) {
    return new RunPlan(RedundantStageEliminator.eliminate(dag, conf));
  }

  public PiranhaDag dag() {
    return dag;
  }

  public int stageCount() {
    return dag.stages().size();
  }

  public Stage stage(int index) {
    return dag.stages().get(index);
  }

  public int terminalStage() {
    return dag.indexOf(dag.terminal().name());
  }

  public List<Integer> parentStages(int stage) {
    return List.copyOf(parents.get(stage));
  }

  public List<Integer> childStages(int stage) {
    return List.copyOf(children.get(stage));
  }

  public int taskCount() {
    int n = 0;
    for (Stage s : dag.stages()) {
      n += s.parallelism();
    }
    return n;
  }

  public List<TaskId> tasks() {
    List<TaskId> all = new ArrayList<>();
    for (int s = 0; s < stageCount(); s++) {
      for (int p = 0; p < stage(s).parallelism(); p++) {
        all.add(new TaskId(s, p));
      }
    }
    return all;
  }

  /** The tasks whose streams {@code task} waits for before it starts. */
  public TreeSet<TaskId> parentsOf(TaskId task) {
    TreeSet<TaskId> result = new TreeSet<>();
    Stage s = stage(task.stage());
    for (int p : parents.get(task.stage())) {
      int n = stage(p).parallelism();
      for (int i = 0; i < n; i++) {
        if (s.shuffled() || i % s.parallelism() == task.partition()) {
          result.add(new TaskId(p, i));
        }
      }
    }
    return result;
  }

  /** The tasks of {@code childStage} that {@code task} pushes to. */
  public TreeSet<TaskId> childrenOf(TaskId task, int childStage) {
    TreeSet<TaskId> result = new TreeSet<>();
    Stage c = stage(childStage);
    if (c.shuffled()) {
      for (int i = 0; i < c.parallelism(); i++) {
        result.add(new TaskId(childStage, i));
      }
    } else {
      result.add(new TaskId(childStage, task.partition() % c.parallelism()));
    }
    return result;
  }

  public TreeSet<TaskId> childrenOf(TaskId task) {
    TreeSet<TaskId> result = new TreeSet<>();
    for (int c : children.get(task.stage())) {
      result.addAll(childrenOf(task, c));
    }
    return result;
  }

  /** "scan->count": the counter and log name of an edge. */
  public String edgeName(int from, int to) {
    return stage(from).name() + "->" + stage(to).name();
  }

  // ---- the form that travels in the job configuration ----

  public String encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(new GZIPOutputStream(bytes))) {
      out.writeInt(VERSION);
      out.writeUTF(dag.name());
      writeMap(out, dag.conf());
      out.writeInt(stageCount());
      for (Stage s : dag.stages()) {
        out.writeUTF(s.name());
        out.writeInt(s.parallelism());
        out.writeInt(s.parents().size());
        for (String p : s.parents()) {
          out.writeUTF(p);
        }
        out.writeInt(s.steps().size());
        for (Step step : s.steps()) {
          out.writeUTF(step.kind().name());
          writeMap(out, step.conf());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode the plan of " + dag.name(), e);
    }
    return Base64.getEncoder().encodeToString(bytes.toByteArray());
  }

  public static RunPlan decode(String text) {
    try (DataInputStream in =
        new DataInputStream(
            new GZIPInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(text))))) {
      int version = in.readInt();
      if (version != VERSION) {
        throw new IOException(
            "plan version " + version + " (this Piranha reads version " + VERSION + ")");
      }
      String name = in.readUTF();
      Map<String, String> conf = readMap(in);
      int n = in.readInt();
      List<Stage> stages = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        String stageName = in.readUTF();
        int parallelism = in.readInt();
        int np = in.readInt();
        List<String> ps = new ArrayList<>();
        for (int j = 0; j < np; j++) {
          ps.add(in.readUTF());
        }
        int ns = in.readInt();
        List<Step> steps = new ArrayList<>();
        for (int j = 0; j < ns; j++) {
          Step.Kind kind = Step.Kind.valueOf(in.readUTF());
          steps.add(new Step(kind, readMap(in)));
        }
        stages.add(new Stage(stageName, parallelism, ps, steps));
      }
      return new RunPlan(new PiranhaDag(name, stages, conf));
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalStateException(
          "the Piranha plan in this job's configuration is unreadable: " + e.getMessage(), e);
    }
  }

  private static void writeMap(DataOutputStream out, Map<String, String> map) throws IOException {
    out.writeInt(map.size());
    for (Map.Entry<String, String> e : map.entrySet()) {
      writeString(out, e.getKey());
      writeString(out, e.getValue());
    }
  }

  private static Map<String, String> readMap(DataInputStream in) throws IOException {
    int n = in.readInt();
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      map.put(readString(in), readString(in));
    }
    return map;
  }

  /** writeUTF stops at 64 KB; serialized Pig plans are larger. */
  private static void writeString(DataOutputStream out, String s) throws IOException {
    byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.write(b);
  }

  private static String readString(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > (64 << 20)) {
      throw new IOException("string of " + n + " bytes");
    }
    byte[] b = new byte[n];
    in.readFully(b);
    return new String(b, java.nio.charset.StandardCharsets.UTF_8);
  }
}
