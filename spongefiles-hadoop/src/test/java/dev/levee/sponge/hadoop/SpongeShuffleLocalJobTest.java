package dev.levee.sponge.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.SpongeCounters;
import dev.levee.sponge.Tier;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.testing.CapturedLog;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RunningJob;
import org.apache.log4j.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Real MapReduce jobs on the LocalJobRunner, each run twice on the same input, with the stock
 * shuffle and with {@link SpongeShuffle} against a real sponge server (in this JVM, on loopback)
 * and its shared-memory pool; the reducer's output must be byte-for-byte the same.
 */
class SpongeShuffleLocalJobTest {
  private static Path work;
  private static Path input;
  private static LocalSponge sponge;

  @BeforeAll
  static void startSponge() throws IOException {
    work = Path.of("target", "sponge-shuffle-test", UUID.randomUUID().toString()).toAbsolutePath();
    input = work.resolve("input");
    ShuffleJobs.writeInput(input);
    sponge = LocalSponge.start(work);
  }

  @AfterAll
  static void stopSponge() {
    if (sponge != null) {
      sponge.close();
    }
    FileUtil.fullyDelete(work.toFile());
  }

  private static Counters.Group sponge(RunningJob job) throws IOException {
    return job.getCounters().getGroup(SpongeCounters.GROUP);
  }

  /** Runs stock, then SpongeFiles; asserts equal output and a real spill into the local sponge. */
  private static Counters.Group compare(String name, boolean combiner, boolean compress)
      throws IOException {
    return compare(name, combiner, compress, Tier.LOCAL_MEMORY);
  }

  /**
   * @param tier where the spills must land: {@link Tier#LOCAL_SERVER} runs the reduce with {@code
   *     levee.sponge.local.access=server}
   */
  private static Counters.Group compare(String name, boolean combiner, boolean compress, Tier tier)
      throws IOException {
    JobConf stock = ShuffleJobs.job(work, input, work.resolve(name + "-stock"), combiner);
    JobConf withSponge =
        sponge.configure(ShuffleJobs.job(work, input, work.resolve(name + "-sponge"), combiner));
    if (tier == Tier.LOCAL_SERVER) {
      withSponge.set(SpongeConf.LOCAL_ACCESS.name(), "server");
    }
    if (compress) {
      ShuffleJobs.compressMapOutput(stock, withSponge);
    }
    RunningJob stockRun = ShuffleJobs.run(stock);
    RunningJob spongeRun = ShuffleJobs.run(withSponge);

    byte[] expected = ShuffleJobs.output(work.resolve(name + "-stock"));
    assertTrue(expected.length > 10_000, "stock output suspiciously small: " + expected.length);
    assertArrayEquals(
        expected,
        ShuffleJobs.output(work.resolve(name + "-sponge")),
        name + ": SpongeFiles output differs from stock");
    assertEquals(
        0,
        stockRun.getCounters().getGroup(SpongeCounters.GROUP).size(),
        "the stock run must not touch SpongeFiles");

    Counters.Group g = sponge(spongeRun);
    assertEquals(
        0,
        g.getCounter(SpongeCounters.Counter.SHUFFLE_FALLBACKS.counterName()),
        name + ": unexpected fallback");
    assertTrue(
        g.getCounter(SpongeCounters.PerTier.BYTES_WRITTEN.of(tier)) > 0,
        name + ": nothing reached the local sponge through " + tier);
    for (Tier other : Tier.values()) {
      if (other != tier) {
        assertEquals(
            0,
            g.getCounter(SpongeCounters.PerTier.BYTES_WRITTEN.of(other)),
            name + ": bytes spilled to " + other);
      }
    }
    assertEquals(
        g.getCounter(SpongeCounters.PerTier.BYTES_WRITTEN.of(tier)),
        g.getCounter(SpongeCounters.PerTier.BYTES_READ.of(tier)),
        name + ": every spilled byte is read back once");
    assertEquals(
        g.getCounter(SpongeCounters.PerTier.CHUNKS_WRITTEN.of(tier)),
        g.getCounter(SpongeCounters.PerTier.CHUNKS_FREED.of(tier)),
        name + ": every chunk is freed");
    assertEquals(
        g.getCounter(SpongeCounters.Counter.FILES_CREATED.counterName()),
        g.getCounter(SpongeCounters.Counter.FILES_DELETED.counterName()),
        name + ": files left behind");
    assertTrue(
        g.getCounter(SpongeCounters.Counter.SHUFFLE_MEMORY_SPILLS.counterName()) > 0,
        name + ": the in-memory buffer never spilled");
    assertEquals(
        1,
        g.getCounter(SpongeCounters.Counter.MERGE_ROUNDS.counterName()),
        name + ": the final merge must take one round");
    // The map-side combiner shrinks each map output to at most one record per key, so fewer runs
    // reach the reducer.
    assertTrue(
        g.getCounter(SpongeCounters.Counter.MERGE_FINAL_RUNS.counterName())
            > (combiner ? 1 : ShuffleJobs.SORT_FACTOR),
        name + ": more runs than io.sort.factor expected, so stock would merge in several rounds");
    assertEquals(
        LocalSponge.POOL_CHUNKS,
        sponge.node().metrics().getChunksFree(),
        name + ": sponge pool not fully free after the job");
    return g;
  }

  @Test
  void spillsIntoTheLocalSpongeAndMatchesStock() throws IOException {
    Counters.Group g = compare("plain", false, false);
    assertTrue(
        g.getCounter(SpongeCounters.Counter.SHUFFLE_MAP_OUTPUTS_TO_SPONGE.counterName()) > 0,
        "map outputs larger than the single-shuffle limit must go straight into SpongeFiles");
    assertEquals(
        1,
        g.getCounter(SpongeCounters.Counter.MERGE_FINAL_PREFETCH.counterName()),
        "runs in the local sponge need no read buffers, so the final merge prefetches");
  }

  /**
   * Issue 13, item 2: a reduce that may not map the pool spills through its node's server. Its
   * chunks cost round trips, so the figures of where SpongeFiles block show them; the drained runs
   * are freed in the background and still all counted freed (compare).
   */
  @Test
  void reduceThatMayNotMapThePoolSpillsThroughTheNodesServerAndMatchesStock() throws IOException {
    Counters.Group g = compare("via-server", false, false, Tier.LOCAL_SERVER);
    for (SpongeCounters.Counter c :
        List.of(
            SpongeCounters.Counter.WRITE_PERMIT_WAIT_NANOS,
            SpongeCounters.Counter.READ_WAIT_NANOS,
            SpongeCounters.Counter.FREE_NANOS)) {
      assertTrue(g.getCounter(c.counterName()) > 0, c.counterName() + " not counted");
    }
    assertEquals(0, g.getCounter(SpongeCounters.Counter.FREE_FAILURES.counterName()));
    assertEquals(0, g.getCounter(SpongeCounters.Counter.FREE_ABANDONED.counterName()));
  }

  @Test
  void combinerOnInMemoryMergeMatchesStock() throws IOException {
    compare("combiner", true, false);
  }

  @Test
  void compressedMapOutputsMatchStock() throws IOException {
    Counters.Group g = compare("compressed", false, true);
    assertTrue(
        g.getCounter(SpongeCounters.Counter.SHUFFLE_MAP_OUTPUTS_TO_SPONGE.counterName()) > 0,
        "compressed outputs must reach SpongeFiles too");
  }

  @Test
  void fallsBackToStockWhenNoSpongeServerAnswers() throws IOException {
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort();
    }
    JobConf stock = ShuffleJobs.job(work, input, work.resolve("fallback-stock"), false);
    JobConf withSponge =
        sponge.configure(
            ShuffleJobs.job(work, input, work.resolve("fallback-sponge"), false), deadPort);
    ShuffleJobs.run(stock);
    RunningJob run = ShuffleJobs.run(withSponge);
    assertArrayEquals(
        ShuffleJobs.output(work.resolve("fallback-stock")),
        ShuffleJobs.output(work.resolve("fallback-sponge")));
    Counters.Group g = sponge(run);
    assertEquals(1, g.getCounter(SpongeCounters.Counter.SHUFFLE_FALLBACKS.counterName()));
    assertEquals(0, g.getCounter(SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.LOCAL_MEMORY)));
    assertTrue(Files.exists(work.resolve("fallback-sponge").resolve("_SUCCESS")));
  }

  /**
   * ZooKeeper down: the reduce waits once, at most the connect timeout, then spills to local memory
   * and disk; the give-up is counted and logged once, however many files the task creates. Before,
   * every SpongeFile waited ~19 s for ZooKeeper (a job took 94 s instead of 30), nothing was
   * counted, and each file logged a stack trace.
   */
  @Test
  void unreachableTrackerCostsOneBoundedWaitAndLeavesLocalMemory() throws IOException {
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort();
    }
    JobConf stock = ShuffleJobs.job(work, input, work.resolve("no-zk-stock"), false);
    JobConf withSponge =
        sponge.configure(ShuffleJobs.job(work, input, work.resolve("no-zk-sponge"), false));
    withSponge.set(SpongeConf.ZK_QUORUM.name(), "127.0.0.1:" + deadPort);
    withSponge.setInt(SpongeConf.ZK_CONNECT_TIMEOUT_MS.name(), 500);
    ShuffleJobs.run(stock);
    RunningJob run;
    try (CapturedLog log = CapturedLog.start()) {
      run = ShuffleJobs.run(withSponge);
      List<String> warnings = log.messages(Level.WARN, "dev.levee");
      assertEquals(
          1,
          warnings.stream().filter(m -> m.contains("remote memory is off")).count(),
          "one line says remote memory is off: " + warnings);
      assertEquals(1, warnings.size(), "and nothing else warns: " + warnings);
    }
    assertArrayEquals(
        ShuffleJobs.output(work.resolve("no-zk-stock")),
        ShuffleJobs.output(work.resolve("no-zk-sponge")));
    Counters.Group g = sponge(run);
    assertEquals(1, g.getCounter(SpongeCounters.Counter.REMOTE_TRACKER_UNREACHABLE.counterName()));
    assertEquals(
        0,
        g.getCounter(SpongeCounters.Counter.SHUFFLE_FALLBACKS.counterName()),
        "SpongeFiles still in use");
    assertTrue(
        g.getCounter(SpongeCounters.Counter.FILES_CREATED.counterName()) > 3,
        "several files, one wait");
    assertTrue(
        g.getCounter(SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.LOCAL_MEMORY)) > 0,
        "local memory still serves");
    assertEquals(0, g.getCounter(SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.REMOTE_MEMORY)));
  }

  /** With fallback=fail, a node without a usable sponge fails the attempt instead of spilling. */
  @Test
  void fallbackFailPolicyFailsTheAttempt() throws IOException {
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort();
    }
    JobConf job =
        sponge.configure(
            ShuffleJobs.job(work, input, work.resolve("fallback-fail"), false), deadPort);
    job.set(SpongeConf.SHUFFLE_FALLBACK.name(), "fail");
    job.setInt(org.apache.hadoop.mapreduce.MRJobConfig.REDUCE_MAX_ATTEMPTS, 1);
    assertThrows(IllegalStateException.class, () -> ShuffleJobs.run(job));
    assertTrue(Files.notExists(work.resolve("fallback-fail").resolve("_SUCCESS")));
  }
}
