package dev.levee.it.zk;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.zookeeper.client.FourLetterWordMain;

/**
 * A running curator-test {@link TestingCluster} plus what failover tests need and it lacks: which
 * member leads, and killing that one (killing a follower forces no election, so it proves little).
 */
public final class ZooKeeperEnsemble implements Closeable {

  private static final int PROBE_TIMEOUT_MS = 2_000;

  private final TestingCluster cluster;
  private final List<InstanceSpec> killed = new ArrayList<>();

  private ZooKeeperEnsemble(TestingCluster cluster) {
    this.cluster = cluster;
  }

  static ZooKeeperEnsemble start(InstanceSpec... specs) throws Exception {
    TestingCluster cluster = new TestingCluster(specs);
    try {
      cluster.start();
    } catch (Exception e) {
      cluster.close();
      throw e;
    }
    return new ZooKeeperEnsemble(cluster);
  }

  /**
   * The underlying cluster, for everything curator-test already offers (restartServer,
   * findConnectionInstance).
   */
  public TestingCluster cluster() {
    return cluster;
  }

  public String connectString() {
    return cluster.getConnectString();
  }

  /** The member that currently reports itself leader ("Mode: leader" from the srvr command). */
  public InstanceSpec leader() throws IOException {
    List<String> modes = new ArrayList<>();
    for (InstanceSpec instance : cluster.getInstances()) {
      if (killed.contains(instance)) {
        continue;
      }
      String mode = mode(instance);
      if ("leader".equals(mode) || "standalone".equals(mode)) {
        return instance;
      }
      modes.add(instance.getConnectString() + "=" + mode);
    }
    throw new NoSuchElementException("no ZooKeeper member leads now (election running?): " + modes);
  }

  /** Kills the leader the way a crash would (no clean shutdown) and returns it. */
  public InstanceSpec killLeader() throws Exception {
    InstanceSpec leader = leader();
    kill(leader);
    return leader;
  }

  public void kill(InstanceSpec instance) throws Exception {
    if (!cluster.killServer(instance)) {
      throw new IllegalArgumentException("not a member of this ensemble: " + instance);
    }
    killed.add(instance);
  }

  /** Brings a killed member back with its data. */
  public void restart(InstanceSpec instance) throws Exception {
    if (!cluster.restartServer(instance)) {
      throw new IllegalArgumentException("not a member of this ensemble: " + instance);
    }
    killed.remove(instance);
  }

  @Override
  public void close() throws IOException {
    cluster.close();
  }

  private static String mode(InstanceSpec instance) {
    try {
      String stat =
          FourLetterWordMain.send4LetterWord(
              instance.getHostname(), instance.getPort(), "srvr", false, PROBE_TIMEOUT_MS);
      for (String line : stat.split("\n")) {
        if (line.startsWith("Mode:")) {
          return line.substring("Mode:".length()).trim();
        }
      }
      return "unknown";
    } catch (Exception e) {
      return "unreachable (" + e.getMessage() + ")";
    }
  }
}
