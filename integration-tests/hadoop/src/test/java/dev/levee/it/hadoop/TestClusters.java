package dev.levee.it.hadoop;

import org.apache.hadoop.conf.Configuration;

/**
 * The one cluster this module's Hadoop, Themis, Piranha and Pig tests share (one start, ~25 s, for
 * the whole run). Tests that need the SpongeFiles aux service on every NodeManager share {@code
 * dev.levee.it.sponge.SpongeCluster.SHARED} instead.
 */
public final class TestClusters {

  /**
   * Register in each test class as {@code @RegisterExtension static final SharedClusterExtension
   * CLUSTER = TestClusters.SHARED;}.
   */
  public static final SharedClusterExtension SHARED =
      SharedClusterExtension.named("it-hadoop", TestClusters::spec);

  private TestClusters() {}

  static MiniMapReduceCluster.Builder spec() {
    // Declared exactly as a user's yarn-site.xml would, to prove that path keeps the service.
    Configuration yarnSite = new Configuration(false);
    yarnSite.set("yarn.nodemanager.aux-services", ProbeAuxService.NAME);
    yarnSite.set(
        "yarn.nodemanager.aux-services." + ProbeAuxService.NAME + ".class",
        ProbeAuxService.class.getName());
    return MiniMapReduceCluster.builder()
        .nodeManagers(2)
        // One DataNode: the plugins under test live on the YARN side; a second one only costs start
        // time.
        .dataNodes(1)
        .configuration(yarnSite);
  }
}
