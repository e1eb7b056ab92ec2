package dev.levee.bench.hadoop.piranha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.bench.gen.DatasetWriter;
import dev.levee.bench.progress.ProgressReporter;
import dev.levee.it.pig.PigOnMiniCluster;
import dev.levee.piranha.dag.MrChain;
import dev.levee.piranha.dag.PiranhaDag;
import dev.levee.piranha.examples.web.NonSpamTopKAnchorQuery;
import dev.levee.piranha.examples.web.PaperQueries;
import dev.levee.piranha.examples.web.PaperQuery;
import dev.levee.piranha.examples.web.TopKDomainsQuery;
import dev.levee.piranha.examples.web.TopKWordsQuery;
import dev.levee.piranha.pig.PiranhaExecType;
import dev.levee.piranha.plan.RunPlan;
import dev.levee.piranha.runner.LocalFixture;
import dev.levee.piranha.runner.PiranhaRunner;
import dev.levee.piranha.runner.RunResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.pig.PigServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The bench's three paper queries on a few thousand seeded web records, every task a thread of this
 * JVM (Hadoop's local job runner, a real ZooKeeper): Piranha running the stock chain, and the
 * query's Pig script on stock Pig and on Piranha's Pig path, all give the chain's top k.
 */
class PaperQueriesTest {
  private static final int REDUCERS = 2;
  @TempDir static Path dir;
  private static LocalFixture local;
  private static org.apache.hadoop.fs.Path web;
  private static final Map<String, List<String>> chainOutput = new HashMap<>();

  @BeforeAll
  static void setUp() throws Exception {
    local = new LocalFixture(dir);
    web = path("web");
    new DatasetWriter(conf())
        .writeBuiltIn(
            "web",
            42,
            Map.of(),
            new DatasetWriter.Plan(web.toString(), 3000, 2, 1, true),
            ProgressReporter.start("web", 3000, "records"));
    for (String name : PaperQueries.NAMES) {
      PaperQuery q = PaperQueries.of(name, REDUCERS);
      org.apache.hadoop.fs.Path out = path("chain-" + name);
      for (var job : q.chain(conf(), web, path("chain-tmp-" + name), out)) {
        assertTrue(job.waitForCompletion(false), job.getJobName());
      }
      chainOutput.put(name, read(out));
    }
    assertEquals(TopKDomainsQuery.K, chainOutput.get(TopKDomainsQuery.NAME).size());
    assertEquals(NonSpamTopKAnchorQuery.K, chainOutput.get(NonSpamTopKAnchorQuery.NAME).size());
    assertEquals(TopKWordsQuery.K, chainOutput.get(TopKWordsQuery.NAME).size());
  }

  @AfterAll
  static void tearDown() throws Exception {
    local.close();
  }

  /**
   * The paper's deepest chain: six MapReduce stages, of which the second job's map (anchors to
   * words) and the third's (inverting the counts) are the redundant ones the fused configurations
   * run inside the reduce before them; TopKDomains has one.
   */
  @Test
  void nonSpamTopKAnchorIsSixStagesOfWhichTheFusedConfigurationsRemoveTwo() throws Exception {
    Configuration conf = conf();
    assertEquals(
        List.of("j1_map", "j1_reduce", "j2_map", "j2_reduce", "j3_map", "j3_reduce"),
        stages(dag(NonSpamTopKAnchorQuery.NAME, conf, "shape"), false));
    assertEquals(
        List.of("j1_map", "j1_reduce", "j2_reduce", "j3_reduce"),
        stages(dag(NonSpamTopKAnchorQuery.NAME, conf, "shape"), true));
    assertEquals(
        List.of("j1_map", "j1_reduce", "j2_reduce"),
        stages(dag(TopKDomainsQuery.NAME, conf, "shape"), true));
  }

  @ParameterizedTest(name = "{0} as Piranha {1}")
  @CsvSource({
    "top-k-domains, fused-none",
    "top-k-domains, kept-dfs",
    "non-spam-top-k-anchor, fused-none",
    "non-spam-top-k-anchor, kept-none",
    "non-spam-top-k-anchor, fused-local",
    "non-spam-top-k-anchor, kept-dfs",
  })
  void piranhaOnTheStockChainWritesTheChainsTopK(String name, String config) throws Exception {
    Configuration conf = PiranhaSuite.withConfig(conf(), config, "/test-" + config);
    org.apache.hadoop.fs.Path out = path(name + "-" + config);
    RunResult r =
        new PiranhaRunner(conf)
            .run(
                MrChain.of(
                    name,
                    conf,
                    PaperQueries.of(name, REDUCERS)
                        .chain(conf, web, path("unused-" + name + "-" + config), out)));

    assertEquals(RunResult.Mode.PIRANHA, r.mode());
    assertEquals(chainOutput.get(name), read(out));
  }

  /**
   * Piranha's Pig path runs each script as one DAG and writes the chain's top k. (Stock Pig's
   * output on the same script is checked against the chain in every round of the bench; here it
   * would double the test's time.)
   */
  @ParameterizedTest
  @ValueSource(strings = {"top-k-domains", "top-k-words", "non-spam-top-k-anchor"})
  void thePigScriptRunsOnPiranhaAndWritesTheChainsTopK(String name) throws Exception {
    org.apache.hadoop.fs.Path out = path("piranha-pig-" + name);
    Properties p = localPig(name);
    p.setProperty("levee.piranha.zookeeper.quorum", conf().get("levee.piranha.zookeeper.quorum"));
    p.setProperty("levee.piranha.zookeeper.root", "/pig-" + name);
    PigScripts.run(
        new PigServer(new PiranhaExecType(), p),
        PaperQueries.of(name, REDUCERS).pigScript(),
        web,
        out);

    assertTrue(PigScripts.ranOnPiranha(FileSystem.getLocal(conf()), out), "ran as a Piranha DAG");
    assertEquals(chainOutput.get(name), PaperQuery.pigLinesAsChain(read(out)));
  }

  private static PiranhaDag dag(String name, Configuration conf, String where) throws Exception {
    return MrChain.of(
        name,
        conf,
        PaperQueries.of(name, REDUCERS).chain(conf, web, path(where + "-tmp"), path(where)));
  }

  /** The stages the runner would start, with the redundant ones fused or kept. */
  private static List<String> stages(PiranhaDag dag, boolean fused) {
    RunPlan plan = RunPlan.resolve(dag, Map.of("j1_map", 2));
    if (fused) {
      plan = plan.withoutRedundantStages(conf());
    }
    List<String> names = new ArrayList<>();
    for (int i = 0; i < plan.stageCount(); i++) {
      names.add(plan.stage(i).name());
    }
    return names;
  }

  private static Properties localPig(String name) {
    Properties p = new Properties();
    // No *-site.xml on this classpath: Pig takes these properties as the Hadoop configuration.
    p.setProperty(PigOnMiniCluster.USE_GIVEN_HADOOP_CONFIG, "true");
    p.setProperty("mapreduce.framework.name", "local");
    p.setProperty("fs.defaultFS", "file:///");
    p.setProperty("hadoop.tmp.dir", dir.resolve("pig-tmp-" + name).toString());
    p.setProperty("mapreduce.cluster.local.dir", dir.resolve("pig-local-" + name).toString());
    p.setProperty("levee.piranha.checkpoint.dfs-dir", dir.resolve("pig-scratch").toString());
    return p;
  }

  private static Configuration conf() {
    return local.conf();
  }

  private static org.apache.hadoop.fs.Path path(String name) {
    return new org.apache.hadoop.fs.Path(dir.resolve(name).toUri());
  }

  private static List<String> read(org.apache.hadoop.fs.Path out) throws Exception {
    return PiranhaDemoRow.read(FileSystem.getLocal(conf()), out);
  }
}
