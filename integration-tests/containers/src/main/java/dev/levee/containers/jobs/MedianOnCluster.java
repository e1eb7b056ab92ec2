package dev.levee.containers.jobs;

import dev.levee.bench.gen.DatasetWriter;
import dev.levee.bench.hadoop.median.MedianJob;
import dev.levee.bench.hadoop.median.NumbersInput;
import dev.levee.bench.progress.ProgressReporter;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * The SpongeFiles paper's Median job (the bench's {@code MedianJob}: every number a map-output key
 * into one reducer) from the client container: {@code MedianOnCluster [-D k=v ...] <dir> <numbers>
 * <files>} writes {@code <numbers>} uniform numbers in {@code <files>} files to {@code
 * <dir>/numbers} unless a complete set is there, runs the job into {@code <dir>/<job name>}, and
 * prints what {@link JobReport} prints and {@code SECONDS\t<s>}: the job's time from its start to
 * its finish as the ResourceManager and the ApplicationMaster report them (the client JVM's start
 * and the data's generation are not in it).
 */
public final class MedianOnCluster extends Configured implements Tool {
  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new MedianOnCluster(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: MedianOnCluster [-D k=v ...] <dir> <numbers> <files>");
      return 2;
    }
    Configuration conf = getConf();
    Path dir = new Path(args[0]);
    long numbers = Long.parseLong(args[1]);
    FileSystem fs = dir.getFileSystem(conf);
    Path input = new Path(dir, "numbers");
    if (!fs.exists(new Path(input, DatasetWriter.MANIFEST))) {
      NumbersInput.generate(
          conf,
          input,
          numbers,
          Integer.parseInt(args[2]),
          ProgressReporter.start("numbers", numbers, "records"));
    }
    Path output = new Path(dir, conf.get("mapreduce.job.name", "median"));
    fs.delete(output, true);
    Job job = MedianJob.create(conf, input, output, numbers);
    boolean ok = job.waitForCompletion(true);
    System.out.println(
        "SECONDS\t" + (job.getStatus().getFinishTime() - job.getStatus().getStartTime()) / 1000.0);
    JobReport.print(job.getCounters(), ok, fs, output);
    return ok ? 0 : 1;
  }
}
