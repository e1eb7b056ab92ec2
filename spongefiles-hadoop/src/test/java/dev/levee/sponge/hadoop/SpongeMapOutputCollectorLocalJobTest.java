package dev.levee.sponge.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.SpongeCounters;
import dev.levee.sponge.SpongeCounters.Counter;
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
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.log4j.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Jobs whose maps spill several times, on the LocalJobRunner, run with Hadoop's own map output
 * buffer and with {@link SpongeMapOutputCollector} against a real sponge server and shared-memory
 * pool in this JVM: the output must be byte for byte the same, the runs must have gone into the
 * sponge and not to local disk, and every chunk must be freed.
 */
class SpongeMapOutputCollectorLocalJobTest {
  private static Path work;
  private static Path input;
  private static LocalSponge sponge;

  @BeforeAll
  static void startSponge() throws IOException {
    work =
        Path.of("target", "sponge-map-spill-test", UUID.randomUUID().toString()).toAbsolutePath();
    input = work.resolve("input");
    MapSpillJobs.writeInput(input);
    sponge = LocalSponge.start(work);
  }

  @AfterAll
  static void stopSponge() {
    if (sponge != null) {
      sponge.close();
    }
    FileUtil.fullyDelete(work.toFile());
  }

  /** The sponge map collector only: the reduce side stays stock, so every counter is the maps'. */
  private static JobConf mapSide(JobConf job, int port) {
    sponge.configure(job, port);
    job.unset(MRConfig.SHUFFLE_CONSUMER_PLUGIN);
    job.set(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, SpongeMapOutputCollector.COLLECTOR_CLASS);
    return job;
  }

  private static JobConf mapSide(JobConf job) {
    return mapSide(job, sponge.node().address().port());
  }

  private static long task(RunningJob run, TaskCounter c) throws IOException {
    return run.getCounters().findCounter(c).getValue();
  }

  /**
   * Runs both; asserts equal output, spills into the sponge, nothing left behind. (Stock counts
   * MAP_OUTPUT_BYTES of records bigger than its buffer differently, so jobs with such records
   * compare everything else.)
   */
  private static Counters.Group compare(String name, JobConf stock, JobConf withSponge)
      throws IOException {
    return compare(name, stock, withSponge, true);
  }

  private static Counters.Group compare(
      String name, JobConf stock, JobConf withSponge, boolean sameOutputBytes) throws IOException {
    RunningJob stockRun = ShuffleJobs.run(stock);
    RunningJob spongeRun = ShuffleJobs.run(withSponge);
    byte[] expected = MapSpillJobs.output(work.resolve(name + "-stock"));
    assertTrue(expected.length > 10_000, "stock output suspiciously small: " + expected.length);
    assertArrayEquals(
        expected,
        MapSpillJobs.output(work.resolve(name + "-sponge")),
        name + ": output differs from stock");
    assertEquals(
        task(stockRun, TaskCounter.MAP_OUTPUT_RECORDS),
        task(spongeRun, TaskCounter.MAP_OUTPUT_RECORDS));
    if (sameOutputBytes) {
      assertEquals(
          task(stockRun, TaskCounter.MAP_OUTPUT_BYTES),
          task(spongeRun, TaskCounter.MAP_OUTPUT_BYTES));
    }
    assertEquals(
        task(stockRun, TaskCounter.REDUCE_INPUT_GROUPS),
        task(spongeRun, TaskCounter.REDUCE_INPUT_GROUPS));

    Counters.Group g = spongeRun.getCounters().getGroup(SpongeCounters.GROUP);
    assertEquals(0, g.getCounter(Counter.MAP_FALLBACKS.counterName()), name + ": fell back");
    long spills = g.getCounter(Counter.MAP_SPILLS.counterName());
    assertTrue(
        spills >= 3L * MapSpillJobs.MAPS,
        name + ": each map must spill several times, spilled " + spills);
    assertEquals(
        MapSpillJobs.MAPS,
        g.getCounter(Counter.MAP_MERGE_ROUNDS.counterName()),
        name + ": one merge round per map");
    long spilled = g.getCounter(Counter.MAP_SPILL_BYTES.counterName());
    assertEquals(
        spilled,
        g.getCounter(SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.LOCAL_MEMORY)),
        name + ": every run in the local sponge");
    assertEquals(
        spilled,
        g.getCounter(SpongeCounters.PerTier.BYTES_READ.of(Tier.LOCAL_MEMORY)),
        name + ": every run read back once");
    assertEquals(
        g.getCounter(SpongeCounters.PerTier.CHUNKS_WRITTEN.of(Tier.LOCAL_MEMORY)),
        g.getCounter(SpongeCounters.PerTier.CHUNKS_FREED.of(Tier.LOCAL_MEMORY)),
        name + ": every chunk freed");
    assertEquals(
        g.getCounter(Counter.FILES_CREATED.counterName()),
        g.getCounter(Counter.FILES_DELETED.counterName()),
        name + ": files left behind");
    assertEquals(
        LocalSponge.POOL_CHUNKS,
        sponge.node().metrics().getChunksFree(),
        name + ": sponge pool not fully free after the job");
    // What it saves. Local file-system counters are useless here: the LocalJobRunner's tasks share
    // one JVM's statistics (the YARN test compares them per map); records are counted per task.
    assertTrue(
        task(stockRun, TaskCounter.SPILLED_RECORDS) > task(spongeRun, TaskCounter.SPILLED_RECORDS),
        name
            + ": stock's merge rounds of "
            + MapSpillJobs.SORT_FACTOR
            + " rewrite records; one round does not");
    System.out.printf(
        "%s: spilled records stock %d, sponge %d; runs %d of %d bytes%n",
        name,
        task(stockRun, TaskCounter.SPILLED_RECORDS),
        task(spongeRun, TaskCounter.SPILLED_RECORDS),
        spills,
        spilled);
    return g;
  }

  /** The output of the plain job with stock spills (run by the first test that needs it). */
  private static synchronized byte[] plainStockOutput() throws IOException {
    Path out = work.resolve("plain-stock");
    if (!Files.exists(out.resolve("_SUCCESS"))) {
      ShuffleJobs.run(job("plain-stock", false));
    }
    return MapSpillJobs.output(out);
  }

  private static JobConf job(String name, boolean combiner) {
    return MapSpillJobs.job(work, input, work.resolve(name), combiner);
  }

  @Test
  void spillsIntoTheSpongeAndMatchesStock() throws IOException {
    compare("plain", job("plain-stock", false), mapSide(job("plain-sponge", false)));
  }

  @Test
  void combinerAtEachSpillAndAtTheMergeMatchesStock() throws IOException {
    JobConf stock = job("combiner-stock", true);
    JobConf withSponge = mapSide(job("combiner-sponge", true));
    compare("combiner", stock, withSponge);
  }

  @Test
  void compressedMapOutputMatchesStock() throws IOException {
    JobConf stock = job("compressed-stock", false);
    JobConf withSponge = mapSide(job("compressed-sponge", false));
    ShuffleJobs.compressMapOutput(stock, withSponge);
    compare("compressed", stock, withSponge);
  }

  @Test
  void compressedWithCombinerMatchesStock() throws IOException {
    JobConf stock = job("compressed-combiner-stock", true);
    JobConf withSponge = mapSide(job("compressed-combiner-sponge", true));
    ShuffleJobs.compressMapOutput(stock, withSponge);
    compare("compressed-combiner", stock, withSponge);
  }

  @Test
  void recordsBiggerThanTheSortBufferMatchStock() throws IOException {
    JobConf stock = MapSpillJobs.oversizedJob(work, input, work.resolve("oversized-stock"));
    JobConf withSponge =
        mapSide(MapSpillJobs.oversizedJob(work, input, work.resolve("oversized-sponge")));
    Counters.Group g = compare("oversized", stock, withSponge, false);
    assertTrue(g.getCounter(Counter.MAP_OVERSIZED_RECORDS.counterName()) > 0);
  }

  @Test
  void customRawComparatorSortsSpillsAndMergeLikeStock() throws IOException {
    JobConf stock = job("comparator-stock", false);
    JobConf withSponge = mapSide(job("comparator-sponge", false));
    for (JobConf j : new JobConf[] {stock, withSponge}) {
      j.setOutputKeyComparatorClass(MapSpillJobs.ReverseTextComparator.class);
    }
    compare("comparator", stock, withSponge);
    List<String> lines =
        Files.readAllLines(work.resolve("comparator-sponge").resolve("part-00000"));
    String k0 = lines.get(0).split("\t")[0];
    String k1 = lines.get(1).split("\t")[0];
    assertTrue(
        k0.compareTo(k1) > 0, "keys in the comparator's descending order: " + k0 + ", " + k1);
  }

  /**
   * Runs outside the local sponge need a chunk buffer each while the merge reads them; when the
   * direct memory allowed holds fewer, the smallest runs are merged first, into a new run.
   */
  @Test
  void runsBeyondTheReadBufferBudgetAreMergedInRounds() throws IOException {
    JobConf withSponge = mapSide(job("rounds-sponge", false));
    withSponge.setBoolean(SpongeConf.LOCAL_ENABLED.name(), false); // runs go to the disk tier
    withSponge.set(SpongeConf.MAP_MERGE_DIRECT_MEMORY_FRACTION.name(), "0.0000001");
    RunningJob run = ShuffleJobs.run(withSponge);
    assertArrayEquals(plainStockOutput(), MapSpillJobs.output(work.resolve("rounds-sponge")));
    Counters.Group g = run.getCounters().getGroup(SpongeCounters.GROUP);
    long spills = g.getCounter(Counter.MAP_SPILLS.counterName());
    assertTrue(spills >= 3L * MapSpillJobs.MAPS, "spills: " + spills);
    assertTrue(
        g.getCounter(Counter.MAP_MERGE_ROUNDS.counterName()) > MapSpillJobs.MAPS,
        "intermediate rounds: " + g.getCounter(Counter.MAP_MERGE_ROUNDS.counterName()));
    assertEquals(
        g.getCounter(Counter.MAP_SPILL_BYTES.counterName()),
        g.getCounter(SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.LOCAL_DISK)),
        "every run (spilled or merged) on the disk tier");
    assertEquals(
        g.getCounter(Counter.FILES_CREATED.counterName()),
        g.getCounter(Counter.FILES_DELETED.counterName()),
        "files left behind");
  }

  @Test
  void fallsBackToStockWhenNoSpongeServerAnswers() throws IOException {
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort();
    }
    JobConf withSponge = mapSide(job("fallback-sponge", false), deadPort);
    RunningJob run = ShuffleJobs.run(withSponge);
    assertArrayEquals(plainStockOutput(), MapSpillJobs.output(work.resolve("fallback-sponge")));
    Counters.Group g = run.getCounters().getGroup(SpongeCounters.GROUP);
    assertEquals(MapSpillJobs.MAPS, g.getCounter(Counter.MAP_FALLBACKS.counterName()));
    assertEquals(0, g.getCounter(Counter.MAP_SPILLS.counterName()));
    assertEquals(0, g.getCounter(SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.LOCAL_MEMORY)));
  }

  @Test
  void fallbackFailPolicyFailsTheAttempt() throws IOException {
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort();
    }
    JobConf job = mapSide(job("fallback-fail", false), deadPort);
    job.set(SpongeConf.MAP_FALLBACK.name(), "fail");
    job.setInt(MRJobConfig.MAP_MAX_ATTEMPTS, 1);
    try (CapturedLog log = CapturedLog.start()) {
      assertThrows(IllegalStateException.class, () -> ShuffleJobs.run(job));
      // The attempt failed for this reason, not any other: the error the task logged names the
      // key (the local runner keeps no task diagnostics).
      List<String> errors = log.throwables(Level.WARN, "org.apache.hadoop.mapred");
      assertTrue(
          errors.stream().anyMatch(t -> t.contains(SpongeConf.MAP_FALLBACK.name() + "=fail")),
          String.valueOf(errors));
    }
    assertTrue(Files.notExists(work.resolve("fallback-fail").resolve("_SUCCESS")));
  }

  @Test
  void encryptedIntermediateDataIsLeftToStock() {
    JobConf job = mapSide(job("encrypted", false));
    job.setBoolean(MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA, true);
    SpongeAttacher.Attachment a =
        SpongeAttacher.attach(
            job, org.apache.hadoop.mapreduce.TaskAttemptID.forName("attempt_1_0001_m_000000_0"));
    assertTrue(
        !a.available()
            && a.unavailableReason().contains(MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA),
        String.valueOf(a.unavailableReason()));
  }
}
