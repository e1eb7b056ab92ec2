package dev.levee.it.themis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.it.hadoop.ClusterFiles;
import dev.levee.it.hadoop.JobClasspath;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.hadoop.SharedClusterExtension;
import dev.levee.it.hadoop.TestClusters;
import dev.levee.themis.IoAudit;
import dev.levee.themis.ThemisCounters;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.SecondarySort;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.GenericOptionsParser;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The path a real cluster takes: Hadoop's SecondarySort example (custom key, raw comparator,
 * partitioner and grouping comparator) submitted with the examples jar as its job jar and the
 * packaged themis-shuffle jar through {@code -libjars}, the containers' inherited test classpath
 * taken away (only the cluster's own jars as mapreduce.application.classpath). With no fallback
 * collector listed, the job can only succeed with Themis counters if the jar reached the tasks. Its
 * output equals stock's (the same job on YARN with the test classpath), and the I/O audit passes
 * for it and visibly fails for stock.
 */
class LibjarsOnThemisTest {
  private static final Logger LOG = LoggerFactory.getLogger(LibjarsOnThemisTest.class);

  @RegisterExtension static final SharedClusterExtension CLUSTER = TestClusters.SHARED;

  @Test
  void secondarySortExampleWithThemisFromLibjarsEqualsStock() throws Exception {
    MiniMapReduceCluster cluster = CLUSTER.cluster();
    FileSystem fs = cluster.fileSystem();
    Path base = new Path("/it/themis/libjars");
    Path input = new Path(base, "in");
    Random random = new Random(61);
    for (int f = 0; f < 2; f++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 10_000; i++) {
        lines.add((random.nextInt(300) - 50) + " " + random.nextInt(100_000));
      }
      ClusterFiles.writeLines(fs, new Path(input, "pairs-" + f), lines);
    }

    // Stock runs on YARN next to the Themis job (the cluster holds two jobs): one job's time, and
    // counters from the same task code path for the I/O audit.
    Path stockOut = new Path(base, "stock");
    Job stock = job(cluster.clientConf(), input, stockOut);
    stock.submit();

    JobClasspath classpath =
        JobClasspath.fromTestJvm("themis-shuffle", "hadoop-mapreduce-examples");
    Configuration conf = ThemisJobs.themis(cluster.clientConf());
    conf.setBoolean(YarnConfiguration.IS_MINI_YARN_CLUSTER, false);
    conf.set(MRJobConfig.MAPREDUCE_APPLICATION_CLASSPATH, String.join(",", classpath.framework()));
    String[] rest =
        new GenericOptionsParser(conf, new String[] {"-libjars", classpath.pluginJar().toString()})
            .getRemainingArgs();
    assertEquals(0, rest.length);
    Path themisOut = new Path(base, "themis");
    Job themis = job(conf, input, themisOut);
    themis.setJar(examplesJar());
    assertTrue(
        themis.waitForCompletion(false), "job failed: " + themis.getStatus().getFailureInfo());

    assertTrue(stock.waitForCompletion(false), "job failed: " + stock.getStatus().getFailureInfo());

    assertEquals(ThemisJobs.output(fs, stockOut), ThemisJobs.output(fs, themisOut));
    ThemisJobs.assertTwoIo(themis);
    IoAudit.Report stockAudit = IoAudit.of(stock);
    LOG.info("I/O audit of stock secondary sort: {}", stockAudit.summary());
    assertFalse(stockAudit.twoIo(), "stock is not 2-IO: " + stockAudit.summary());
    assertTrue(
        stockAudit.intermediateWrites() >= 1.9 && stockAudit.intermediateReads() >= 1.9,
        "stock's reducer writes the fetched segments and reads them back: " + stockAudit.summary());
    Counters c = themis.getCounters();
    assertEquals(
        2,
        c.findCounter(ThemisCounters.GROUP, ThemisCounters.MAP_UNSORTED_OUTPUTS).getValue(),
        "both maps ran Themis's collector, loaded from the -libjars jar");
    assertEquals(
        2,
        c.findCounter(ThemisCounters.GROUP, ThemisCounters.REDUCE_FETCHED_SEGMENTS).getValue(),
        "the reducer ran Themis's shuffle");
  }

  /** The job as the example's main() builds it. */
  private static Job job(Configuration conf, Path in, Path out) throws Exception {
    Job job = Job.getInstance(conf, "secondary sort");
    job.setMapperClass(SecondarySort.MapClass.class);
    job.setReducerClass(SecondarySort.Reduce.class);
    job.setPartitionerClass(SecondarySort.FirstPartitioner.class);
    job.setGroupingComparatorClass(SecondarySort.FirstGroupingComparator.class);
    job.setMapOutputKeyClass(SecondarySort.IntPair.class);
    job.setMapOutputValueClass(IntWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(1);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }

  private static String examplesJar() {
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (new File(entry).getName().startsWith("hadoop-mapreduce-examples")) {
        return new File(entry).getAbsolutePath();
      }
    }
    throw new IllegalStateException("hadoop-mapreduce-examples is not on the test classpath");
  }
}
