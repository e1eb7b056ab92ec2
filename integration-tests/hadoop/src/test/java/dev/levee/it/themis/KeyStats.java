package dev.levee.it.themis;

import java.io.IOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * Per key of "key TAB value" lines: the number of records, the bytes of their values and the
 * smallest value. Every value is shuffled (no combiner), so a hot key's bytes all reach one
 * reducer.
 */
final class KeyStats {
  private KeyStats() {}

  static final class Split extends Mapper<LongWritable, Text, Text, Text> {
    private final Text key = new Text();
    private final Text value = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String s = line.toString();
      int tab = s.indexOf('\t');
      key.set(s.substring(0, tab));
      value.set(s.substring(tab + 1));
      context.write(key, value);
    }
  }

  static final class Stats extends Reducer<Text, Text, Text, Text> {
    private final Text out = new Text();

    @Override
    protected void reduce(Text key, Iterable<Text> values, Context context)
        throws IOException, InterruptedException {
      long n = 0;
      long bytes = 0;
      String min = null;
      for (Text v : values) {
        n++;
        bytes += v.getLength();
        String s = v.toString();
        if (min == null || s.compareTo(min) < 0) {
          min = s;
        }
      }
      out.set(n + "\t" + bytes + "\t" + min);
      context.write(key, out);
    }
  }

  static void configure(Job job) {
    job.setJobName("key-stats");
    job.setJarByClass(KeyStats.class);
    job.setMapperClass(Split.class);
    job.setReducerClass(Stats.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(Text.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
  }
}
