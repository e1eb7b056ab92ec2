package dev.levee.it.piranha;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;

/**
 * Waits until no container runs on the cluster: the previous test's ApplicationMaster lingers a
 * moment after its job ends, and Piranha's capacity check would count it.
 */
final class ClusterIdle {
  private ClusterIdle() {}

  static void await(Configuration conf, long timeoutMs) throws Exception {
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(conf);
      yarn.start();
      long deadline = System.currentTimeMillis() + timeoutMs;
      while (System.currentTimeMillis() < deadline) {
        long used = 0;
        for (NodeReport r : yarn.getNodeReports(NodeState.RUNNING)) {
          used += r.getUsed() == null ? 0 : r.getUsed().getMemorySize();
        }
        if (used == 0) {
          return;
        }
        Thread.sleep(100);
      }
      throw new AssertionError("containers still run on the cluster after " + timeoutMs + " ms");
    }
  }
}
