package dev.levee.themis.jobs;

import java.io.IOException;
import java.util.StringTokenizer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;

/** The canonical job: (word, 1) per token, summed; optionally with the reducer as combiner. */
public final class WordCount {
  private WordCount() {}

  public static final class Tokens extends Mapper<LongWritable, Text, Text, IntWritable> {
    private final Text word = new Text();
    private final IntWritable one = new IntWritable(1);

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      StringTokenizer tokens = new StringTokenizer(line.toString());
      while (tokens.hasMoreTokens()) {
        word.set(tokens.nextToken());
        context.write(word, one);
      }
    }
  }

  public static final class Sum extends Reducer<Text, IntWritable, Text, IntWritable> {
    private final IntWritable total = new IntWritable();

    @Override
    protected void reduce(Text word, Iterable<IntWritable> counts, Context context)
        throws IOException, InterruptedException {
      int sum = 0;
      for (IntWritable c : counts) {
        sum += c.get();
      }
      total.set(sum);
      context.write(word, total);
    }
  }

  public static void configure(Job job, boolean combiner) {
    job.setJarByClass(WordCount.class);
    job.setMapperClass(Tokens.class);
    if (combiner) {
      job.setCombinerClass(Sum.class);
    }
    job.setReducerClass(Sum.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
  }
}
