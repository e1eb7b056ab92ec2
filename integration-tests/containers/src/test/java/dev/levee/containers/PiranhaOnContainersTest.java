package dev.levee.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Piranha on a cluster of containers, deployed as its sample tells an operator: the client reads
 * the distribution's {@code piranha-site.xml} (the ensemble zk1-zk3) with {@code -conf} and ships
 * the distribution's jar with {@code -libjars}. The paper's running example (the 20 most frequent
 * words) runs as one map-only job whose tasks find each other through the three-server ensemble and
 * stream across the NodeManager containers; its output equals the stock chain of two MapReduce jobs
 * on the same cluster. Then the ensemble's leader is killed while every task of a run waits at its
 * rendezvous: the sessions move to the survivors and the run completes in its first attempt.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class PiranhaOnContainersTest {
  static final String RUN = "Levee Piranha run";

  /** Input files (one scan task each), count tasks, and the one top task: every task of a run. */
  static final int FILES = 2;

  static final int REDUCERS = 2;
  static final int TASKS = FILES + REDUCERS + 1;

  /** Web pages the paper queries read (the bench's seeded data set, 1.9 MB). */
  static final int WEB_RECORDS = 20_000;

  @RegisterExtension static final SharedContainerCluster CLUSTER = new SharedContainerCluster();

  private static JobRun stock;

  @BeforeAll
  static void stockChain() {
    stock = topWords("top-stock", "", "stock");
    assertTrue(stock.succeeded(), "the stock chain failed: " + stock.tail());
  }

  @Test
  void topWordsAsOnePiranhaJobAcrossContainersEqualsTheStockChain() {
    JobRun run = topWords("top-piranha", "", "piranha");
    assertRanAsPiranhaInItsFirstAttempt(run);
    assertEquals(stock.output(), run.output(), "Piranha's output equals the stock chain's");
  }

  /**
   * The paper's two other queries over the bench's seeded web pages, each a user's existing chain
   * of MapReduce jobs handed unchanged to Piranha ({@code MrChain}): TopKDomains (two jobs; few
   * groups, so mostly coordination) and NonSpamTopKAnchor (three jobs, its deepest chain). Each
   * runs as one map-only YARN job in its first attempt, with the chain's redundant maps fused into
   * the reduces before them (four stages of TopKDomains' four become three, NonSpamTopKAnchor's six
   * become four; every task of the DAG, seven at most, runs at once across the three NodeManagers),
   * and writes the chain's top five.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"top-k-domains, 2, 3", "non-spam-top-k-anchor, 3, 4"})
  void aPaperQuerysStockChainRunsAsOnePiranhaJobWithTheChainsOutput(
      String query, int chainJobs, int fusedStages) {
    JobRun chain = paperQuery(query, "stock");
    assertTrue(chain.succeeded(), "the stock chain failed: " + chain.tail());
    JobRun run = paperQuery(query, "piranha");
    System.err.printf(
        "piranha %s: chain %s; piranha %s, %d stages%n",
        query, chain.output(), run.output(), run.counter(RUN, "stages"));
    assertRanAsPiranhaInItsFirstAttempt(run, fusedStages);
    assertEquals(chain.output(), run.output(), "Piranha's output equals the stock chain's");
    assertTrue(chain.output().startsWith("5 lines"), "the top five: " + chain.output());
    assertEquals(
        chainJobs,
        chain
            .log()
            .lines()
            .filter(l -> l.contains("Job job_") && l.contains(" completed successfully"))
            .count(),
        "the stock chain ran its jobs one after another: " + chain.tail());
  }

  /**
   * Every task of the run registered and held at its gate (the scan waits in the tests' mapper),
   * the leader found with the {@code srvr} command and killed; the gate opens once the survivors
   * elected a new leader. The run's sessions (60 s here, as in the in-JVM ensemble test: an
   * election on a loaded two-core machine once took 24 s) reconnect to a survivor, so no task
   * aborts.
   */
  @Test
  void theZooKeeperLeaderKilledAtTheRendezvousCostsNoRerun() throws Exception {
    ContainerCluster cluster = CLUSTER.cluster();
    String root = "/levee/it-failover";
    String gates = "/gates/failover";
    CompletableFuture<JobRun> job =
        CompletableFuture.supplyAsync(
            () ->
                topWords(
                    "top-failover",
                    "-D levee.piranha.zookeeper.root="
                        + root
                        + " -D levee.piranha.zookeeper.session-timeout-ms=60000"
                        + " -D levee.it.gate.attempts=1 -D levee.it.gate.dir="
                        + gates,
                    "piranha"));
    String leader = null;
    try {
      Docker.Result rendezvous =
          cluster.tryExec(
              300,
              "client",
              ContainerCluster.clientJava(
                  "dev.levee.containers.jobs.RendezvousProbe",
                  ClusterConf.ZK_QUORUM + " " + root + " 1 " + TASKS + " 240"));
      assertEquals(
          0,
          rendezvous.exitCode(),
          "every task registered: " + rendezvous.out() + (job.isDone() ? job.get().tail() : ""));
      leader = cluster.zooKeeperLeader();
      System.err.printf(
          "piranha-failover: %s; killing the leader %s%n", rendezvous.out().strip(), leader);
      cluster.kill(leader);
      System.err.printf(
          "piranha-failover: %s leads now; opening the gate%n",
          awaitAnotherLeader(cluster, leader));
    } finally {
      // Whatever failed above, the held run is let go (its tasks would hold the cluster's slots
      // until their gate's deadline) and the ensemble made whole for the next test.
      Docker.Result open =
          cluster.tryExec(
              120,
              "client",
              ContainerCluster.clientJava("org.apache.hadoop.fs.FsShell", "-mkdir -p " + gates)
                  + " && "
                  + ContainerCluster.clientJava(
                      "org.apache.hadoop.fs.FsShell", "-touchz " + gates + "/attempt-1"));
      if (leader != null) {
        cluster.startAgain(leader);
      }
      assertEquals(0, open.exitCode(), "gate opened: " + open.err());
    }
    JobRun run = job.get(8, TimeUnit.MINUTES);
    assertRanAsPiranhaInItsFirstAttempt(run);
    assertEquals(stock.output(), run.output(), "output equals the stock chain's");
  }

  private static String awaitAnotherLeader(ContainerCluster cluster, String old)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    String last = "";
    while (System.nanoTime() < deadline) {
      try {
        String leader = cluster.zooKeeperLeader();
        if (!leader.equals(old)) {
          return leader;
        }
      } catch (IllegalStateException electing) {
        last = electing.getMessage();
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no new leader within 60 s after " + old + " died: " + last);
  }

  /**
   * Piranha's Pig path: the README's top-k Pig Latin script (LOAD, FLATTEN(TOKENIZE), FILTER, GROUP
   * with COUNT, ORDER ... LIMIT, STORE) through PigServer with the exec type looked up by name as
   * {@code pig -x piranha} looks it up, the piranha jar from the distribution on the client's
   * classpath (as the README's PIG_CLASSPATH), the ensemble from its piranha-site.xml. Stock Pig on
   * YARN ({@code -x mapreduce}) is the oracle: the same 15 lines; Piranha ran the script as one
   * map-only YARN job, whose terminal task wrote the output.
   */
  @Test
  void aPigScriptRunsAsOnePiranhaJobWithStockPigsOutput() {
    JobRun stockPig = pigTopWords("mapreduce");
    assertTrue(stockPig.succeeded(), "stock Pig failed: " + stockPig.tail());
    JobRun piranhaPig = pigTopWords("piranha");
    assertTrue(piranhaPig.succeeded(), "Pig on Piranha failed: " + piranhaPig.tail());
    System.err.printf(
        "pig top-k: stock %s in %s jobs, parts %s; piranha %s in %s job(s), parts %s%n",
        stockPig.output(),
        value(stockPig, "PIG_JOBS"),
        lines(stockPig, "PART"),
        piranhaPig.output(),
        value(piranhaPig, "PIG_JOBS"),
        lines(piranhaPig, "PART"));
    assertEquals(
        "dev.levee.piranha.pig.PiranhaExecutionEngine",
        value(piranhaPig, "ENGINE"),
        "-x piranha, looked up by name, gives Piranha's engine");
    assertEquals(stockPig.output(), piranhaPig.output(), "Piranha's output equals stock Pig's");
    assertTrue(stockPig.output().startsWith("15 lines"), "the top 15: " + stockPig.output());
    List<String> ran =
        java.util.Arrays.stream(piranhaPig.log().split("\n"))
            .filter(l -> l.contains("Piranha ran the script as ["))
            .toList();
    assertTrue(
        ran.size() == 1 && ran.get(0).matches(".*as \\[job_\\d+_\\d+\\] in attempt 1 .*"),
        "Piranha ran the whole script as one YARN job, first attempt: " + ran);
    assertEquals(
        "PiranhaPigStats", value(piranhaPig, "PIG_STATS"), "Piranha's statistics, not stock Pig's");
    assertEquals("1", value(piranhaPig, "PIG_JOBS"), "one job: Piranha's");
    assertEquals("15", value(piranhaPig, "PIG_RECORDS"), "records written, as Pig reports them");
    assertTrue(
        Integer.parseInt(value(stockPig, "PIG_JOBS")) >= 3,
        "stock Pig ran its chain (count, sample, sort): " + value(stockPig, "PIG_JOBS"));
    List<String> parts = lines(piranhaPig, "PART");
    assertTrue(
        parts.size() == 1 && parts.get(0).startsWith("part-m-"),
        "written by the terminal task of the map-only Piranha job, not a stock reducer: " + parts);
  }

  private static JobRun pigTopWords(String mode) {
    ContainerCluster cluster = CLUSTER.cluster();
    return JobRun.parse(
        cluster.tryExec(
            480,
            "client",
            ContainerCluster.clientJava(
                ContainerCluster.PIG_LIB + "/*:" + cluster.pluginJar("piranha-dag"),
                "dev.levee.containers.jobs.PigTopWordsRun",
                mode + " /pig-topwords 2 1500")));
  }

  /** The tab-separated value of the first line starting with {@code key}, "" when none. */
  private static String value(JobRun run, String key) {
    List<String> all = lines(run, key);
    return all.isEmpty() ? "" : all.get(0);
  }

  private static List<String> lines(JobRun run, String key) {
    return java.util.Arrays.stream(run.stdout().split("\n"))
        .filter(l -> l.startsWith(key + "\t"))
        .map(l -> l.substring(key.length() + 1))
        .sorted()
        .toList();
  }

  private static void assertRanAsPiranhaInItsFirstAttempt(JobRun run) {
    assertRanAsPiranhaInItsFirstAttempt(run, 3); // scan, count with the invert fused into it, top
  }

  private static void assertRanAsPiranhaInItsFirstAttempt(JobRun run, int stages) {
    assertTrue(run.succeeded(), "the Piranha run failed: " + run.tail());
    assertEquals(
        1,
        run.counter(RUN, "as piranha"),
        "ran as Piranha, no fallback to the chain: " + run.tail());
    assertEquals(1, run.counter(RUN, "attempts"), "in its first attempt: " + run.tail());
    assertEquals(1, run.counter(RUN, "jobs"), "as one YARN job");
    assertEquals(
        stages, run.counter(RUN, "stages"), "stages, the redundant maps fused: " + run.tail());
  }

  private static JobRun paperQuery(String query, String mode) {
    return TierJobs.paperQuery(CLUSTER.cluster(), query, mode, WEB_RECORDS, FILES, REDUCERS);
  }

  private static JobRun topWords(String name, String options, String mode) {
    return TierJobs.topWords(CLUSTER.cluster(), name, options, mode, FILES, REDUCERS);
  }
}
