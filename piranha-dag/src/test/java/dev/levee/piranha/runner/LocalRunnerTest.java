package dev.levee.piranha.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.piranha.PiranhaCounters;
import dev.levee.piranha.examples.TopWords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The whole runtime in one JVM: the local job runner runs every task of the DAG as a thread, with a
 * real ZooKeeper server and real sockets between tasks. Output must equal the stock chain's.
 */
class LocalRunnerTest {
  @TempDir static Path dir;
  static LocalFixture fixture;
  static Path input;
  static List<String> stock;

  @BeforeAll
  static void setUp() throws Exception {
    fixture = new LocalFixture(dir);
    input = LocalFixture.words(dir.resolve("in"), 3, 400, 42);
    Configuration conf = fixture.conf();
    org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path(dir.resolve("stock").toString());
    LocalFixture.runAll(
        TopWords.chain(
            conf,
            new org.apache.hadoop.fs.Path(input.toString()),
            new org.apache.hadoop.fs.Path(dir.resolve("stock-tmp").toString()),
            out,
            3,
            25));
    stock = LocalFixture.output(dir.resolve("stock"));
    assertEquals(25, stock.size(), "stock top 25");
  }

  @AfterAll
  static void tearDown() throws Exception {
    fixture.close();
  }

  @ParameterizedTest(name = "redundant stages fused={0}, checkpoint={1}, from chain={2}")
  @CsvSource({
    "true, none, false",
    "false, none, false",
    "true, local, true",
    "false, dfs, true",
  })
  void topWordsEqualsStockChain(boolean fuse, String checkpoint, boolean fromChain)
      throws Exception {
    Configuration conf = fixture.conf();
    conf.setBoolean("levee.piranha.plan.eliminate-redundant-stages", fuse);
    conf.set("levee.piranha.checkpoint", checkpoint);
    String name = "piranha-" + fuse + "-" + checkpoint + "-" + fromChain;
    org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path(dir.resolve(name).toString());
    org.apache.hadoop.fs.Path in = new org.apache.hadoop.fs.Path(input.toString());
    var dag =
        fromChain
            ? TopWords.dagFromChain(
                conf,
                in,
                new org.apache.hadoop.fs.Path(dir.resolve(name + "-tmp").toString()),
                out,
                3,
                25)
            : TopWords.dag(in, out, 3, 25);
    RunResult r = new PiranhaRunner(conf).run(dag);

    assertEquals(RunResult.Mode.PIRANHA, r.mode());
    assertEquals(1, r.attempts());
    assertEquals(stock, LocalFixture.output(dir.resolve(name)));
    assertTrue(Files.exists(dir.resolve(name).resolve("_SUCCESS")));
    assertFalse(Files.exists(dir.resolve(name + "-tmp")), "nothing written between the jobs");
    assertEquals(
        1, r.counters().findCounter(PiranhaCounters.GROUP, PiranhaCounters.ATTEMPT).getValue());
    assertTrue(r.counters().findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue() >= 2400);
  }
}
