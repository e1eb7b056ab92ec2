package dev.levee.containers.jobs;

import java.io.IOException;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.examples.WordCount;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
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
    Path dir = new Path(args[0]);
    FileSystem fs = dir.getFileSystem(conf);
    Path input = new Path(dir, "in");
    if (!fs.exists(input)) {
      writeText(fs, input, Integer.parseInt(args[1]), Integer.parseInt(args[2]));
    }
    Job job = Job.getInstance(conf, conf.get("mapreduce.job.name", "wordcount"));
    job.setJarByClass(WordCount.class);
    job.setMapperClass(WordCount.TokenizerMapper.class);
    job.setCombinerClass(WordCount.IntSumReducer.class);
    job.setReducerClass(WordCount.IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(Integer.parseInt(args[3]));
    Path output = new Path(dir, job.getJobName());
    fs.delete(output, true);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    boolean ok = job.waitForCompletion(true);
    JobReport.print(job.getCounters(), ok, fs, output);
    return ok ? 0 : 1;
  }

  /**
   * Lines of 8-16 words drawn from a skewed vocabulary (w0 is the most common), one seed a file.
   */
  private static void writeText(FileSystem fs, Path dir, int files, int lines) throws IOException {
    for (int f = 0; f < files; f++) {
      Random random = new Random(21 + f);
      try (FSDataOutputStream out = fs.create(new Path(dir, "part-" + f + ".txt"), true)) {
        StringBuilder line = new StringBuilder();
        for (int l = 0; l < lines; l++) {
          line.setLength(0);
          int words = 8 + random.nextInt(9);
          for (int w = 0; w < words; w++) {
            double u = random.nextDouble();
            line.append(w == 0 ? "" : " ").append('w').append((int) (VOCABULARY * u * u * u));
          }
          out.writeBytes(line.append('\n').toString());
        }
      }
    }
  }
}
