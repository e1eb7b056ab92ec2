package dev.levee.sponge.hadoop;

import dev.levee.sponge.SpongeConfig;
import dev.levee.sponge.SpongeConfigKeys;
import dev.levee.sponge.SpongeFileSystem;
import dev.levee.sponge.remote.RemoteMemory;
import dev.levee.sponge.remote.SpongeServerAddress;
import dev.levee.sponge.remote.net.ClientIdentity;
import dev.levee.sponge.remote.net.ClientSettings;
import dev.levee.sponge.remote.net.GuardedServerList;
import dev.levee.sponge.remote.net.NodeNames;
import dev.levee.sponge.remote.net.PublishedServerList;
import dev.levee.sponge.remote.net.ServerListSource;
import dev.levee.sponge.remote.net.SpongeClient;
import dev.levee.sponge.remote.net.SpongeZnodes;
import dev.levee.sponge.remote.net.StaticServerList;
import dev.levee.sponge.server.SpongeNodeDescriptor;
import dev.levee.sponge.server.SpongeServerConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
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
final class NodeSponge {
  private static final Logger LOG = LoggerFactory.getLogger(NodeSponge.class);
  private static final Set<Path> STALE_WARNED = ConcurrentHashMap.newKeySet();

  private NodeSponge() {}

  /** Either an open sponge file system or the reason there is none. */
  record Attachment(SpongeFileSystem fs, String unavailableReason, GuardedServerList tracker) {
    static Attachment unavailable(String reason) {
      return new Attachment(null, reason, null);
    }

    boolean available() {
      return fs != null;
    }
  }

  static Attachment attach(JobConf job, TaskAttemptID reduceId) {
    if (job.getBoolean(MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA, false)) {
      return Attachment.unavailable(
          MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA
              + "=true: SpongeFiles do not encrypt chunks, so encrypted shuffles stay on stock spilling");
    }
    Configuration conf = withTaskDiskDirs(job, reduceId);
    Optional<Path> descriptorFile = descriptorFor(job);
    String stale = null;
    if (descriptorFile.isPresent()) {
      try {
        SpongeNodeDescriptor node = SpongeNodeDescriptor.readFrom(descriptorFile.get());
        Optional<String> staleReason =
            node.staleReason(SpongeServerConfig.from(conf).clientConnectTimeoutMillis());
        if (staleReason.isPresent()) {
          // Left behind by a NodeManager that died without withdrawing it: this node has no sponge
          // server now.
          stale =
              "the sponge node descriptor "
                  + descriptorFile.get()
                  + " is stale: "
                  + staleReason.get();
          warnStaleOnce(descriptorFile.get(), reduceId + ": " + stale + "; ignoring it");
        } else {
          conf = node.applyTo(conf);
          LOG.info(
              "{}: using the sponge node described in {}: server {}:{}, pool {}",
              reduceId,
              descriptorFile.get(),
              node.advertisedHost(),
              node.port(),
              node.poolDir());
        }
      } catch (IOException e) {
        return Attachment.unavailable(
            "cannot read this node's sponge descriptor: " + e.getMessage());
      }
    }
    SpongeConfig sponge = SpongeConfig.from(conf);
    SpongeServerConfig server = SpongeServerConfig.from(conf);
    boolean requireServer =
        SpongeConfig.bool(
            conf, SpongeShuffleKeys.REQUIRE_SERVER, SpongeShuffleKeys.REQUIRE_SERVER_DEFAULT);

    SpongeServerAddress local = null;
    if (server.port() > 0) {
      local = new SpongeServerAddress(server.advertisedHost(), server.port(), server.rack());
    } else if (requireServer) {
      return Attachment.unavailable(
          SpongeServerConfig.PORT
              + "=0 names no sponge server for tasks to use"
              + (stale != null
                  ? ", and " + stale
                  : descriptorFile.isEmpty()
                      ? ", and no sponge node descriptor ("
                          + SpongeNodeDescriptor.RELATIVE_PATH
                          + ") was found in the NodeManager local dir above the task's local dirs"
                      : ""));
    }
    String ownerNode = local != null ? NodeNames.of(local) : sponge.ownerHost();
    ClientIdentity identity =
        ClientIdentity.ofCurrentProcess(applicationId(reduceId), ownerNode, server.rack());
    ClientSettings settings =
        new ClientSettings(
            server.clientConnectTimeoutMillis(),
            server.clientReadTimeoutMillis(),
            sponge.chunkSize(),
            2);

    List<AutoCloseable> opened = new ArrayList<>();
    try {
      GuardedServerList tracker = null;
      ServerListSource servers = new StaticServerList(List.of());
      if (sponge.remoteEnabled() && server.zooKeeperEnabled()) {
        tracker = connectTracker(server, opened);
        servers = tracker;
      }
      SpongeClient client = new SpongeClient(identity, servers, settings);
      opened.add(client);
      if (requireServer) {
        String problem = probe(client, local, sponge);
        if (problem != null) {
          closeAll(opened);
          return Attachment.unavailable(stale == null ? problem : problem + "; " + stale);
        }
      }
      RemoteMemory remote = new ClosingRemoteMemory(client, opened);
      try {
        return new Attachment(SpongeFileSystem.open(sponge, conf, remote), null, tracker);
      } catch (IOException e) {
        closeAll(opened);
        return Attachment.unavailable(
            "cannot attach the local sponge pool " + sponge.poolDir() + ": " + e);
      }
    } catch (RuntimeException e) {
      closeAll(opened);
      throw e;
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
   * The tracker's list through ZooKeeper, waiting at most {@code
   * levee.sponge.zookeeper.connect-timeout-ms} for the connection: a quorum that does not answer in
   * that time costs this task remote memory, not a wait per file. Later reads are bounded the same
   * way (one retry), and the first failure turns remote memory off for good.
   */
  private static GuardedServerList connectTracker(
      SpongeServerConfig server, List<AutoCloseable> opened) {
    SpongeZnodes znodes = new SpongeZnodes(server.zkRoot());
    String name = "ZooKeeper " + server.zkQuorum() + " " + znodes.freeServers();
    int wait = server.zkConnectTimeoutMillis();
    CuratorFramework zk =
        CuratorFrameworkFactory.builder()
            .connectString(server.zkQuorum())
            .sessionTimeoutMs(server.zkSessionTimeoutMillis())
            .connectionTimeoutMs(wait)
            .retryPolicy(new RetryOneTime(Math.min(200, wait)))
            .build();
    zk.start();
    opened.add(zk);
    try {
      if (!zk.blockUntilConnected(wait, TimeUnit.MILLISECONDS)) {
        return GuardedServerList.unreachable(name, "no connection within " + wait + " ms");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return GuardedServerList.unreachable(name, "interrupted while connecting");
    }
    return new GuardedServerList(new PublishedServerList(zk, znodes), name);
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
            + SpongeConfigKeys.CHUNK_SIZE
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
  private static Configuration withTaskDiskDirs(JobConf job, TaskAttemptID reduceId) {
    if (!job.getTrimmed(SpongeConfigKeys.DISK_DIRS, "").isEmpty()) {
      return job;
    }
    String[] local = job.getTrimmedStrings(MRConfig.LOCAL_DIR);
    List<String> dirs = new ArrayList<>();
    for (String d : local) {
      String p = d.startsWith("file://") ? d.substring("file://".length()) : d;
      if (Path.of(p).isAbsolute()) {
        dirs.add(Path.of(p, "levee-sponge", reduceId.toString()).toString());
      }
    }
    if (dirs.isEmpty()) {
      return job;
    }
    Configuration c = new Configuration(job);
    c.set(SpongeConfigKeys.DISK_DIRS, String.join(",", dirs));
    return c;
  }

  /**
   * YARN names an application after its job: job_1700000000000_0001 runs as
   * application_1700000000000_0001.
   */
  static String applicationId(TaskAttemptID reduceId) {
    String job = reduceId.getJobID().toString();
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
