package dev.levee.containers.jobs;

import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.examples.terasort.TeraGen;
import org.apache.hadoop.examples.terasort.TeraInputFormat;
import org.apache.hadoop.examples.terasort.TeraOutputFormat;
import org.apache.hadoop.examples.terasort.TeraSort;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Hadoop's TeraGen and TeraSort (hadoop-mapreduce-examples) from the client container: {@code
 * TeraSortRun [-D k=v ...] [-libjars jar] <dir> <rows> <reducers>} generates {@code <rows>} rows
 * with three maps into {@code <dir>/in} (unless there already), sorts them into {@code <dir>/<job
 * name>} and prints what {@link JobReport#printInOrder} prints: the counters, and a digest of the
 * output's bytes in order.
 *
 * <p>TeraSort's own {@code run} keeps its job to itself, so its counters would be out of reach here
 * (no history server); this sets the job up as {@code TeraSort.run} does, from the examples' own
 * classes: TeraSort's input and output formats, its sampled partition file in the distributed cache
 * and its total-order partitioner (the class Themis' planner recognizes), output replication 1.
 */
public final class TeraSortRun extends Configured implements Tool {
  /** The cache-file name TeraSort's partitioner opens in the task's working directory. */
  private static final String PARTITION_FILE = "_partition.lst";

  private static final String PARTITIONER =
      "org.apache.hadoop.examples.terasort.TeraSort$TotalOrderPartitioner";

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new TeraSortRun(), args));
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public int run(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: TeraSortRun <dir> <rows> <reducers>");
      return 2;
    }
    Configuration conf = getConf();
    Path dir = new Path(args[0]);
    FileSystem fs = dir.getFileSystem(conf);
    Path input = new Path(dir, "in");
    if (!fs.exists(new Path(input, "_SUCCESS"))) {
      Configuration gen = new Configuration(conf);
      gen.setInt(MRJobConfig.NUM_MAPS, 3);
      fs.delete(input, true);
      if (ToolRunner.run(gen, new TeraGen(), new String[] {args[1], input.toString()}) != 0) {
        System.err.println("TeraGen failed");
        return 1;
      }
    }
    Job job = Job.getInstance(conf, conf.get("mapreduce.job.name", "terasort"));
    Path output = new Path(dir, job.getJobName());
    fs.delete(output, true);
    FileInputFormat.setInputPaths(job, input);
    FileOutputFormat.setOutputPath(job, output);
    job.setJarByClass(TeraSort.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.setInputFormatClass(TeraInputFormat.class);
    job.setOutputFormatClass(TeraOutputFormat.class);
    job.setNumReduceTasks(Integer.parseInt(args[2]));
    Path partitionFile = new Path(output, PARTITION_FILE);
    try {
      TeraInputFormat.writePartitionFile(job, partitionFile);
    } catch (Throwable e) {
      throw new IllegalStateException("could not sample the input for TeraSort's partitions", e);
    }
    job.addCacheFile(new URI(partitionFile + "#" + PARTITION_FILE));
    job.setPartitionerClass((Class<? extends Partitioner>) Class.forName(PARTITIONER));
    job.getConfiguration().setInt("dfs.replication", 1);
    boolean ok = job.waitForCompletion(true);
    JobReport.printInOrder(job.getCounters(), ok, fs, output);
    return ok ? 0 : 1;
  }
}
