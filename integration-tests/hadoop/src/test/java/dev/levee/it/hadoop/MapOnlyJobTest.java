package dev.levee.it.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A job with no reduce phase: each map's output goes straight to its own part-m file on HDFS. */
class MapOnlyJobTest {

  @RegisterExtension static final SharedClusterExtension CLUSTER = TestClusters.SHARED;

  /** Keeps lines with an even number of characters, upper-cased. */
  public static class EvenLinesUpperMapper extends Mapper<LongWritable, Text, Text, NullWritable> {
    private final Text out = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String text = line.toString();
      if (text.length() % 2 == 0) {
        out.set(text.toUpperCase(Locale.ROOT));
        context.write(out, NullWritable.get());
      }
    }
  }

  @Test
  void mapOnlyJobWritesOneFilePerMapWithTheMappedLines() throws Exception {
    MiniMapReduceCluster cluster = CLUSTER.cluster();
    FileSystem fs = cluster.fileSystem();
    Path input = new Path("/it/maponly/in");
    Path output = new Path("/it/maponly/out");
    List<List<String>> expectedPerFile = new ArrayList<>();
    for (int file = 0; file < 2; file++) {
      List<String> lines = new ArrayList<>();
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < 1_000; i++) {
        String line = "file" + file + " line " + i + (i % 3 == 0 ? "x" : "");
        lines.add(line);
        if (line.length() % 2 == 0) {
          expected.add(line.toUpperCase(Locale.ROOT));
        }
      }
      ClusterFiles.writeLines(fs, new Path(input, "in-" + file + ".txt"), lines);
      expectedPerFile.add(expected);
    }

    Job job = Job.getInstance(cluster.clientConf(), "levee-map-only");
    job.setMapperClass(EvenLinesUpperMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(NullWritable.class);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);

    assertTrue(job.waitForCompletion(false), "job " + job.getJobID() + " failed");
    assertFalse(
        job.getJobID().toString().contains("local"), "ran in the local runner: " + job.getJobID());
    assertEquals(2, job.getCounters().findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue());
    assertEquals(0, job.getCounters().findCounter(JobCounter.TOTAL_LAUNCHED_REDUCES).getValue());
    long expectedRecords = expectedPerFile.stream().mapToLong(List::size).sum();
    assertEquals(
        expectedRecords, job.getCounters().findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue());

    List<Path> parts = ClusterFiles.partFiles(fs, output);
    assertEquals(2, parts.size(), "one output file per map: " + parts);
    List<List<String>> actualPerFile = new ArrayList<>();
    for (Path part : parts) {
      assertTrue(part.getName().startsWith("part-m-"), "map output file expected, got " + part);
      actualPerFile.add(ClusterFiles.readLines(fs, part));
    }
    // Map task order is not input file order; each output file must equal one input's mapped lines,
    // in order.
    assertTrue(
        actualPerFile.equals(expectedPerFile)
            || actualPerFile.equals(List.of(expectedPerFile.get(1), expectedPerFile.get(0))),
        "map outputs " + actualPerFile.stream().map(List::size).toList());
  }
}
