package dev.levee.containers.jobs;

import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.examples.WordCount;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Hadoop's example WordCount (its mapper, its reducer as the combiner and the reducer), run from
 * the client container on text it writes first: {@code WordCountRun [-D k=v ...] [-libjars jar]
 * <dir> <files> <lines-per-file> <reducers>} writes {@code <files>} files of seeded random words to
 * {@code <dir>/in} (unless there already), counts them into {@code <dir>/<job name>} and prints
 * what {@link JobReport} prints; exit status 0 when the job succeeded.
 */
public final class WordCountRun extends Configured implements Tool {
  private static final int VOCABULARY = 5_000;

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new WordCountRun(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    if (args.length != 4) {
      System.err.println("usage: WordCountRun <dir> <files> <lines-per-file> <reducers>");
      return 2;
    }
    Configuration conf = getConf();
    TextInput text = TextInput.of(conf, args);
    Path input = text.ensure("part-", 21, false, WordCountRun::skewedWords);
    Job job = Job.getInstance(conf, conf.get("mapreduce.job.name", "wordcount"));
    job.setJarByClass(WordCount.class);
    job.setMapperClass(WordCount.TokenizerMapper.class);
    job.setCombinerClass(WordCount.IntSumReducer.class);
    job.setReducerClass(WordCount.IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(Integer.parseInt(args[3]));
    Path output = text.freshOutput(job.getJobName());
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    boolean ok = job.waitForCompletion(true);
    JobReport.print(job.getCounters(), ok, text.fs(), output);
    return ok ? 0 : 1;
  }

  /** 8-16 words drawn from a skewed vocabulary (w0 is the most common). */
  private static void skewedWords(Random random, StringBuilder line) {
    int words = 8 + random.nextInt(9);
    for (int w = 0; w < words; w++) {
      double u = random.nextDouble();
      line.append(w == 0 ? "" : " ").append('w').append((int) (VOCABULARY * u * u * u));
    }
  }
}
