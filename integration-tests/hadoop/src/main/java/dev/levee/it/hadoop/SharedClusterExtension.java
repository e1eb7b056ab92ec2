package dev.levee.it.hadoop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link MiniMapReduceCluster} per name for a whole test run: the first test class that asks
 * for a name starts it (~25 s), later classes reuse it, and JUnit closes it when the run ends.
 *
 * <pre>
 * {@literal @}RegisterExtension
 * static final SharedClusterExtension CLUSTER = SharedClusterExtension.named("plugins", MyClusters::spec);
 * ...
 * Job job = Job.getInstance(CLUSTER.cluster().clientConf());
 * </pre>
 *
 * At most one shared cluster lives at a time: asking for another name closes the current one. Every
 * class that uses a name must pass the same spec; keep it in one place in the test sources. Tests
 * on a shared cluster must leave it usable: no stopping NodeManagers, and each test writes under
 * its own HDFS path.
 */
public final class SharedClusterExtension implements BeforeAllCallback {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(SharedClusterExtension.class);

  private final String name;
  private final Supplier<MiniMapReduceCluster.Builder> spec;
  private volatile MiniMapReduceCluster cluster;

  private SharedClusterExtension(String name, Supplier<MiniMapReduceCluster.Builder> spec) {
    this.name = Objects.requireNonNull(name, "name");
    this.spec = Objects.requireNonNull(spec, "spec");
  }

  public static SharedClusterExtension named(
      String name, Supplier<MiniMapReduceCluster.Builder> spec) {
    return new SharedClusterExtension(name, spec);
  }

  /** Names of the clusters this run started and has not closed: at most one. */
  private static final Set<String> LIVE = new HashSet<>();

  @Override
  public void beforeAll(ExtensionContext context) {
    // The root store lives for the whole run and closes AutoCloseable values at its end.
    ExtensionContext.Store store = context.getRoot().getStore(NAMESPACE);
    synchronized (LIVE) {
      // Only one cluster may live at a time: a second ResourceManager in the same JVM makes the
      // first one's NodeManagers refuse new containers ("allocated by a previous RM"). The class
      // orderer groups test classes by cluster name, so each cluster still starts once.
      for (String other : new ArrayList<>(LIVE)) {
        if (!other.equals(name)) {
          MiniMapReduceCluster previous = store.remove(other, MiniMapReduceCluster.class);
          LIVE.remove(other);
          if (previous != null) {
            previous.close();
          }
        }
      }
      cluster = store.getOrComputeIfAbsent(name, key -> start(), MiniMapReduceCluster.class);
      LIVE.add(name);
    }
  }

  /** The name test classes share this cluster by. */
  public String name() {
    return name;
  }

  public MiniMapReduceCluster cluster() {
    MiniMapReduceCluster started = cluster;
    if (started == null) {
      throw new IllegalStateException(
          "shared cluster '"
              + name
              + "' is not started: register this extension on a"
              + " static field with @RegisterExtension and use it from test methods or @BeforeAll/@BeforeEach");
    }
    return started;
  }

  private MiniMapReduceCluster start() {
    try {
      return spec.get().start();
    } catch (IOException e) {
      throw new UncheckedIOException("shared cluster '" + name + "' failed to start", e);
    }
  }
}
