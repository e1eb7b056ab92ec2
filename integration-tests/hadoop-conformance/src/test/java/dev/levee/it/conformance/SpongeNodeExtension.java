package dev.levee.it.conformance;

import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.hadoop.SpongeShuffle;
import dev.levee.sponge.server.SpongeService;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRConfig;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs around every test class of this module, Hadoop's own included (registered through
 * META-INF/services with extension autodetection, since Hadoop's classes cannot be annotated).
 *
 * <p>Before the first class it starts the node's sponge (server and pool) from the same
 * mapred-site.xml the tests' jobs read, and checks that file really switches SpongeFiles on. After
 * each Hadoop test class it checks the plugin really ran: every reduce that attaches to SpongeFiles
 * probes this server once, and {@code levee.sponge.shuffle.fallback=fail} makes any reduce that
 * could not attach fail its job, so a class whose jobs ran without a single probe did not test
 * SpongeFiles at all.
 */
public final class SpongeNodeExtension implements BeforeAllCallback, AfterAllCallback {
  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(SpongeNodeExtension.class);

  /** The sponge node, closed by JUnit when the run ends. */
  static final class Node implements ExtensionContext.Store.CloseableResource {
    final SpongeService node;

    Node(SpongeService node) {
      this.node = node;
    }

    @Override
    public void close() {
      node.close();
    }
  }

  static Node node(ExtensionContext context) {
    return context.getRoot().getStore(NS).getOrComputeIfAbsent("node", k -> start(), Node.class);
  }

  private static Node start() {
    JobConf conf = new JobConf();
    String plugin = conf.get(MRConfig.SHUFFLE_CONSUMER_PLUGIN);
    if (!SpongeShuffle.class.getName().equals(plugin)) {
      throw new IllegalStateException(
          "mapred-site.xml on the test classpath must switch SpongeFiles on; "
              + MRConfig.SHUFFLE_CONSUMER_PLUGIN
              + " is "
              + plugin);
    }
    try {
      return new Node(SpongeService.start(SpongeServerConfig.from(conf)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the sponge node for Hadoop's tests", e);
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    long probes = node(context).node.metrics().getFreeSpaceRequests();
    context.getStore(NS).put("probes-before", probes);
  }

  /** Hadoop's own test classes, and ours that run them unchanged by extending them. */
  private static boolean isHadoopTest(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      if (c.getName().startsWith("org.apache.hadoop.")) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (!isHadoopTest(context.getRequiredTestClass())) {
      return;
    }
    long before = context.getStore(NS).get("probes-before", Long.class);
    long after = node(context).node.metrics().getFreeSpaceRequests();
    if (after <= before) {
      throw new AssertionError(
          context.getRequiredTestClass().getName()
              + " ran without a single reduce attaching to SpongeFiles: the plugin was not in use");
    }
  }
}
