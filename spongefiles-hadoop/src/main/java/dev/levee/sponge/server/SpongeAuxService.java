package dev.levee.sponge.server;

import java.nio.ByteBuffer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sponge server inside a YARN NodeManager. An operator adds it to {@code yarn-site.xml}:
 *
 * <pre>
 *   yarn.nodemanager.aux-services = mapreduce_shuffle,levee_sponge
 *   yarn.nodemanager.aux-services.levee_sponge.class = dev.levee.sponge.server.SpongeAuxService
 * </pre>
 *
 * plus the {@code levee.sponge.*} keys of {@link SpongeServerConfig}. When an application finishes, the chunks it
 * holds on this node are freed at once rather than at the next GC.
 */
public class SpongeAuxService extends AuxiliaryService {
  private static final Logger LOG = LoggerFactory.getLogger(SpongeAuxService.class);
  public static final String SERVICE_NAME = "levee_sponge";

  private SpongeServerConfig config;
  private SpongeNode node;

  public SpongeAuxService() {
    super(SERVICE_NAME);
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    // Validate every key here so a bad yarn-site.xml stops the NodeManager with a clear message at start.
    config = SpongeServerConfig.from(conf);
    super.serviceInit(conf);
  }

  @Override
  protected void serviceStart() throws Exception {
    node = SpongeNode.start(config);
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    if (node != null) {
      node.close();
      node = null;
    }
    super.serviceStop();
  }

  @Override
  public void initializeApplication(ApplicationInitializationContext context) {
    // Nothing to set up: an application's first chunk allocation creates its quota entry.
  }

  @Override
  public void stopApplication(ApplicationTerminationContext context) {
    SpongeNode n = node;
    if (n != null) {
      n.releaseApplication(context.getApplicationId().toString());
    }
  }

  /** The port, as 4 big-endian bytes: tasks can find this node's server through the container's service data. */
  @Override
  public ByteBuffer getMetaData() {
    SpongeNode n = node;
    return ByteBuffer.allocate(4).putInt(n == null ? -1 : n.address().port()).flip();
  }

  /** The running node, or null before start and after stop. */
  public SpongeNode node() {
    return node;
  }
}
