package dev.levee.it.hadoop;

import java.util.EnumSet;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;

/**
 * What the ResourceManager says ran: proof a job went through YARN rather than the local runner.
 */
public final class YarnApps {

  private YarnApps() {}

  /** Applications with this name that finished and succeeded. */
  public static List<ApplicationReport> succeeded(Configuration conf, String name)
      throws Exception {
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(conf);
      yarn.start();
      return yarn.getApplications(EnumSet.of(YarnApplicationState.FINISHED)).stream()
          .filter(app -> app.getName().equals(name))
          .filter(app -> app.getFinalApplicationStatus() == FinalApplicationStatus.SUCCEEDED)
          .collect(Collectors.toList());
    }
  }
}
