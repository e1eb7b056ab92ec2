package dev.levee.sponge.hadoop;

import dev.levee.sponge.SpongeFileSystem;
import dev.levee.sponge.client.ClientIdentity;
import dev.levee.sponge.client.ClientSettings;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeConfig;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.discovery.GuardedServerList;
import dev.levee.sponge.discovery.LazyTrackerList;
import dev.levee.sponge.discovery.SpongeZnodes;
import dev.levee.sponge.discovery.StaticServerList;
import dev.levee.sponge.discovery.ZooKeeperClients;
import dev.levee.sponge.protocol.Handshake;
import dev.levee.sponge.protocol.NodeNames;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.server.SpongeNodeDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds this node's sponge: from the {@link SpongeNodeDescriptor} the NodeManager's aux service
 * published in the NodeManager local dir above the task's own local dirs, or, where there is none
 * (the standalone daemon, local job runs), from the {@code levee.sponge.*} keys of the job
 * configuration. Then it probes the node's sponge server, attaches the shared pool, and connects
 * the remote-memory client to the tracker's server list. Every reason not to use SpongeFiles ends
 * up as {@link Attachment#unavailable}, so the caller can fall back to stock spilling; only invalid
 * configuration values throw, because silently ignoring a typo would hide it.
 */
final class SpongeAttacher {
  private static final Logger LOG = LoggerFactory.getLogger(SpongeAttacher.class);
  private static final Set<Path> STALE_WARNED = ConcurrentHashMap.newKeySet();

  private SpongeAttacher() {}

  /** Either an open sponge file system or the reason there is none. */
  record Attachment(SpongeFileSystem fs, String unavailableReason, GuardedServerList tracker) {
    static Attachment unavailable(String reason) {
      return new Attachment(null, reason, null);
    }

    boolean available() {
      return fs != null;
    }
  }

  static Attachment attach(JobConf job, TaskAttemptID taskId) {
    if (job.getBoolean(MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA, false)) {
      return Attachment.unavailable(
          MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA
              + "=true: SpongeFiles do not encrypt chunks, so encrypted shuffles stay on stock spilling");
    }
    NodeSettings node;
    try {
      node = nodeSettings(job, taskId);
    } catch (IOException e) {
      return Attachment.unavailable("cannot read this node's sponge descriptor: " + e.getMessage());
    }
    SpongeConfig sponge = SpongeConfig.from(node.conf());
    SpongeServerConfig server = SpongeServerConfig.from(node.conf());
    boolean requireServer = SpongeConf.SHUFFLE_REQUIRE_SERVER.from(SpongeConf.source(node.conf()));
    SpongeServerAddress local =
        server.port() > 0
            ? new SpongeServerAddress(server.advertisedHost(), server.port(), server.rack())
            : null;
    if (local == null && requireServer) {
      return Attachment.unavailable(
          SpongeConf.PORT.name() + "=0 names no sponge server for tasks to use" + node.why());
    }
    List<AutoCloseable> opened = new ArrayList<>();
    try {
      GuardedServerList tracker =
          sponge.remoteEnabled() && server.zooKeeperEnabled()
              ? connectTracker(server, opened)
              : null;
      TaskCredentials.Proof proof = TaskCredentials.of(applicationId(taskId), server);
      SpongeClient client = client(taskId, sponge, server, local, tracker, proof.credential());
      opened.add(client);
      if (requireServer) {
        String problem = probe(client, local, sponge);
        if (problem != null) {
          closeAll(opened);
          return Attachment.unavailable(problem + node.why());
        }
        if (proof.isJobSecret()) {
          Handshake.Credential derived = derivedCredential(taskId, client, local);
          if (derived != null) {
            opened.remove(client);
            client.close();
            client = client(taskId, sponge, server, local, tracker, derived);
            opened.add(client);
          }
        }
      }
      return openFileSystem(
          sponge,
          node.conf(),
          new ClosingRemoteMemory(client, opened),
          tracker,
          requireServer ? local : null);
    } catch (RuntimeException e) {
      closeAll(opened);
      throw e;
    }
  }

  /**
   * The configuration the task's sponge reads: the job's, with the task's own local dirs for disk
   * chunks, and the node's values from the descriptor its aux service published, unless that
   * descriptor was left behind by a NodeManager that is gone.
   *
   * @param why what to add to a refusal: why no node was found, if none was
   */
  private record NodeSettings(Configuration conf, String why) {}

  private static NodeSettings nodeSettings(JobConf job, TaskAttemptID taskId) throws IOException {
    Configuration conf = withTaskDiskDirs(job, taskId);
    Optional<Path> descriptorFile = descriptorFor(job);
    if (descriptorFile.isEmpty()) {
      return new NodeSettings(
          conf,
          ", and no sponge node descriptor ("
              + SpongeNodeDescriptor.RELATIVE_PATH
              + ") was found in the NodeManager local dir above the task's local dirs");
    }
    SpongeNodeDescriptor node = SpongeNodeDescriptor.readFrom(descriptorFile.get());
    Optional<String> staleReason =
        node.staleReason(SpongeServerConfig.from(conf).clientConnectTimeoutMillis());
    if (staleReason.isPresent()) {
      // Left behind by a NodeManager that died without withdrawing it: no sponge server now.
      String stale =
          "the sponge node descriptor " + descriptorFile.get() + " is stale: " + staleReason.get();
      warnStaleOnce(descriptorFile.get(), taskId + ": " + stale + "; ignoring it");
      return new NodeSettings(conf, "; " + stale);
    }
    LOG.info(
        "{}: using the sponge node described in {}: server {}:{}, pool {}",
        taskId,
        descriptorFile.get(),
        node.advertisedHost(),
        node.port(),
        node.poolDir());
    return new NodeSettings(node.applyTo(conf), "");
  }

  /**
   * The job's secret is known only to servers on nodes where the application started a container;
   * the secret derived from the cluster secret is known to every server. The node's own server,
   * having checked the job's secret, hands the derived one over ({@code GRANT_SECRET}), so that
   * with authentication required remote memory still reaches every node. Null (and the job's secret
   * stays in use, reaching only nodes the job runs on) when the server cannot grant it.
   */
  private static Handshake.Credential derivedCredential(
      TaskAttemptID taskId, SpongeClient client, SpongeServerAddress local) {
    try {
      byte[] derived = client.grantSecret(local);
      LOG.info(
          "{}: proved the job's secret to the sponge server {}; using the application's"
              + " cluster-derived secret it granted, which every sponge server can check",
          taskId,
          local);
      return new Handshake.Credential(Handshake.Kind.APPLICATION, applicationId(taskId), derived);
    } catch (IOException | RuntimeException e) {
      LOG.info(
          "{}: no cluster-derived secret from {} ({}); servers on nodes this job does not run on"
              + " will refuse its remote chunks",
          taskId,
          local,
          e.getMessage());
      return null;
    }
  }

  /** The task's client of sponge servers, owned by the node's server (or host) it runs on. */
  private static SpongeClient client(
      TaskAttemptID taskId,
      SpongeConfig sponge,
      SpongeServerConfig server,
      SpongeServerAddress local,
      GuardedServerList tracker,
      Handshake.Credential credential) {
    String ownerNode = local != null ? NodeNames.of(local) : sponge.ownerHost();
    ClientIdentity identity =
        ClientIdentity.ofCurrentProcess(applicationId(taskId), ownerNode, server.rack());
    ClientSettings settings =
        new ClientSettings(
            server.clientConnectTimeoutMillis(),
            server.clientReadTimeoutMillis(),
            sponge.chunkSize(),
            2);
    settings = settings.withCredential(credential).withTls(server.tls().forClient());
    return new SpongeClient(
        identity, tracker != null ? tracker : new StaticServerList(List.of()), settings);
  }

  private static Attachment openFileSystem(
      SpongeConfig sponge,
      Configuration conf,
      ClosingRemoteMemory remote,
      GuardedServerList tracker,
      SpongeServerAddress nodeServer) {
    try {
      // With a server that answered the probe: it made this node's pool, and a task must never
      // make another (a deleted pool directory would otherwise split the node in two).
      return new Attachment(SpongeFileSystem.open(sponge, conf, remote, nodeServer), null, tracker);
    } catch (IOException e) {
      remote.close();
      return Attachment.unavailable(
          "cannot use the local sponge pool " + sponge.poolDir() + ": " + e.getMessage());
    }
  }

  /**
   * Warns about a stale descriptor once per file and JVM: every reduce (and every retry) of a
   * reused JVM would otherwise repeat it. Returns whether it warned.
   */
  static boolean warnStaleOnce(Path descriptor, String message) {
    if (STALE_WARNED.add(descriptor)) {
      LOG.warn(message);
      return true;
    }
    LOG.debug(message);
    return false;
  }

  /**
   * The tracker's list through ZooKeeper, connected at the first read ({@link LazyTrackerList}): a
   * task that never places a chunk off its node never opens a session. The first read waits at most
   * {@code levee.sponge.zookeeper.connect-timeout-ms} for the connection: a quorum that does not
   * answer in that time costs this task remote memory, not a wait per file. Later reads are bounded
   * the same way (one retry), and the first failure turns remote memory off for good.
   */
  private static GuardedServerList connectTracker(
      SpongeServerConfig server, List<AutoCloseable> opened) {
    SpongeZnodes znodes = new SpongeZnodes(server.zkRoot());
    String name = "ZooKeeper " + server.zkQuorum() + " " + znodes.freeServers();
    LazyTrackerList list =
        new LazyTrackerList(
            () -> ZooKeeperClients.forTask(server), znodes, server.zkConnectTimeoutMillis());
    opened.add(list);
    return new GuardedServerList(list, name);
  }

  /**
   * Null when the node's server answers with the geometry this task expects, else what is wrong.
   */
  private static String probe(SpongeClient client, SpongeServerAddress local, SpongeConfig sponge) {
    try {
      SpongeClient.FreeSpace free = client.freeSpace(local);
      if (free.chunkSize() != sponge.chunkSize()) {
        return "the sponge server at "
            + local
            + " uses chunks of "
            + free.chunkSize()
            + " bytes but "
            + SpongeConf.CHUNK_SIZE.name()
            + " says "
            + sponge.chunkSize();
      }
      return null;
    } catch (IOException | RuntimeException e) {
      return "no sponge server reachable at " + local + ": " + e.getMessage();
    }
  }

  /**
   * The descriptor of the NodeManager this task runs under, found in the NodeManager local dir
   * above any of the task's local dirs; empty outside YARN or when the node runs no sponge aux
   * service.
   */
  static Optional<Path> descriptorFor(Configuration job) {
    for (String d : job.getTrimmedStrings(MRConfig.LOCAL_DIR)) {
      String p = d.startsWith("file://") ? d.substring("file://".length()) : d;
      if (!Path.of(p).isAbsolute()) {
        continue;
      }
      Optional<Path> file =
          SpongeNodeDescriptor.nodeManagerLocalDirOf(Path.of(p)).map(SpongeNodeDescriptor::in);
      if (file.isPresent() && Files.isReadable(file.get())) {
        return file;
      }
    }
    return Optional.empty();
  }

  /**
   * Disk chunks default to the task's local directories (under {@code
   * mapreduce.cluster.local.dir}), which the framework cleans up after the job, rather than {@code
   * java.io.tmpdir}, which nobody does.
   */
  private static Configuration withTaskDiskDirs(JobConf job, TaskAttemptID taskId) {
    if (!job.getTrimmed(SpongeConf.DISK_DIRS.name(), "").isEmpty()) {
      return job;
    }
    String[] local = job.getTrimmedStrings(MRConfig.LOCAL_DIR);
    List<String> dirs = new ArrayList<>();
    for (String d : local) {
      String p = d.startsWith("file://") ? d.substring("file://".length()) : d;
      if (Path.of(p).isAbsolute()) {
        dirs.add(Path.of(p, "levee-sponge", taskId.toString()).toString());
      }
    }
    if (dirs.isEmpty()) {
      return job;
    }
    Configuration c = new Configuration(job);
    c.set(SpongeConf.DISK_DIRS.name(), String.join(",", dirs));
    return c;
  }

  /**
   * YARN names an application after its job: job_1700000000000_0001 runs as
   * application_1700000000000_0001.
   */
  static String applicationId(TaskAttemptID taskId) {
    String job = taskId.getJobID().toString();
    return job.startsWith("job_") ? "application_" + job.substring("job_".length()) : job;
  }

  static void closeAll(List<AutoCloseable> resources) {
    for (int i = resources.size() - 1; i >= 0; i--) {
      try {
        resources.get(i).close();
      } catch (Exception ignored) {
        // Best effort while giving up on the sponge; the caller reports why it gave up.
      }
    }
    resources.clear();
  }
}
