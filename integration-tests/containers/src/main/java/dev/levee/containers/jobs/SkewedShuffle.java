package dev.levee.containers.jobs;

import dev.levee.it.sponge.SkewedShuffleJob;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * What the client container submits: integration-tests/hadoop's {@link SkewedShuffleJob} (Zipf
 * keys, one reducer, each map generating its records from a seed, the reducer writing per key a
 * count and an order-independent digest), the same job its mini-cluster tests run.
 *
 * <p>{@code SkewedShuffle [-D k=v ...] <output> <maps> <records-per-map> <value-bytes>} runs it and
 * prints what {@link JobReport} prints; exit status 0 when the job succeeded.
 */
public final class SkewedShuffle extends Configured implements Tool {
  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new SkewedShuffle(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    if (args.length != 4) {
      System.err.println("usage: SkewedShuffle <output> <maps> <records-per-map> <value-bytes>");
      return 2;
    }
    Path output = new Path(args[0]);
    Configuration conf = getConf();
    FileSystem fs = output.getFileSystem(conf);
    Path input = new Path(output.getParent(), output.getName() + "-seeds");
    fs.delete(output, true);
    SkewedShuffleJob.writeInput(fs, input, Integer.parseInt(args[1]));
    // The job jar is the class's own: integration-tests/hadoop's test jar.
    Job job =
        SkewedShuffleJob.configure(
            Job.getInstance(conf, conf.get("mapreduce.job.name", "skewed-shuffle")),
            input,
            output,
            Long.parseLong(args[2]),
            Integer.parseInt(args[3]));
    boolean ok = job.waitForCompletion(true);
    JobReport.print(job.getCounters(), ok, fs, output);
    return ok ? 0 : 1;
  }
}
