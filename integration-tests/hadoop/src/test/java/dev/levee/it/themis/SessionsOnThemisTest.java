package dev.levee.it.themis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.hadoop.SharedClusterExtension;
import dev.levee.it.hadoop.TestClusters;
import dev.levee.themis.examples.ClickSessions;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Click-log sessionization (the paper's Click-Sessions) with a secondary sort, on YARN with Themis,
 * with the intermediate data compressed and encrypted: the same sessions as stock, and still one
 * write and one read of every intermediate byte.
 */
class SessionsOnThemisTest {
  @RegisterExtension static final SharedClusterExtension CLUSTER = TestClusters.SHARED;

  @Test
  void sessionsWithEncryptedCompressedIntermediateDataEqualStock() throws Exception {
    MiniMapReduceCluster cluster = CLUSTER.cluster();
    FileSystem fs = cluster.fileSystem();
    Path base = new Path("/it/themis/sessions");
    Path input = TextInput.clicks(fs, new Path(base, "in"), 3, 12_000, 31);

    Path stockOut = new Path(base, "stock");
    Job stock = job(ThemisJobs.stockLocal(cluster), input, stockOut);
    assertTrue(stock.waitForCompletion(false), "stock sessions on the local runner");
    Path themisOut = new Path(base, "themis");
    Job themis = job(ThemisJobs.themis(cluster.clientConf()), input, themisOut);
    assertTrue(themis.waitForCompletion(false), "Themis sessions on YARN");

    assertEquals(ThemisJobs.output(fs, stockOut), ThemisJobs.output(fs, themisOut));
    assertTrue(
        themis.getCounters().findCounter(TaskCounter.REDUCE_OUTPUT_RECORDS).getValue() > 1_000,
        "many sessions");
    assertTrue(
        themis.getCounters().findCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES).getValue()
            < themis.getCounters().findCounter(TaskCounter.MAP_OUTPUT_BYTES).getValue(),
        "the intermediate data was compressed");
    ThemisJobs.assertTwoIo(ThemisJobs.finishedJob(cluster.clientConf(), "click-sessions"));
  }

  private static Job job(Configuration conf, Path in, Path out) throws Exception {
    Configuration c = new Configuration(conf);
    c.setBoolean(MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA, true);
    c.setBoolean(MRJobConfig.MAP_OUTPUT_COMPRESS, true);
    c.setClass(MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC, DefaultCodec.class, CompressionCodec.class);
    Job job = Job.getInstance(c);
    job.setJobName("click-sessions");
    job.setJarByClass(ClickSessions.class);
    ClickSessions.configure(job);
    job.setNumReduceTasks(2);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }
}
