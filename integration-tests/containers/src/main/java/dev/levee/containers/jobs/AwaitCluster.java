package dev.levee.containers.jobs;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * Run in the client container: returns (exit 0) once HDFS takes a write and {@code <node-managers>}
 * NodeManagers are RUNNING, or exits 1 after {@code <seconds>}. One JVM polling is far cheaper here
 * than a command per probe.
 */
public final class AwaitCluster {
  private AwaitCluster() {}

  public static void main(String[] args) throws Exception {
    int nodeManagers = Integer.parseInt(args[0]);
    long deadline = System.nanoTime() + Long.parseLong(args[1]) * 1_000_000_000L;
    Configuration conf = new YarnConfiguration();
    String last = "";
    boolean dfs = false;
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(conf);
      yarn.start();
      while (System.nanoTime() < deadline) {
        try {
          if (!dfs) {
            FileSystem fs = FileSystem.get(conf);
            try (FSDataOutputStream out = fs.create(new Path("/tmp/await-cluster"), true)) {
              out.writeBytes("up\n");
            }
            dfs = true;
          }
          List<NodeReport> running = yarn.getNodeReports(NodeState.RUNNING);
          last = "HDFS writable, " + running.size() + " NodeManagers running";
          if (running.size() >= nodeManagers) {
            System.out.println("cluster up: " + last);
            return;
          }
        } catch (Exception e) {
          last = (dfs ? "HDFS writable; " : "") + e;
        }
        Thread.sleep(500);
      }
    }
    System.out.println("cluster not up: " + last);
    System.exit(1);
  }
}
