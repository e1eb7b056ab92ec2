package dev.levee.piranha.yarn;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.api.records.QueueStatistics;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;

/** Asks the ResourceManager for what {@link CapacityCheck} needs. */
public final class YarnCapacityProbe {
  private YarnCapacityProbe() {}

  /** The verdict for {@code tasks} map tasks sized as {@code conf} sizes them. */
  public static CapacityCheck.Verdict check(Configuration conf, int tasks) throws IOException {
    CapacityCheck.Need need =
        new CapacityCheck.Need(
            tasks,
            new CapacityCheck.Resource(
                conf.getInt(MRJobConfig.MAP_MEMORY_MB, MRJobConfig.DEFAULT_MAP_MEMORY_MB),
                conf.getInt(MRJobConfig.MAP_CPU_VCORES, MRJobConfig.DEFAULT_MAP_CPU_VCORES)),
            new CapacityCheck.Resource(
                conf.getInt(MRJobConfig.MR_AM_VMEM_MB, MRJobConfig.DEFAULT_MR_AM_VMEM_MB),
                conf.getInt(MRJobConfig.MR_AM_CPU_VCORES, MRJobConfig.DEFAULT_MR_AM_CPU_VCORES)));
    CapacityCheck.Resource minimum =
        new CapacityCheck.Resource(
            conf.getInt(
                YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB,
                YarnConfiguration.DEFAULT_RM_SCHEDULER_MINIMUM_ALLOCATION_MB),
            conf.getInt(
                YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_VCORES,
                YarnConfiguration.DEFAULT_RM_SCHEDULER_MINIMUM_ALLOCATION_VCORES));
    String queueName = conf.get(MRJobConfig.QUEUE_NAME, "default");
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(conf);
      yarn.start();
      List<CapacityCheck.Node> nodes = new ArrayList<>();
      for (NodeReport r : yarn.getNodeReports(NodeState.RUNNING)) {
        Resource cap = r.getCapability();
        Resource used = r.getUsed();
        long usedMb = used == null ? 0 : used.getMemorySize();
        int usedVc = used == null ? 0 : used.getVirtualCores();
        nodes.add(
            new CapacityCheck.Node(
                r.getNodeId().toString(),
                cap.getMemorySize() - usedMb,
                cap.getVirtualCores() - usedVc));
      }
      CapacityCheck.Queue queue = null;
      QueueInfo info = yarn.getQueueInfo(queueName);
      if (info != null) {
        QueueStatistics st = info.getQueueStatistics();
        // A scheduler that keeps no statistics reports zeros; only a reported total counts.
        if (st != null && st.getAvailableMemoryMB() + st.getAllocatedMemoryMB() > 0) {
          queue =
              new CapacityCheck.Queue(
                  queueName, st.getAvailableMemoryMB(), (int) st.getAvailableVCores());
        }
      }
      return CapacityCheck.check(need, nodes, queue, minimum);
    } catch (YarnException e) {
      throw new IOException("cannot ask the ResourceManager for free resources: " + e, e);
    }
  }
}
