package dev.levee.themis.jobs;

import static dev.levee.themis.jobs.LocalJobs.themis;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.themis.ThemisConf;
import dev.levee.themis.ThemisCounters;
import dev.levee.themis.map.ThemisMapOutputCollector;
import dev.levee.themis.reduce.ThemisShuffle;
import java.nio.file.Path;
import java.util.UUID;
import javax.crypto.KeyGenerator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Real jobs on the LocalJobRunner (real MapTask and ReduceTask, Hadoop's local fetcher), each run
 * with stock Hadoop and with Themis on the same input: the output files must be identical, and the
 * counters must show the path Themis took.
 */
class LocalJobTest {
  private static final int MAPS = 4;
  private static final int REDUCERS = 3;
  private static Path work;
  private static Path text;
  private static Path pairs;
  private static int runs;

  @BeforeAll
  static void input() throws Exception {
    work = Path.of("target", "local-jobs", UUID.randomUUID().toString()).toAbsolutePath();
    text = LocalJobs.writeText(work.resolve("text"), MAPS, 4_000, 1);
    pairs = LocalJobs.writePairs(work.resolve("pairs"), MAPS, 5_000, 2);
  }

  @AfterAll
  static void cleanUp() {
    FileUtil.fullyDelete(work.toFile());
  }

  private interface Setup {
    void apply(Job job);
  }

  private record Run(String output, Counters counters, boolean ok) {}

  private static Run run(Configuration conf, Path in, Setup setup) throws Exception {
    Path out = work.resolve("out-" + runs++);
    Job job = LocalJobs.job(conf, "t" + runs, in, out, REDUCERS);
    setup.apply(job);
    boolean ok = LocalJobs.run(job);
    return new Run(ok ? LocalJobs.output(out) : null, ok ? job.getCounters() : null, ok);
  }

  private static Run compare(Configuration themisConf, Path in, Setup setup) throws Exception {
    Run stock = run(LocalJobs.local(work), in, setup);
    Run plugin = run(themisConf, in, setup);
    assertTrue(stock.ok() && plugin.ok(), "both jobs succeed");
    assertTrue(stock.output().length() > 10_000, "stock output is substantial");
    assertEquals(stock.output(), plugin.output(), "Themis output equals stock, byte for byte");
    assertEquals(
        stock.counters().findCounter(TaskCounter.REDUCE_INPUT_GROUPS).getValue(),
        plugin.counters().findCounter(TaskCounter.REDUCE_INPUT_GROUPS).getValue());
    return plugin;
  }

  @Test
  void wordCountWithACombinerSortsAtTheMapAndEqualsStock() throws Exception {
    Run r =
        compare(LocalJobs.themis(LocalJobs.local(work)), text, j -> WordCount.configure(j, true));
    Counters c = r.counters();
    assertEquals(MAPS, themis(c, ThemisCounters.MAP_SORTED_OUTPUTS), "a combiner sorts");
    assertEquals(0, themis(c, ThemisCounters.MAP_UNSORTED_OUTPUTS));
    assertTrue(c.findCounter(TaskCounter.COMBINE_INPUT_RECORDS).getValue() > 0);
    assertTrue(
        c.findCounter(TaskCounter.COMBINE_OUTPUT_RECORDS).getValue()
            < c.findCounter(TaskCounter.COMBINE_INPUT_RECORDS).getValue(),
        "the combiner combined");
    assertEquals(
        c.findCounter(TaskCounter.REDUCE_INPUT_RECORDS).getValue(),
        themis(c, ThemisCounters.REDUCE_RECORDS_SORTED),
        "the reducers sorted every record they received, once");
    assertEquals(0, themis(c, ThemisCounters.REDUCE_OVERFLOW_RUNS));
    assertEquals(0, themis(c, ThemisCounters.MAP_OVERFLOW_RUNS));
    assertEquals(
        c.findCounter(TaskCounter.COMBINE_OUTPUT_RECORDS).getValue(),
        c.findCounter(TaskCounter.SPILLED_RECORDS).getValue(),
        "each combined record written once, nothing spilled on the reduce side");
  }

  @Test
  void withoutACombinerMapsWriteUnsortedAndReducersSortOnce() throws Exception {
    Run r =
        compare(LocalJobs.themis(LocalJobs.local(work)), text, j -> WordCount.configure(j, false));
    Counters c = r.counters();
    assertEquals(MAPS, themis(c, ThemisCounters.MAP_UNSORTED_OUTPUTS));
    assertEquals(
        c.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue(),
        c.findCounter(TaskCounter.SPILLED_RECORDS).getValue(),
        "every map output record written to local disk exactly once");
    assertEquals(MAPS * REDUCERS, themis(c, ThemisCounters.REDUCE_FETCHED_SEGMENTS));
  }

  @Test
  void secondarySortWithCustomComparatorsAndPartitionerEqualsStock() throws Exception {
    Run r = compare(LocalJobs.themis(LocalJobs.local(work)), pairs, SecondarySort::configure);
    assertEquals(MAPS, themis(r.counters(), ThemisCounters.MAP_UNSORTED_OUTPUTS));
  }

  @Test
  void theCollectorSortsWhenTheReduceSideIsStock() throws Exception {
    Configuration conf = LocalJobs.local(work);
    conf.set(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, ThemisMapOutputCollector.class.getName());
    Run r = compare(conf, pairs, SecondarySort::configure);
    assertEquals(
        MAPS,
        themis(r.counters(), ThemisCounters.MAP_SORTED_OUTPUTS),
        "stock merge needs sorted segments: auto chose sorted");
    assertEquals(0, themis(r.counters(), ThemisCounters.REDUCE_FETCHED_SEGMENTS));
  }

  @Test
  void unsortedOutputIsRefusedWhenTheReduceSideIsStock() throws Exception {
    Configuration conf = LocalJobs.local(work);
    conf.set(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, ThemisMapOutputCollector.class.getName());
    conf.set(ThemisConf.MAP_OUTPUT_ORDER.name(), "unsorted");
    boolean[] ok = {true};
    String logs = LocalJobs.logsOf(() -> ok[0] = run(conf, pairs, SecondarySort::configure).ok());
    assertFalse(ok[0], "the job must fail rather than break grouping");
    assertTrue(
        logs.contains("invalid levee.themis.map.output.order='unsorted'")
            && logs.contains(ThemisShuffle.class.getName()),
        "the failure names the key and what it needs:\n" + logs);
  }

  @Test
  void theShuffleAloneBehindTheStockCollectorEqualsStock() throws Exception {
    Configuration conf = LocalJobs.local(work);
    conf.set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, ThemisShuffle.class.getName());
    Run r = compare(conf, text, j -> WordCount.configure(j, true));
    assertEquals(MAPS * REDUCERS, themis(r.counters(), ThemisCounters.REDUCE_FETCHED_SEGMENTS));
  }

  @Test
  void aMapOutputLargerThanItsBufferOverflowsIntoRunsAndStillEqualsStock() throws Exception {
    Configuration conf = LocalJobs.themis(LocalJobs.local(work));
    conf.set(ThemisConf.MAP_BUFFER_SIZE.name(), "256k");
    Run r = compare(conf, text, j -> WordCount.configure(j, false));
    assertTrue(themis(r.counters(), ThemisCounters.MAP_OVERFLOW_RUNS) >= MAPS);
    assertTrue(themis(r.counters(), ThemisCounters.MAP_OVERFLOW_BYTES) > 0);
    Run combined = compare(conf, text, j -> WordCount.configure(j, true));
    assertTrue(themis(combined.counters(), ThemisCounters.MAP_OVERFLOW_RUNS) >= MAPS);
  }

  @Test
  void aPartitionLargerThanTheReducerBudgetSpillsRunsAndStillEqualsStock() throws Exception {
    Configuration conf = LocalJobs.themis(LocalJobs.local(work));
    conf.set(ThemisConf.REDUCE_MEMORY_SIZE.name(), "96k");
    Run r = compare(conf, pairs, SecondarySort::configure);
    Counters c = r.counters();
    assertTrue(themis(c, ThemisCounters.REDUCE_OVERFLOW_RUNS) >= REDUCERS, "every reducer spilled");
    assertEquals(
        themis(c, ThemisCounters.REDUCE_OVERFLOW_RECORDS),
        c.findCounter(TaskCounter.SPILLED_RECORDS).getValue()
            - c.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue(),
        "reduce-side local writes are exactly the counted overflow");
  }

  @Test
  void aSingleMapOutputLargerThanTheWholeBudgetIsSpilledInPieces() throws Exception {
    Configuration conf = LocalJobs.themis(LocalJobs.local(work));
    conf.set(ThemisConf.REDUCE_MEMORY_SIZE.name(), "32k");
    conf.set(ThemisConf.REDUCE_CHUNK_SIZE.name(), "4k");
    Path out = work.resolve("single-" + runs++);
    Run stock =
        run(
            LocalJobs.local(work),
            text,
            j -> {
              WordCount.configure(j, false);
              j.setNumReduceTasks(1);
            });
    Run plugin =
        run(
            conf,
            text,
            j -> {
              WordCount.configure(j, false);
              j.setNumReduceTasks(1);
            });
    assertTrue(plugin.ok());
    assertEquals(stock.output(), plugin.output());
    assertTrue(themis(plugin.counters(), ThemisCounters.REDUCE_OVERFLOW_RUNS) > MAPS);
    assertFalse(out.toFile().exists());
  }

  @Test
  void overflowFailStopsTheReducerNamingTheKey() throws Exception {
    Configuration conf = LocalJobs.themis(LocalJobs.local(work));
    conf.set(ThemisConf.REDUCE_MEMORY_SIZE.name(), "64k");
    conf.set(ThemisConf.REDUCE_OVERFLOW.name(), "fail");
    boolean[] ok = {true};
    String logs = LocalJobs.logsOf(() -> ok[0] = run(conf, pairs, SecondarySort::configure).ok());
    assertFalse(ok[0]);
    assertTrue(
        logs.contains("outgrew the reducer's memory")
            && logs.contains("levee.themis.reduce.overflow=fail"),
        logs);
  }

  @Test
  void mapOverflowFailStopsTheMapNamingTheKey() throws Exception {
    Configuration conf = LocalJobs.themis(LocalJobs.local(work));
    conf.set(ThemisConf.MAP_BUFFER_SIZE.name(), "64k");
    conf.set(ThemisConf.MAP_OVERFLOW.name(), "fail");
    boolean[] ok = {true};
    String logs =
        LocalJobs.logsOf(() -> ok[0] = run(conf, text, j -> WordCount.configure(j, false)).ok());
    assertFalse(ok[0]);
    assertTrue(
        logs.contains("outgrew its buffer of 65536 bytes")
            && logs.contains("levee.themis.map.overflow=fail"),
        logs);
  }

  @Test
  void aBadValueFailsNamingTheKeyTheValueAndWhatIsAllowed() throws Exception {
    Configuration conf = LocalJobs.themis(LocalJobs.local(work));
    conf.set(ThemisConf.MAP_BUFFER_FRACTION.name(), "1.5");
    boolean[] ok = {true};
    String logs =
        LocalJobs.logsOf(() -> ok[0] = run(conf, text, j -> WordCount.configure(j, false)).ok());
    assertFalse(ok[0]);
    assertTrue(
        logs.contains(
            "invalid levee.themis.map.buffer.fraction='1.5': expected a number in (0, 0.9]"),
        logs);
  }

  @Test
  void compressedMapOutputEqualsStock() throws Exception {
    Configuration conf = LocalJobs.themis(LocalJobs.local(work));
    Setup setup =
        j -> {
          WordCount.configure(j, false);
          j.getConfiguration().setBoolean(MRJobConfig.MAP_OUTPUT_COMPRESS, true);
          j.getConfiguration()
              .setClass(
                  MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC,
                  DefaultCodec.class,
                  CompressionCodec.class);
        };
    Run r = compare(conf, text, setup);
    Counters c = r.counters();
    assertTrue(
        c.findCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES).getValue()
            < c.findCounter(TaskCounter.MAP_OUTPUT_BYTES).getValue(),
        "file.out is compressed");
  }

  @Test
  void encryptedIntermediateDataEqualsStock() throws Exception {
    Configuration conf = LocalJobs.themis(LocalJobs.local(work));
    conf.set(ThemisConf.REDUCE_MEMORY_SIZE.name(), "128k");
    Setup setup =
        j -> {
          WordCount.configure(j, false);
          j.getConfiguration().setBoolean(MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA, true);
        };
    KeyGenerator.getInstance("HmacSHA1");
    Run r = compare(conf, text, setup);
    assertTrue(
        themis(r.counters(), ThemisCounters.REDUCE_OVERFLOW_RUNS) > 0,
        "the reducers' runs were encrypted and read back too");
  }
}
