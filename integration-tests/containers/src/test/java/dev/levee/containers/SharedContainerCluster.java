package dev.levee.containers;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Map;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One cluster of containers for every test class of the tier: the first class that asks starts it
 * (about 20 s), later classes reuse it, and JUnit removes it when the run ends (a root-store
 * resource). Classes skip, saying why, where no engine answers. Tests must leave it whole: a node
 * they take away comes back before they end, and each job writes under its own HDFS path.
 *
 * <pre>
 * {@literal @}RegisterExtension static final SharedContainerCluster CLUSTER = new SharedContainerCluster();
 * </pre>
 */
final class SharedContainerCluster implements BeforeAllCallback {
  /** Each NodeManager's sponge pool, in MiB (1 MiB chunks). */
  static final int POOL_MB = 16;

  /**
   * A lost node is noticed by the ResourceManager after 10 s rather than the default 10 min, and an
   * application master gives up on a dead NodeManager after 20 s rather than 3 min: an operator of
   * a small cluster would shorten both, and the faults the tests make would otherwise wait on them.
   */
  static final Map<String, String> FAST_NODE_LOSS =
      Map.of(
          "yarn.nm.liveness-monitor.expiry-interval-ms", "10000",
          "yarn.client.nodemanager-connect.max-wait-ms", "20000",
          "yarn.client.nodemanager-connect.retry-interval-ms", "1000");

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(SharedContainerCluster.class);

  private volatile ContainerCluster cluster;

  /** The store's handle on the cluster: closing it removes every container. */
  private record Running(ContainerCluster cluster)
      implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() {
      cluster.close();
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    assumeTrue(Engine.reachable(), Engine.SKIP_MESSAGE);
    cluster =
        context
            .getRoot()
            .getStore(NAMESPACE)
            .getOrComputeIfAbsent("tier", key -> start(), Running.class)
            .cluster();
  }

  private static Running start() {
    ContainerCluster c =
        new ContainerCluster(
            "tier",
            3,
            new ContainerCluster.NodeSize("2g", "64m", POOL_MB + "m", 1280),
            FAST_NODE_LOSS);
    try {
      c.start();
    } catch (Exception | AssertionError e) {
      c.close(); // the containers a half-started cluster left go
      throw new IllegalStateException("the container cluster did not start", e);
    }
    return new Running(c);
  }

  ContainerCluster cluster() {
    return cluster;
  }
}
