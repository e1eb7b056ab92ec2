package dev.levee.it.piranha;

import dev.levee.it.hadoop.ClusterFiles;
import dev.levee.piranha.dag.PiranhaDag;
import dev.levee.piranha.examples.TopWords;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;

/** The top-k words query of the tests: its input, its DAGs, and its stock oracle. */
final class TopWordsDags {
  static final int K = 20;

  private TopWordsDags() {}

  /** Text files of skewed words, of different sizes (their splits sort differently). */
  static Path writeInput(FileSystem fs, Path dir, int files, int linesPerFile, long seed)
      throws IOException {
    Random r = new Random(seed);
    for (int f = 0; f < files; f++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < linesPerFile * (f + 1); i++) {
        StringBuilder s = new StringBuilder();
        int words = 1 + r.nextInt(10);
        for (int w = 0; w < words; w++) {
          int rank = (int) Math.floor(Math.pow(5000, r.nextDouble()));
          s.append(w == 0 ? "" : " ").append("w").append(rank);
        }
        lines.add(s.toString());
      }
      ClusterFiles.writeLines(fs, new Path(dir, "words-" + f + ".txt"), lines);
    }
    return dir;
  }

  /**
   * scan (gated word mapper) -> count (sum, with combiner) -> invert (forward) -> top (one task).
   */
  static PiranhaDag dag(String name, Path in, Path out, int countTasks) {
    return TopWords.dag(name, GatedWordMapper.class, in, out, countTasks, K);
  }

  /** The word-count half alone: scan -> count. */
  static PiranhaDag wordCount(String name, Path in, Path out, int countTasks) {
    return PiranhaDag.builder(name)
        .initial("scan")
        .inputFormat(TextInputFormat.class)
        .inputPaths(in)
        .mapper(GatedWordMapper.class)
        .mapOutput(Text.class, LongWritable.class)
        .shuffle("count", countTasks)
        .from("scan")
        .reducer(LongSumReducer.class)
        .combiner(LongSumReducer.class)
        .output(Text.class, LongWritable.class)
        .outputFormat(TextOutputFormat.class, out)
        .build();
  }

  /** Stock chained MapReduce, in process (the local job runner) over the cluster's HDFS. */
  static List<String> stockTopWords(Configuration clusterConf, Path in, Path work, int reducers)
      throws Exception {
    Configuration local = new Configuration(clusterConf);
    local.set("mapreduce.framework.name", "local");
    Path out = new Path(work, "out");
    for (Job j : TopWords.chain(local, in, new Path(work, "tmp"), out, reducers, K)) {
      if (!j.waitForCompletion(false)) {
        throw new AssertionError("stock job " + j.getJobName() + " failed");
      }
    }
    return ClusterFiles.readOutput(out.getFileSystem(local), out);
  }

  static List<String> stockWordCount(Configuration clusterConf, Path in, Path work, int reducers)
      throws Exception {
    Configuration local = new Configuration(clusterConf);
    local.set("mapreduce.framework.name", "local");
    Path out = new Path(work, "out");
    Job j = TopWords.chain(local, in, new Path(work, "tmp"), out, reducers, K).get(0);
    j.setOutputFormatClass(TextOutputFormat.class);
    if (!j.waitForCompletion(false)) {
      throw new AssertionError("stock word count failed");
    }
    return ClusterFiles.readOutput(out.getFileSystem(local), new Path(work, "tmp"));
  }
}
