package dev.levee.bench.hadoop.piranha;

import dev.levee.it.hadoop.MiniClusterSettings;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.pig.PigOnMiniCluster;
import dev.levee.piranha.pig.PiranhaExecType;
import java.util.List;
import java.util.Properties;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.pig.ExecType;
import org.apache.pig.PigServer;
import org.apache.pig.backend.executionengine.ExecJob;

/**
 * A Pig Latin script on the mini cluster, run by stock Pig ({@code -x mapreduce}) or by Piranha's
 * Pig path ({@code -x piranha}), the way the demo row and the bench's Pig arms run it.
 */
final class PigScripts {
  private PigScripts() {}

  /** Stock Pig on {@code cluster}, with {@code extra} over the cluster's client settings. */
  static PigServer stock(MiniMapReduceCluster cluster, Properties extra) throws Exception {
    return new PigServer(ExecType.MAPREDUCE, PigOnMiniCluster.properties(cluster, extra));
  }

  /** Piranha's Pig path on {@code cluster}, rendezvous through {@code zkQuorum}. */
  static PigServer piranha(MiniMapReduceCluster cluster, String zkQuorum, Properties extra)
      throws Exception {
    Properties p = new Properties();
    p.setProperty("levee.piranha.zookeeper.quorum", zkQuorum);
    // The previous job's ApplicationMaster lingers a few seconds after it ends; the capacity
    // check would count it and fall back to chained MapReduce.
    p.setProperty("levee.piranha.capacity.check", "false");
    p.putAll(extra);
    return new PigServer(new PiranhaExecType(), PigOnMiniCluster.properties(cluster, p));
  }

  /**
   * Stock Pig's JobControl checks its jobs every 5 s on a cluster (100 ms locally); the bench's
   * other arms poll at the mini cluster's client rate, so its Pig arms do too.
   */
  static Properties benchPolling() {
    Properties p = new Properties();
    p.setProperty("pig.jobcontrol.sleep", Integer.toString(MiniClusterSettings.CLIENT_POLL_MS));
    return p;
  }

  /**
   * Runs {@code script} ({@code $in} and {@code $out} substituted) to completion and shuts the
   * server down; the wall seconds, or an exception if Pig reports the script failed.
   */
  static double run(PigServer pig, String script, Path in, Path out) throws Exception {
    long t0 = System.nanoTime();
    try {
      pig.setBatchOn();
      pig.registerQuery(script.replace("$in", in.toString()).replace("$out", out.toString()));
      List<ExecJob> jobs = pig.executeBatch();
      if (jobs.size() != 1 || jobs.get(0).getStatus() != ExecJob.JOB_STATUS.COMPLETED) {
        throw new IllegalStateException(
            "the Pig script failed: "
                + jobs
                + (jobs.isEmpty() ? "" : " " + jobs.get(0).getException()));
      }
    } finally {
      pig.shutdown();
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  /**
   * Whether Piranha ran the script: its tasks are map tasks (part-m-*), while stock Pig's last job
   * of a GROUP or ORDER script writes from reducers (part-r-*).
   */
  static boolean ranOnPiranha(FileSystem fs, Path out) throws java.io.IOException {
    FileStatus[] parts = fs.listStatus(out, p -> p.getName().startsWith("part-"));
    return parts.length > 0 && parts[0].getPath().getName().startsWith("part-m-");
  }
}
