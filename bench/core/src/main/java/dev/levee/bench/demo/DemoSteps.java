package dev.levee.bench.demo;

import dev.levee.bench.progress.StepProgress;
import dev.levee.bench.progress.StepProgress.Step;
import dev.levee.bench.results.Measurement;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The steps of {@code ./levee demo}, both sides, in the order they run, so that either side can say
 * "step k of N" and how long the whole demo has left. Default estimates are one run on a 2-core
 * machine; a run's own times (and the previous run's) replace them as steps finish (see {@link
 * dev.levee.bench.progress.StepProgress}).
 */
public final class DemoSteps {
  public static final String HADOOP_CLUSTER = "hadoop.cluster";
  public static final String HADOOP_INPUT = "hadoop.input";
  public static final String SPARK_INPUT = "spark.input";
  public static final String THEMIS = "hadoop.themis";
  public static final String PIRANHA = "hadoop.piranha";
  public static final String HURRICANE = "spark.hurricane";

  private DemoSteps() {}

  /** The id of one variant's job run: {@code hadoop.stock.1}, {@code spark.plugin.2}. */
  public static String job(String side, String variant, int repetition) {
    return side + "." + variant + "." + (repetition + 1);
  }

  /**
   * The plan for the given repetitions of each side. Hadoop runs stock first on even repetitions
   * and the plugin first on odd ones, then the no-spill bound; Spark runs every stock repetition,
   * then every plugin one.
   */
  public static List<Step> plan(int hadoopRepetitions, int sparkRepetitions) {
    List<Step> steps = new ArrayList<>();
    String sponge = "spongefiles-hadoop: ";
    steps.add(
        new Step(HADOOP_CLUSTER, sponge + "start ZooKeeper, HDFS and YARN (3 NodeManagers)", 30));
    steps.add(new Step(HADOOP_INPUT, sponge + "generate the Median job's input", 20));
    for (int rep = 0; rep < hadoopRepetitions; rep++) {
      Step stock =
          new Step(
              job("hadoop", Measurement.STOCK, rep),
              sponge + "Median job, stock" + of(rep, hadoopRepetitions),
              55);
      Step plugin =
          new Step(
              job("hadoop", DemoTable.PLUGIN, rep),
              sponge + "Median job, SpongeFiles" + of(rep, hadoopRepetitions),
              55);
      steps.add(rep % 2 == 0 ? stock : plugin);
      steps.add(rep % 2 == 0 ? plugin : stock);
      steps.add(
          new Step(
              job("hadoop", DemoTable.BOUND, rep),
              sponge
                  + "Median job, stock with a heap that never spills"
                  + of(rep, hadoopRepetitions),
              45));
    }
    steps.add(new Step(THEMIS, "themis-shuffle: Sort, stock then Themis, outputs validated", 40));
    steps.add(new Step(PIRANHA, "piranha-dag: Pig top-k, stock Pig then -x piranha", 90));
    String leaky = "leaky-buffer-spark: ";
    steps.add(new Step(SPARK_INPUT, leaky + "generate the groupByKey input", 10));
    for (String variant : List.of(Measurement.STOCK, DemoTable.PLUGIN)) {
      for (int rep = 0; rep < sparkRepetitions; rep++) {
        steps.add(
            new Step(
                job("spark", variant, rep),
                leaky
                    + "groupByKey, "
                    + (variant.equals(Measurement.STOCK) ? "stock sort shuffle" : "leaky shuffle")
                    + of(rep, sparkRepetitions),
                15));
      }
    }
    steps.add(
        new Step(
            HURRICANE,
            "hurricane-spark: ClickLog under skew on 16 emulated slots, stock then Hurricane",
            75));
    return steps;
  }

  /**
   * How many repetitions of the Median job the Hadoop side of this run finished, from the run's
   * progress file (1 when it holds none): the Spark side plans the same steps as the Hadoop side,
   * so that the demo counts "step k of N" with one N from its first step to its last.
   */
  public static int hadoopRepetitionsDone(Path runDir) {
    String first = job("hadoop", Measurement.STOCK, 0);
    String prefix = first.substring(0, first.lastIndexOf('.') + 1);
    int reps = 1;
    for (String id : StepProgress.finished(runDir).keySet()) {
      if (id.startsWith(prefix)) {
        try {
          reps = Math.max(reps, Integer.parseInt(id.substring(prefix.length())));
        } catch (NumberFormatException e) {
          // Not a repetition's step.
        }
      }
    }
    return reps;
  }

  private static String of(int rep, int repetitions) {
    return repetitions == 1 ? "" : " (run " + (rep + 1) + "/" + repetitions + ")";
  }
}
