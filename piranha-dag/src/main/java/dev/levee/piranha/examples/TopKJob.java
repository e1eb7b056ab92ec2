package dev.levee.piranha.examples;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.map.InverseMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;

/**
 * The two stock jobs the paper's queries are built from: a count of (key, 1) pairs with a combiner,
 * and the final top k (the paper's Fig. 4: an identity-like map that inverts the pairs, one reducer
 * reading counts in decreasing order).
 */
public final class TopKJob {
  private TopKJob() {}

  /** Counts what {@code mapper} emits from the text lines of {@code in}; SequenceFile output. */
  public static Job count(
      Configuration conf,
      String name,
      Path in,
      Class<? extends Mapper<?, ?, Text, LongWritable>> mapper,
      int reducers,
      Path out)
      throws IOException {
    Job j = Job.getInstance(conf, name);
    j.setJarByClass(TopKJob.class);
    j.setInputFormatClass(TextInputFormat.class);
    FileInputFormat.setInputPaths(j, in);
    j.setMapperClass(mapper);
    return sumInto(j, reducers, out);
  }

  /** Sums the (key, 1) pairs {@code j}'s mapper emits, writing a SequenceFile for the next job. */
  public static Job sumInto(Job j, int reducers, Path out) {
    j.setMapOutputKeyClass(Text.class);
    j.setMapOutputValueClass(LongWritable.class);
    j.setCombinerClass(LongSumReducer.class);
    j.setReducerClass(LongSumReducer.class);
    j.setNumReduceTasks(reducers);
    j.setOutputKeyClass(Text.class);
    j.setOutputValueClass(LongWritable.class);
    j.setOutputFormatClass(SequenceFileOutputFormat.class);
    FileOutputFormat.setOutputPath(j, out);
    return j;
  }

  /**
   * The top {@code k} of the (key, count) SequenceFile {@code in}, as text {@code count TAB key}.
   */
  public static Job top(Configuration conf, String name, Path in, int k, Path out)
      throws IOException {
    Job j = Job.getInstance(conf, name);
    j.setJarByClass(TopKJob.class);
    j.getConfiguration().setInt(TopWords.K, k);
    j.setInputFormatClass(SequenceFileInputFormat.class);
    FileInputFormat.setInputPaths(j, in);
    j.setMapperClass(InverseMapper.class);
    j.setMapOutputKeyClass(LongWritable.class);
    j.setMapOutputValueClass(Text.class);
    j.setSortComparatorClass(LongWritable.DecreasingComparator.class);
    j.setReducerClass(TopWords.TopReducer.class);
    j.setNumReduceTasks(1);
    j.setOutputKeyClass(LongWritable.class);
    j.setOutputValueClass(Text.class);
    j.setOutputFormatClass(TextOutputFormat.class);
    FileOutputFormat.setOutputPath(j, out);
    return j;
  }
}
