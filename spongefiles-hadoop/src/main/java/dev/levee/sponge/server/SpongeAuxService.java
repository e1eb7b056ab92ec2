package dev.levee.sponge.server;

import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;
import org.apache.hadoop.yarn.server.api.ContainerTerminationContext;
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
 * plus the {@code levee.sponge.*} keys of {@link SpongeServerConfig}. When an application finishes,
 * the chunks it holds on this node are freed at once rather than at the next GC.
 *
 * <p>One yarn-site.xml configures every NodeManager, and several NodeManagers may share a host
 * (mini clusters, dense test rigs), so the service makes the configured values per NodeManager: its
 * pool lives in a subdirectory of {@code levee.sponge.local.pool.dir} named after the NodeManager's
 * local dirs (stable across NodeManager restarts, distinct between NodeManagers on one host), and
 * it publishes a {@link SpongeNodeDescriptor} with the pool, the real server port and the node name
 * into each NodeManager local dir, where the node's tasks look first.
 */
public class SpongeAuxService extends AuxiliaryService {
  private static final Logger LOG = LoggerFactory.getLogger(SpongeAuxService.class);
  public static final String SERVICE_NAME = "levee_sponge";

  private SpongeServerConfig config;
  private List<Path> nodeManagerLocalDirs = List.of();
  private final List<Path> descriptors = new ArrayList<>();
  private SpongeService node;
  private ResourceManagerApplications applications;

  public SpongeAuxService() {
    super(SERVICE_NAME);
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    // Validate every key here so a bad yarn-site.xml stops the NodeManager with a clear message at
    // start.
    SpongeConf.validate(conf);
    SpongeServerConfig configured = SpongeServerConfig.from(conf);
    NodeManagerAuthCheck.atStart(conf, configured.auth().required(), LOG);
    nodeManagerLocalDirs = localDirs(conf.getTrimmedStrings(YarnConfiguration.NM_LOCAL_DIRS));
    if (nodeManagerLocalDirs.isEmpty()) {
      LOG.warn(
          "{} is not set: tasks find this sponge through the levee.sponge.* keys of their job only",
          YarnConfiguration.NM_LOCAL_DIRS);
      config = configured;
    } else {
      Configuration scoped = new Configuration(conf);
      scoped.set(
          SpongeConf.LOCAL_POOL_DIR.name(),
          configured.poolDir().resolve(poolNameFor(nodeManagerLocalDirs)).toString());
      config = SpongeServerConfig.from(scoped);
    }
    super.serviceInit(conf);
  }

  @Override
  protected void serviceStart() throws Exception {
    node = SpongeService.start(config);
    // Job secrets reach this service through the ShuffleHandler's drop (JobSecretDrop).
    node.secrets().lookUpIn(new JobSecretDrop(nodeManagerLocalDirs)::find);
    if (config.auth().required()) {
      // Voids an ended application's derived secret here too, where it may never have run.
      applications =
          new ResourceManagerApplications(
              getConfig(),
              SpongeConf.AUTH_APPLICATION_CHECK_MS.from(SpongeConf.source(getConfig())));
      node.secrets().endedWhen(applications);
    }
    publishDescriptor();
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    withdrawDescriptor();
    if (node != null) {
      node.close();
      node = null;
    }
    if (applications != null) {
      applications.close();
      applications = null;
    }
    super.serviceStop();
  }

  @Override
  public void initializeApplication(ApplicationInitializationContext context) {
    // A job secret in this service's own data, should a framework send one (MapReduce's
    // ApplicationMaster sends it only to mapreduce_shuffle, hence JobSecretDrop); quotas need no
    // set-up (an application's first chunk allocation creates its entry).
    SpongeService n = node;
    String app = context.getApplicationId().toString();
    java.util.Optional<byte[]> secret =
        JobTokenServiceData.secret(context.getApplicationDataForService());
    if (n != null && secret.isPresent()) {
      n.secrets().register(app, secret.get());
    } else if (n != null) {
      LOG.debug(
          "application {} brought no job token for the sponge service; its secret comes from the"
              + " ShuffleHandler's drop if JobSecretRelayingShuffleHandler runs as mapreduce_shuffle",
          app);
    }
  }

  @Override
  public void stopApplication(ApplicationTerminationContext context) {
    SpongeService n = node;
    if (n != null) {
      ApplicationId app = context.getApplicationId();
      n.releaseApplication(app.toString());
      n.releaseContainers(c -> belongsTo(c, app), "finished application " + app);
      n.secrets().forget(app.toString());
    }
  }

  /**
   * The NodeManager's authoritative word that a container is gone (whatever its pid namespace): its
   * tasks' local chunks are freed now rather than judged by the next GC round.
   */
  @Override
  public void stopContainer(ContainerTerminationContext context) {
    SpongeService n = node;
    if (n != null) {
      String id = context.getContainerId().toString();
      n.releaseContainers(id::equals, "stopped container " + id);
    }
  }

  private static boolean belongsTo(String containerId, ApplicationId app) {
    try {
      return ContainerId.fromString(containerId)
          .getApplicationAttemptId()
          .getApplicationId()
          .equals(app);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * The port, as 4 big-endian bytes, for ApplicationMasters (they receive it when they start a
   * container); tasks find the node's server through the {@link SpongeNodeDescriptor} instead.
   */
  @Override
  public ByteBuffer getMetaData() {
    SpongeService n = node;
    return ByteBuffer.allocate(4).putInt(n == null ? -1 : n.address().port()).flip();
  }

  /** The running node, or null before start and after stop. */
  public SpongeService node() {
    return node;
  }

  /** The descriptor files this service published (one per usable NodeManager local dir). */
  public List<Path> descriptorFiles() {
    return List.copyOf(descriptors);
  }

  private void publishDescriptor() throws IOException {
    SpongeNodeDescriptor descriptor = SpongeNodeDescriptor.of(config, node.address().port());
    IOException firstFailure = null;
    for (Path dir : nodeManagerLocalDirs) {
      Path file = SpongeNodeDescriptor.in(dir);
      try {
        descriptor.writeTo(file);
        descriptors.add(file);
      } catch (IOException e) {
        // A failed disk: the NodeManager will not put containers there either.
        LOG.warn("cannot publish the sponge node descriptor in {}: {}", dir, e.toString());
        firstFailure = firstFailure == null ? e : firstFailure;
      }
    }
    if (descriptors.isEmpty() && firstFailure != null) {
      node.close();
      node = null;
      throw new IOException(
          "cannot publish the sponge node descriptor in any of "
              + nodeManagerLocalDirs
              + " ("
              + YarnConfiguration.NM_LOCAL_DIRS
              + "), so no task could find this node's sponge",
          firstFailure);
    }
    LOG.info(
        "sponge node {} with pool {} published to {}",
        node.nodeName(),
        config.poolDir(),
        descriptors);
  }

  private void withdrawDescriptor() {
    for (Path file : descriptors) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        LOG.warn("cannot remove the sponge node descriptor {}: {}", file, e.toString());
      }
    }
    descriptors.clear();
  }

  static List<Path> localDirs(String[] configured) {
    List<Path> dirs = new ArrayList<>();
    for (String d : configured) {
      String p =
          d.startsWith("file://")
              ? d.substring("file://".length())
              : d.startsWith("file:") ? d.substring(5) : d;
      if (!p.isEmpty()) {
        dirs.add(Path.of(p).toAbsolutePath().normalize());
      }
    }
    return dirs;
  }

  /**
   * {@code nm-} and a digest of the local dirs: what tells NodeManagers on one host apart, and
   * survives restarts.
   */
  static String poolNameFor(List<Path> nodeManagerLocalDirs) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      byte[] digest = sha.digest(nodeManagerLocalDirs.toString().getBytes(StandardCharsets.UTF_8));
      return "nm-" + HexFormat.of().formatHex(digest, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
