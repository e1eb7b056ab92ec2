package dev.levee.piranha.dag;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * A chain of configured MapReduce jobs, each reading what the previous one wrote, as one Piranha
 * DAG: a drop-in for a {@code JobControl} chain or a sequence of {@code waitForCompletion} calls.
 * Job k becomes a map stage and, if it has reducers, a shuffle stage; when job k+1 reads exactly
 * job k's output directory, its map stage is fed by a forward edge from job k's last stage and
 * nothing is written between them. The last job's output is the DAG's output.
 *
 * <p>Records cross a forward edge as job k+1's input format would have read them back: unchanged
 * for SequenceFile output read by SequenceFileInputFormat, as text lines for TextOutputFormat read
 * by TextInputFormat (the key is the line's offset in the stream the task receives), as key and
 * value text for KeyValueTextInputFormat. Other format pairs are refused, naming both.
 */
public final class MrChain {
  private MrChain() {}

  /**
   * The DAG of {@code jobs}, run in this order. {@code base} is the configuration the run starts
   * from; each stage keeps the settings in which its job differs from it.
   */
  public static PiranhaDag of(String name, Configuration base, Job... jobs) throws IOException {
    return of(name, base, Arrays.asList(jobs));
  }

  public static PiranhaDag of(String name, Configuration base, List<Job> jobs) throws IOException {
    if (jobs.isEmpty()) {
      throw new DagException("MrChain " + name + " has no jobs");
    }
    List<Stage> stages = new ArrayList<>();
    Path previousOutput = null;
    String previousStage = null;
    for (int k = 0; k < jobs.size(); k++) {
      Job job = jobs.get(k);
      Configuration conf = job.getConfiguration();
      String where = "job " + (k + 1) + " ('" + job.getJobName() + "') of chain " + name;
      Path[] inputs = FileInputFormat.getInputPaths(job);
      boolean fed =
          previousOutput != null
              && inputs.length == 1
              && qualified(inputs[0], conf).equals(qualified(previousOutput, conf));
      if (k > 0 && !fed) {
        throw new DagException(
            where
                + " reads "
                + Arrays.toString(inputs)
                + ", not the previous job's output "
                + previousOutput
                + ": a chain links each job to the one before it");
      }
      String mapName = "j" + (k + 1) + "_map";
      Step mapStep = Step.of(Step.Kind.MAP, conf, base);
      Stage map;
      if (fed) {
        RecordAdapter adapter =
            RecordAdapter.between(where, jobs.get(k - 1).getConfiguration(), conf);
        map =
            new Stage(
                mapName,
                Stage.SAME_AS_PARENT,
                List.of(previousStage),
                List.of(adapter.into(mapStep)));
      } else {
        map = new Stage(mapName, Stage.SPLITS, List.of(), List.of(mapStep));
      }
      stages.add(map);
      previousStage = mapName;
      if (job.getNumReduceTasks() > 0) {
        String reduceName = "j" + (k + 1) + "_reduce";
        stages.add(
            new Stage(
                reduceName,
                job.getNumReduceTasks(),
                List.of(mapName),
                List.of(Step.of(Step.Kind.REDUCE, conf, base))));
        previousStage = reduceName;
      }
      previousOutput = FileOutputFormat.getOutputPath(job);
      if (previousOutput == null && k < jobs.size() - 1) {
        throw new DagException(where + " has no output path for the next job to read");
      }
    }
    return new PiranhaDag(name, stages, Map.of());
  }

  private static Path qualified(Path p, Configuration conf) throws IOException {
    return p.getFileSystem(conf).makeQualified(p);
  }
}
