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
import dev.levee.bench.results.Measurement;
import dev.levee.bench.results.RepoLayout;
import dev.levee.it.hadoop.MiniClusterSettings;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.zk.ZooKeeperServers;
import dev.levee.sponge.SpongeConfigKeys;
import dev.levee.sponge.hadoop.SpongeShuffleKeys;
import dev.levee.sponge.server.SpongeAuxService;
import dev.levee.sponge.server.SpongeServerConfig;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * The Hadoop half of {@code ./levee demo}: starts HDFS + YARN with three NodeManagers in this JVM and runs the
 * Hadoop-side modules' headline workloads, stock and plugin on the same generated data. SpongeFiles: the paper's
 * Median job, whose single reducer shuffles about twice its heap, with the sponge aux service on every NodeManager
 * and a ZooKeeper server for the memory tracker. Piranha and Themis have no rows until they are built.
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
        OptionSpec.optional("sponge-pool-mb", "MB", "each NodeManager's sponge; less than the reducer's input, so "
            + "chunks also go to the other nodes' sponges", "48"),
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
    int poolMb = o.intIn("sponge-pool-mb", 1, 1 << 20);

    java.nio.file.Path base = RepoLayout.repoRoot(java.nio.file.Path.of("").toAbsolutePath()).resolve(".levee/demo");
    Files.createDirectories(base);
    java.nio.file.Path pools = java.nio.file.Path.of("/dev/shm", "levee-demo-" + ProcessHandle.current().pid());
    context.err().println("demo-hadoop: starting ZooKeeper, HDFS + YARN (3 NodeManagers, each with a "
        + poolMb + " MB sponge) under " + base);
    try (TestingServer zooKeeper = ZooKeeperServers.standalone(base.resolve("zookeeper"));
        MiniMapReduceCluster cluster = spongeCluster(base, pools, poolMb, zooKeeper.getConnectString())) {
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
      params.put("sponge_pool_mb_per_node", poolMb);
      Configuration sponge = new Configuration(stock);
      sponge.set("mapreduce.job.reduce.shuffle.consumer.plugin.class", SpongeShuffleKeys.PLUGIN_CLASS);
      // Alternate which variant goes first, so neither always runs on a colder or warmer machine.
      for (int rep = 0; rep < repetitions; rep++) {
        boolean stockFirst = rep % 2 == 0;
        MedianRun first = runVariant(stockFirst ? stock : sponge, stockFirst, input, numbers, params, rep, context);
        MedianRun second = runVariant(stockFirst ? sponge : stock, !stockFirst, input, numbers, params, rep,
            context);
        if (first.median() != second.median()) {
          throw new IllegalStateException("demo-hadoop: SpongeFiles median " + (stockFirst ? second : first).median()
              + " differs from stock's " + (stockFirst ? first : second).median() + " on the same input");
        }
      }
    } finally {
      FileUtil.fullyDelete(pools.toFile());
    }
  }

  private static MedianRun runVariant(Configuration conf, boolean isStock, Path input, long numbers,
      Map<String, Object> params, int rep, SuiteContext context) throws Exception {
    String variant = isStock ? Measurement.STOCK : DemoTable.PLUGIN;
    MedianRun run = MedianRun.run(conf, input, new Path("/demo/median-" + variant), numbers,
        isStock ? null : SpongeShuffleKeys.COUNTER_GROUP);
    context.err().printf("demo-hadoop: %s median job %.1f s (median %d)%n", variant, run.seconds(), run.median());
    Map<String, Object> p = new LinkedHashMap<>(params);
    if (!isStock) {
      // Checked against stock by the caller before the table is printed; a mismatch fails the demo.
      p.put(DemoTable.SAME_OUTPUT, "yes");
    }
    context.record(variant, p, run.metrics(), rep);
    return run;
  }

  /** The sponge aux service declared once for every NodeManager, exactly as in yarn-site.xml. */
  private static MiniMapReduceCluster spongeCluster(java.nio.file.Path base, java.nio.file.Path pools, int poolMb,
      String zooKeeper) throws Exception {
    return MiniMapReduceCluster.builder()
        .nodeManagers(3)
        .baseDir(base)
        .auxService(SpongeAuxService.SERVICE_NAME, SpongeAuxService.class)
        .set(SpongeConfigKeys.LOCAL_POOL_DIR, pools.toString())
        .set(SpongeConfigKeys.LOCAL_POOL_SIZE, poolMb + "m")
        .set(SpongeServerConfig.PORT, "0")
        .set(SpongeServerConfig.ZK_QUORUM, zooKeeper)
        .start()
        .closeOnShutdown();
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
