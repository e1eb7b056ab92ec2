package dev.levee.piranha.dag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.piranha.examples.TopWords;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;
import org.junit.jupiter.api.Test;

class PiranhaDagTest {
  private static final Path IN = new Path("/in");
  private static final Path OUT = new Path("/out");

  @Test
  void builderWritesStockJobSettingsIntoEachStage() {
    PiranhaDag dag = TopWords.dag(IN, OUT, 4, 5);
    assertEquals(
        List.of("scan", "count", "invert", "top"), dag.stages().stream().map(Stage::name).toList());
    Stage count = dag.stage("count");
    assertTrue(count.shuffled());
    Map<String, String> c = count.first().conf();
    assertEquals(LongSumReducer.class.getName(), c.get("mapreduce.job.reduce.class"));
    assertEquals(LongSumReducer.class.getName(), c.get("mapreduce.job.combine.class"));
    assertEquals(
        Text.class.getName(), c.get(Job.MAP_OUTPUT_KEY_CLASS), "input classes from the parent");
    assertEquals(4, count.parallelism());
    assertEquals(Stage.SAME_AS_PARENT, dag.stage("invert").parallelism());
    assertFalse(dag.stage("invert").shuffled());
    assertEquals("top", dag.terminal().name());
    assertTrue(dag.isChain());
  }

  @Test
  void mistakesAreRefusedNamingTheStage() {
    DagException noParent =
        assertThrows(
            DagException.class,
            () ->
                PiranhaDag.builder("d")
                    .initial("a")
                    .inputFormat(TextInputFormat.class)
                    .inputPaths(IN)
                    .shuffle("b", 2)
                    .from("nope")
                    .reducer(LongSumReducer.class)
                    .outputFormat(TextOutputFormat.class, OUT)
                    .build());
    assertTrue(
        noParent.getMessage().contains("stage 'b'") && noParent.getMessage().contains("'nope'"),
        noParent.getMessage());

    DagException twoEnds =
        assertThrows(
            DagException.class,
            () ->
                PiranhaDag.builder("d")
                    .initial("a")
                    .inputFormat(TextInputFormat.class)
                    .inputPaths(IN)
                    .shuffle("b", 2)
                    .from("a")
                    .reducer(LongSumReducer.class)
                    .shuffle("c", 2)
                    .from("a")
                    .reducer(LongSumReducer.class)
                    .outputFormat(TextOutputFormat.class, OUT)
                    .build());
    assertTrue(twoEnds.getMessage().contains("exactly one terminal stage"), twoEnds.getMessage());
    assertTrue(twoEnds.getMessage().contains("[b, c]"), twoEnds.getMessage());

    DagException noOutput =
        assertThrows(
            DagException.class,
            () ->
                PiranhaDag.builder("d")
                    .initial("a")
                    .inputFormat(TextInputFormat.class)
                    .inputPaths(IN)
                    .shuffle("b", 0)
                    .from("a")
                    .reducer(LongSumReducer.class)
                    .outputFormat(TextOutputFormat.class, OUT)
                    .build());
    assertTrue(noOutput.getMessage().contains("parallelism 0"), noOutput.getMessage());

    DagException badName =
        assertThrows(
            DagException.class,
            () ->
                PiranhaDag.builder("d").initial("a b").inputFormat(TextInputFormat.class).build());
    assertTrue(badName.getMessage().contains("stage name"), badName.getMessage());

    DagException wrongKind =
        assertThrows(
            DagException.class,
            () -> PiranhaDag.builder("d").initial("a").reducer(LongSumReducer.class));
    assertTrue(
        wrongKind.getMessage().contains("a reducer belongs to a shuffle stage"),
        wrongKind.getMessage());
  }

  @Test
  void aChainOfJobsBecomesStagesLinkedByTheirPaths() throws Exception {
    Configuration conf = new Configuration();
    PiranhaDag dag = TopWords.dagFromChain(conf, IN, new Path("/tmp/x"), OUT, 3, 5);
    assertEquals(
        List.of("j1_map", "j1_reduce", "j2_map", "j2_reduce"),
        dag.stages().stream().map(Stage::name).toList());
    assertEquals(List.of("j1_reduce"), dag.stage("j2_map").parents());
    assertEquals(
        RecordAdapter.Mode.IDENTITY.name(),
        dag.stage("j2_map").first().conf().get(RecordAdapter.MODE_KEY),
        "SequenceFile output read back by SequenceFileInputFormat");
  }

  @Test
  void aChainThatDoesNotLinkIsRefused() throws Exception {
    Configuration conf = new Configuration();
    List<Job> jobs = TopWords.chain(conf, IN, new Path("/tmp/x"), OUT, 3, 5);
    org.apache.hadoop.mapreduce.lib.input.FileInputFormat.setInputPaths(
        jobs.get(1), new Path("/elsewhere"));
    DagException e = assertThrows(DagException.class, () -> MrChain.of("c", conf, jobs));
    assertTrue(e.getMessage().contains("not the previous job's output"), e.getMessage());
  }

  @Test
  void unusableFormatPairsAreRefused() throws Exception {
    Configuration conf = new Configuration();
    List<Job> jobs = TopWords.chain(conf, IN, new Path("/tmp/x"), OUT, 3, 5);
    jobs.get(1).setInputFormatClass(org.apache.hadoop.mapreduce.lib.input.NLineInputFormat.class);
    DagException e = assertThrows(DagException.class, () -> MrChain.of("c", conf, jobs));
    assertTrue(e.getMessage().contains("NLineInputFormat"), e.getMessage());
  }

  @Test
  void stageSettingsAreAnOverlay() {
    Step s = new Step(Step.Kind.MAP, Map.of("a", "1"));
    Configuration base = new Configuration(false);
    base.set("a", "0");
    base.set("b", "2");
    Configuration applied = s.apply(base);
    assertEquals("1", applied.get("a"));
    assertEquals("2", applied.get("b"));
    assertEquals("0", base.get("a"), "the base is untouched");
  }

  @Test
  void classesOfTheEdgeAreChecked() {
    // The builder defaults a shuffle stage's input to what its parent writes.
    PiranhaDag dag =
        PiranhaDag.builder("d")
            .initial("a")
            .inputFormat(TextInputFormat.class)
            .inputPaths(IN)
            .mapOutput(LongWritable.class, Text.class)
            .shuffle("b", 1)
            .from("a")
            .outputFormat(TextOutputFormat.class, OUT)
            .build();
    assertEquals(
        LongWritable.class.getName(), dag.stage("b").first().conf().get(Job.MAP_OUTPUT_KEY_CLASS));
  }
}
