package dev.levee.it.hadoop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;
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
 * Every class that uses a name must pass the same spec; keep it in one place in the test sources.
 * Tests on a shared cluster must leave it usable: no stopping NodeManagers, and each test writes
 * under its own HDFS path.
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

  @Override
  public void beforeAll(ExtensionContext context) {
    // The root store lives for the whole run and closes AutoCloseable values at its end.
    cluster =
        context
            .getRoot()
            .getStore(NAMESPACE)
            .getOrComputeIfAbsent(name, key -> start(), MiniMapReduceCluster.class);
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
