package dev.levee.themis.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.themis.ThemisConf;
import dev.levee.themis.jobs.LocalJobs;
import dev.levee.themis.jobs.SecondarySort;
import dev.levee.themis.jobs.WordCount;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Phase 0 on real jobs (the LocalJobRunner, local files): the sampler runs the job's mapper and
 * estimates its output, the plan chooses reducers so partitions fit, a planned job gives the same
 * answers as stock, heavy keys are named, other partitioners are kept, and the CLI prints the
 * flags.
 */
class ThemisPlannerTest {
  private static Path work;
  private static Path text;
  private static Path pairs;

  @BeforeAll
  static void input() throws Exception {
    work = Path.of("target", "planner", UUID.randomUUID().toString()).toAbsolutePath();
    text = LocalJobs.writeText(work.resolve("text"), 4, 6_000, 11);
    pairs = LocalJobs.writePairs(work.resolve("pairs"), 2, 4_000, 12);
  }

  @AfterAll
  static void cleanUp() {
    FileUtil.fullyDelete(work.toFile());
  }

  private static Job wordCount(Configuration conf, Path out) throws Exception {
    Job job = LocalJobs.job(conf, "wc", text, out, 1);
    WordCount.configure(job, false);
    return job;
  }

  private static List<String> sortedLines(Path dir) throws Exception {
    List<String> lines = new ArrayList<>();
    for (String line : LocalJobs.output(dir).split("\n")) {
      if (!line.startsWith("== ")) {
        lines.add(line);
      }
    }
    lines.sort(String::compareTo);
    return lines;
  }

  @Test
  void samplingEstimatesTheMapOutputAndThePlannedJobEqualsStock() throws Exception {
    Path stockOut = work.resolve("wc-stock");
    Job stock = wordCount(LocalJobs.local(work), stockOut);
    assertTrue(LocalJobs.run(stock));
    long records = stock.getCounters().findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue();
    // Framed: each record's key and value plus one byte per length here.
    long framed =
        stock.getCounters().findCounter(TaskCounter.MAP_OUTPUT_BYTES).getValue() + 2 * records;

    Configuration conf = LocalJobs.themis(LocalJobs.local(work));
    // Small enough that one reducer cannot hold everything: phase 0 must choose several.
    conf.set(ThemisConf.REDUCE_MEMORY_SIZE.name(), "256k");
    conf.set(ThemisConf.PLAN_SAMPLE_BYTES.name(), "64k");
    Path plannedOut = work.resolve("wc-planned");
    Job planned = wordCount(conf, plannedOut);
    PlanReport report =
        ThemisPlanner.apply(
            planned, new org.apache.hadoop.fs.Path(work.resolve("wc.plan").toString()));
    assertEquals(PlanPolicy.HASH, report.policy());
    assertEquals(4, report.sample().splitsSampled());
    assertTrue(
        Math.abs(report.estimatedReducerInputBytes() - framed) < 0.1 * framed,
        "estimated " + report.estimatedReducerInputBytes() + " vs actual " + framed);
    long footprint = framed + 8 * records;
    int needed = (int) Math.ceil(footprint / (0.5 * 256 * 1024));
    assertTrue(
        Math.abs(report.reducers() - needed) <= 1,
        report.reducers() + " reducers, about " + needed + " needed");
    assertEquals(report.reducers(), planned.getNumReduceTasks());
    assertEquals(ThemisPartitioner.class, planned.getPartitionerClass());

    assertTrue(LocalJobs.run(planned));
    assertEquals(
        sortedLines(stockOut), sortedLines(plannedOut), "same counts, spread over more reducers");
    assertEquals(
        0,
        LocalJobs.themis(
            planned.getCounters(), dev.levee.themis.ThemisCounters.REDUCE_OVERFLOW_RUNS),
        "every planned partition fit its reducer");
  }

  @Test
  void withACombinerPhase0SizesWhatTheReducersReceiveNotWhatTheMapsEmit() throws Exception {
    Path stockOut = work.resolve("wcc-stock");
    Job stock = LocalJobs.job(LocalJobs.local(work), "wcc", text, stockOut, 1);
    WordCount.configure(stock, true);
    assertTrue(LocalJobs.run(stock));
    long mapRecords = stock.getCounters().findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue();
    // Each small map spills once, so its combiner saw its whole split, as a Themis map's does.
    long reducerRecords =
        stock.getCounters().findCounter(TaskCounter.REDUCE_INPUT_RECORDS).getValue();
    assertTrue(reducerRecords * 5 < mapRecords, "the combiner must matter in this test");

    Configuration conf = LocalJobs.themis(LocalJobs.local(work));
    conf.set(ThemisConf.REDUCE_MEMORY_SIZE.name(), "64k");
    // A third of each split: the prefix's combined output must be projected to the whole split.
    conf.set(ThemisConf.PLAN_SAMPLE_BYTES.name(), "64k");
    Path plannedOut = work.resolve("wcc-planned");
    Job planned = LocalJobs.job(conf, "wcc", text, plannedOut, 1);
    WordCount.configure(planned, true);
    PlanReport report =
        ThemisPlanner.apply(
            planned, new org.apache.hadoop.fs.Path(work.resolve("wcc.plan").toString()));
    assertTrue(
        Math.abs(report.estimatedReducerInputRecords() - reducerRecords) < 0.25 * reducerRecords,
        "estimated "
            + report.estimatedReducerInputRecords()
            + " reducer input records vs actual "
            + reducerRecords
            + " (the maps emit "
            + mapRecords
            + "): "
            + report.describe());
    assertTrue(report.describe().contains("after the maps' combiner"), report.describe());

    assertTrue(LocalJobs.run(planned));
    assertEquals(sortedLines(stockOut), sortedLines(plannedOut));
    assertEquals(
        0,
        LocalJobs.themis(
            planned.getCounters(), dev.levee.themis.ThemisCounters.REDUCE_OVERFLOW_RUNS),
        "every planned partition fit its reducer: " + report.describe());
  }

  @Test
  void aHotWordIsNamedBeforeTheJobRuns() throws Exception {
    Path hot = work.resolve("hot");
    Files.createDirectories(hot);
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      s.append(i % 2 == 0 ? "the" : "w" + i).append(' ').append("the\n");
    }
    Files.writeString(hot.resolve("hot.txt"), s);
    Configuration conf = LocalJobs.themis(LocalJobs.local(work));
    conf.set(ThemisConf.REDUCE_MEMORY_SIZE.name(), "400k");
    Job job = LocalJobs.job(conf, "hot", hot, work.resolve("hot-out"), 1);
    WordCount.configure(job, false);
    PlanReport report = ThemisPlanner.plan(job.getConfiguration());
    assertEquals("the", report.heavyKeys().get(0).display(), report.describe());
    assertTrue(
        report.heavyKeys().get(0).overflows(),
        "30,000 of it cannot fit 400k: " + report.describe());
    assertTrue(report.describe().contains("heavy key the"), report.describe());
  }

  @Test
  void aCustomPartitionerAndItsReducerCountAreKept() throws Exception {
    Configuration conf = LocalJobs.themis(LocalJobs.local(work));
    Job job = LocalJobs.job(conf, "ss", pairs, work.resolve("ss-out"), 3);
    SecondarySort.configure(job);
    PlanReport report = ThemisPlanner.plan(job.getConfiguration());
    assertEquals(PlanPolicy.KEEP, report.policy());
    assertNull(report.plan());
    assertEquals(3, report.reducers());
    assertEquals(3, report.predictedPartitionBytes().size());
    assertTrue(report.describe().contains(SecondarySort.FirstPartitioner.class.getName()));
    assertEquals(List.of(), ThemisPlanner.flags(report, new org.apache.hadoop.fs.Path("/p"), true));
  }

  @Test
  void askingForHashOverACustomPartitionerFailsNamingTheKey() throws Exception {
    Configuration conf = LocalJobs.themis(LocalJobs.local(work));
    conf.set(ThemisConf.PLAN_POLICY.name(), "hash");
    Job job = LocalJobs.job(conf, "ss-hash", pairs, work.resolve("ss-hash-out"), 3);
    SecondarySort.configure(job);
    RuntimeException e =
        assertThrows(RuntimeException.class, () -> ThemisPlanner.plan(job.getConfiguration()));
    assertTrue(e.getMessage().contains(ThemisConf.PLAN_POLICY.name()), e.getMessage());
    assertTrue(
        e.getMessage().contains(SecondarySort.FirstPartitioner.class.getName()), e.getMessage());
    conf.set(ThemisConf.PLAN_POLICY.name(), "sideways");
    Job bad = LocalJobs.job(conf, "ss-bad", pairs, work.resolve("ss-bad-out"), 3);
    SecondarySort.configure(bad);
    RuntimeException b =
        assertThrows(RuntimeException.class, () -> ThemisPlanner.plan(bad.getConfiguration()));
    assertTrue(
        b.getMessage().contains("sideways") && b.getMessage().contains("keep"), b.getMessage());
  }

  @Test
  void splitsShrinkSoEachMapsOutputFitsItsBuffer() throws Exception {
    Configuration conf = LocalJobs.themis(LocalJobs.local(work));
    conf.set(ThemisConf.MAP_BUFFER_SIZE.name(), "1m");
    Job job = wordCount(conf, work.resolve("split-out"));
    PlanReport report =
        ThemisPlanner.apply(
            job, new org.apache.hadoop.fs.Path(work.resolve("split.plan").toString()));
    long max = job.getConfiguration().getLong(FileInputFormat.SPLIT_MAXSIZE, -1);
    assertEquals(report.splitMaxSize(), max);
    assertTrue(max > 0 && max < Files.size(text.resolve("part-0.txt")), "split size " + max);
  }

  @Test
  void theCommandLinePrintsThePlanAndTheFlags() throws Exception {
    Configuration conf = LocalJobs.local(work);
    conf.set(ThemisConf.REDUCE_MEMORY_SIZE.name(), "256k");
    conf.set(MRJobConfig.MAP_CLASS_ATTR, WordCount.Tokens.class.getName());
    conf.set(MRJobConfig.MAP_OUTPUT_KEY_CLASS, org.apache.hadoop.io.Text.class.getName());
    conf.set(MRJobConfig.MAP_OUTPUT_VALUE_CLASS, org.apache.hadoop.io.IntWritable.class.getName());
    conf.setBoolean("mapred.mapper.new-api", true);
    conf.set(FileInputFormat.INPUT_DIR, text.toUri().toString());
    Path planFile = work.resolve("cli.plan");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status =
        ToolRunner.run(
            conf,
            new ThemisPlanTool(new PrintStream(out, true, StandardCharsets.UTF_8)),
            new String[] {"--write", planFile.toString()});
    String printed = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, status, printed);
    assertTrue(printed.contains("hash partitioning over"), printed);
    assertTrue(printed.contains("-D mapreduce.job.reduces="), printed);
    assertTrue(printed.contains("-D levee.themis.plan.path=" + planFile), printed);
    assertTrue(Files.readString(planFile).startsWith("themis-partition-plan 1"));
    assertEquals(
        2,
        ToolRunner.run(
            conf,
            new ThemisPlanTool(new PrintStream(new ByteArrayOutputStream())),
            new String[] {"--bogus"}));
    assertTrue(Arrays.asList(printed.split("\n")).stream().anyMatch(l -> l.startsWith("-D ")));
  }
}
