package dev.levee.bench.hadoop.demo;

import dev.levee.bench.Suite;
import dev.levee.bench.SuiteContext;
import dev.levee.bench.cli.OptionSpec;
import dev.levee.bench.cli.ParsedOptions;
import dev.levee.bench.demo.DemoTable;
import dev.levee.bench.gen.DatasetWriter;
import dev.levee.bench.gen.Datasets;
import dev.levee.bench.hadoop.median.MedianJob;
import dev.levee.bench.hadoop.median.MedianRun;
import dev.levee.bench.progress.ProgressReporter;
import dev.levee.bench.results.RepoLayout;
import dev.levee.it.hadoop.MiniClusterSettings;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * The Hadoop half of {@code ./levee demo}: starts HDFS + YARN with three NodeManagers in this JVM and runs the
 * Hadoop-side modules' headline workloads, stock and plugin on the same generated data. Modules with no plugin yet
 * record their stock run (where the workload exists) and say "not built yet" for the plugin.
 */
public final class HadoopDemoSuite implements Suite {
  private static final String SPONGE = "spongefiles-hadoop";

  @Override
  public String name() {
    return "demo-hadoop";
  }

  @Override
  public String summary() {
    return "the Hadoop-side rows of ./levee demo (HDFS + YARN with 3 NodeManagers, in-process)";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.required("run-id", "ID", "groups this run's rows in the demo table"),
        OptionSpec.optional("numbers", "N", "numbers the median job sorts through its one reducer", "10m"),
        OptionSpec.optional("maps", "N", "input files (one map each); more than io.sort.factor=10 forces merge rounds",
            "12"),
        OptionSpec.optional("reduce-heap-mb", "MB", "the reducer's -Xmx; the shuffle keeps half of it", "48"),
        OptionSpec.optional("repetitions", "N", "runs of each variant", "1"));
  }

  @Override
  public void run(SuiteContext context) throws Exception {
    ParsedOptions o = context.options();
    String runId = o.string("run-id");
    long numbers = o.longAtLeast("numbers", 1);
    int maps = o.intIn("maps", 1, 1000);
    int reduceHeapMb = o.intIn("reduce-heap-mb", 16, 4096);
    int repetitions = o.intIn("repetitions", 1, 100);

    java.nio.file.Path base = RepoLayout.repoRoot(java.nio.file.Path.of("").toAbsolutePath()).resolve(".levee/demo");
    Files.createDirectories(base);
    context.err().println("demo-hadoop: starting HDFS + YARN (3 NodeManagers) under " + base);
    try (MiniMapReduceCluster cluster = MiniMapReduceCluster.builder().nodeManagers(3).baseDir(base).start()
        .closeOnShutdown()) {
      Configuration conf = cluster.clientConf();
      Path input = new Path("/demo/numbers");
      generateNumbers(conf, input, numbers, maps, context);

      Configuration stock = new Configuration(conf);
      stock.set(MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx" + reduceHeapMb + "m " + MiniClusterSettings.TASK_JVM_FLAGS);
      // Stock's 70% lets five fetchers' in-flight copies plus the merge overrun a heap this small (OutOfMemoryError
      // in the fetcher, seen here at 32 MB); an operator with small reducers lowers it, so both variants run with 50%.
      stock.setFloat(MRJobConfig.SHUFFLE_INPUT_BUFFER_PERCENT, 0.5f);
      Map<String, Object> params = new LinkedHashMap<>();
      params.put(DemoTable.RUN_ID, runId);
      params.put(DemoTable.MODULE, SPONGE);
      params.put(DemoTable.WORKLOAD, String.format("median of %,d numbers, 1 reducer, %d maps, reducer heap %d MB",
          numbers, maps, reduceHeapMb));
      // Status until the SpongeFiles shuffle plugin is wired into the demo.
      params.put(DemoTable.STATUS, "plugin " + DemoTable.NOT_BUILT);
      for (int rep = 0; rep < repetitions; rep++) {
        MedianRun run = MedianRun.run(stock, input, new Path("/demo/median-stock"), numbers);
        context.err().printf("demo-hadoop: stock median job %.1f s (median %d)%n", run.seconds(), run.median());
        context.record("stock", params, run.metrics(), rep);
      }
    }
  }

  private static void generateNumbers(Configuration conf, Path dir, long numbers, int files, SuiteContext context)
      throws Exception {
    // Uniform 10-digit numbers: every one distinct in practice, so the reducer's sort really works.
    Map<String, String> options = Map.of("keys", "10000000000", "value-size", "fixed:0");
    DatasetWriter.Plan plan = new DatasetWriter.Plan(conf.get("fs.defaultFS") + dir, numbers, files, 2, true);
    try (ProgressReporter progress = context.progress("generate numbers", numbers, "records")) {
      new DatasetWriter(conf).write("uniform", 42, Datasets.builtIn().configure("uniform", 42, options), options,
          plan, progress);
    }
  }
}
