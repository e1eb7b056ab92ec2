package dev.levee.sponge.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.SpongeCounters;
import dev.levee.sponge.hadoop.VariableRecordJobs.ReducerKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RunningJob;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every reduce-side setting a user can give a job, with SpongeFiles on, against stock's output on
 * the same input: record for record for an identity reducer (the reduce input itself), byte for
 * byte for a reducer that buffers each group. Values vary from one byte to several KiB, so a value
 * read into another run's buffer corrupts records that are still unread.
 *
 * <p>The settings that keep map outputs on the heap during {@code reduce()} ({@code
 * mapreduce.reduce.input.buffer.percent} above 0) are the case that once corrupted reduce input:
 * retained in-memory outputs and SpongeFile runs met in one merge, and SpongeFile runs were read
 * into an in-memory output's byte array.
 */
class ReduceSideSettingsTest {
  private static Path work;
  private static Path input;
  private static LocalSponge sponge;
  private static final Map<ReducerKind, List<String>> STOCK = new EnumMap<>(ReducerKind.class);

  @BeforeAll
  static void setUp() throws IOException {
    work = Path.of("target", "reduce-settings-test", UUID.randomUUID().toString()).toAbsolutePath();
    input = work.resolve("input");
    VariableRecordJobs.writeInput(input);
    sponge = LocalSponge.start(work);
    // The oracle: stock with default reduce-side settings. Stock's output does not depend on them.
    for (ReducerKind kind : ReducerKind.values()) {
      Path out = work.resolve("stock-" + kind);
      ShuffleJobs.run(VariableRecordJobs.job(work, input, out, kind));
      STOCK.put(kind, VariableRecordJobs.lines(out));
    }
  }

  @AfterAll
  static void tearDown() {
    if (sponge != null) {
      sponge.close();
    }
    FileUtil.fullyDelete(work.toFile());
  }

  static Stream<Arguments> settings() {
    List<Arguments> all = new ArrayList<>();
    for (ReducerKind kind : ReducerKind.values()) {
      all.add(
          case_(kind, "input.buffer.percent=0.5", MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, "0.5"));
      all.add(
          case_(kind, "input.buffer.percent=1.0", MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, "1.0"));
    }
    ReducerKind id = ReducerKind.IDENTITY;
    // Hadoop's own TestReduceFetchFromPartialMem settings, scaled to this job's 2 MiB.
    all.add(
        case_(
            id,
            "partial-mem (Hadoop's test)",
            MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT,
            "1.0",
            MRJobConfig.REDUCE_MERGE_INMEM_THRESHOLD,
            "0",
            MRJobConfig.SHUFFLE_PARALLEL_COPIES,
            "1",
            MRJobConfig.SHUFFLE_INPUT_BUFFER_PERCENT,
            "0.14",
            MRJobConfig.SHUFFLE_MERGE_PERCENT,
            "1.0"));
    all.add(
        case_(
            id,
            "shuffle.input.buffer.percent=0.2",
            MRJobConfig.SHUFFLE_INPUT_BUFFER_PERCENT,
            "0.2"));
    all.add(
        case_(
            id,
            "shuffle.input.buffer.percent=1.0",
            MRJobConfig.SHUFFLE_INPUT_BUFFER_PERCENT,
            "1.0"));
    all.add(
        case_(
            id,
            "shuffle.memory.limit.percent=0.01",
            MRJobConfig.SHUFFLE_MEMORY_LIMIT_PERCENT,
            "0.01"));
    all.add(
        case_(
            id,
            "shuffle.memory.limit.percent=0.6",
            MRJobConfig.SHUFFLE_MEMORY_LIMIT_PERCENT,
            "0.6"));
    all.add(case_(id, "shuffle.merge.percent=0.3", MRJobConfig.SHUFFLE_MERGE_PERCENT, "0.3"));
    all.add(case_(id, "shuffle.merge.percent=1.0", MRJobConfig.SHUFFLE_MERGE_PERCENT, "1.0"));
    all.add(case_(id, "shuffle.parallelcopies=1", MRJobConfig.SHUFFLE_PARALLEL_COPIES, "1"));
    all.add(case_(id, "shuffle.parallelcopies=20", MRJobConfig.SHUFFLE_PARALLEL_COPIES, "20"));
    all.add(case_(id, "merge.inmem.threshold=2", MRJobConfig.REDUCE_MERGE_INMEM_THRESHOLD, "2"));
    all.add(
        case_(
            id,
            "merge.memtomem.enabled",
            MRJobConfig.REDUCE_MEMTOMEM_ENABLED,
            "true",
            MRJobConfig.REDUCE_MEMTOMEM_THRESHOLD,
            "2"));
    all.add(case_(id, "io.sort.factor=2", MRJobConfig.IO_SORT_FACTOR, "2"));
    all.add(case_(id, "io.sort.factor=100", MRJobConfig.IO_SORT_FACTOR, "100"));
    all.add(
        case_(
            id,
            "compressed map output, input.buffer.percent=0.7",
            MRJobConfig.MAP_OUTPUT_COMPRESS,
            "true",
            MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC,
            DefaultCodec.class.getName(),
            MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT,
            "0.7"));
    return all.stream();
  }

  private static Arguments case_(ReducerKind kind, String name, String... keyValues) {
    Map<String, String> set = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      set.put(keyValues[i], keyValues[i + 1]);
    }
    return Arguments.of(kind, name, set);
  }

  @ParameterizedTest(name = "{0} reducer, {1}")
  @MethodSource("settings")
  void outputEqualsStock(ReducerKind kind, String name, Map<String, String> settings)
      throws IOException {
    Path out = work.resolve("sponge-" + kind + "-" + name.replaceAll("[^A-Za-z0-9.=]", "_"));
    JobConf job = sponge.configure(VariableRecordJobs.job(work, input, out, kind));
    settings.forEach(job::set);
    RunningJob run = ShuffleJobs.run(job);

    List<String> expected = STOCK.get(kind);
    List<String> actual = VariableRecordJobs.lines(out);
    assertTrue(expected.size() > 10_000 || kind == ReducerKind.BUFFERING, "stock output too small");
    assertEquals(expected.size(), actual.size(), name + ": record count differs from stock");
    if (kind == ReducerKind.IDENTITY) {
      // Hadoop leaves the order of equal keys' values open: compare the key sequence, and the
      // records as sorted multisets.
      assertEquals(keys(expected), keys(actual), name + ": key order differs from stock");
      assertEquals(sorted(expected), sorted(actual), name + ": records differ from stock");
    } else {
      assertEquals(expected, actual, name + ": output differs from stock");
    }

    Counters.Group g = run.getCounters().getGroup(SpongeCounters.GROUP);
    assertEquals(
        0,
        g.getCounter(SpongeCounters.Counter.SHUFFLE_FALLBACKS.counterName()),
        name + ": fell back to stock");
    assertTrue(
        g.getCounter(SpongeCounters.Counter.FILES_CREATED.counterName()) > 0,
        name + ": nothing went through SpongeFiles");
    assertEquals(
        g.getCounter(SpongeCounters.Counter.FILES_CREATED.counterName()),
        g.getCounter(SpongeCounters.Counter.FILES_DELETED.counterName()),
        name + ": leaked files");
  }

  /**
   * Stock refuses a single-shuffle limit at or above the merge threshold (its merges could never
   * start); SpongeFiles refuse the same settings, naming both keys, instead of running anyway.
   */
  @Test
  void refusesTheShuffleLimitsStockRefuses() throws IOException {
    for (String[] kv :
        new String[][] {
          {MRJobConfig.SHUFFLE_MERGE_PERCENT, "0.1"},
          {MRJobConfig.SHUFFLE_MEMORY_LIMIT_PERCENT, "1.0"}
        }) {
      JobConf stock =
          VariableRecordJobs.job(work, input, work.resolve("refused-stock"), ReducerKind.IDENTITY);
      stock.set(kv[0], kv[1]);
      assertThrows(IllegalStateException.class, () -> ShuffleJobs.run(stock), "stock ran " + kv[0]);
      JobConf job =
          sponge.configure(
              VariableRecordJobs.job(work, input, work.resolve("refused"), ReducerKind.IDENTITY));
      job.set(kv[0], kv[1]);
      assertThrows(IllegalStateException.class, () -> ShuffleJobs.run(job), "sponge ran " + kv[0]);
      // The LocalJobRunner keeps a failed task's message in its log only: check it at the source.
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> ShuffleMemoryBudget.of(job));
      assertTrue(
          e.getMessage().contains(MRJobConfig.SHUFFLE_MEMORY_LIMIT_PERCENT)
              && e.getMessage().contains(MRJobConfig.SHUFFLE_MERGE_PERCENT),
          e.getMessage());
    }
  }

  private static List<String> keys(List<String> lines) {
    return lines.stream().map(l -> l.substring(0, l.indexOf('\t'))).toList();
  }

  private static List<String> sorted(List<String> lines) {
    return lines.stream().sorted().toList();
  }
}
