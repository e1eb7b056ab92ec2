package dev.levee.sponge;

import dev.levee.sponge.client.RemoteMemory;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeConf.LocalAccess;
import dev.levee.sponge.config.SpongeConfig;
import dev.levee.sponge.local.SharedMemoryPool;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How one process reaches its node's sponge memory: by mapping the pool, or through the node's
 * sponge server ({@link Tier#LOCAL_SERVER}), or not at all.
 *
 * <p>The pool directory is private to the sponge server's user (see the module README, "Security
 * and trust model"), so on a secure cluster a task running as the job's user cannot map it. Such a
 * task still gets the node's memory, with the guarantees of a remote chunk, by storing its chunks
 * in its own node's server over loopback. This is the design HDFS calls "local reads through the
 * DataNode", as opposed to short-circuit reads; passing the pool's file descriptors over a Unix
 * socket after checking the job token (HDFS's short-circuit design) would save the loopback copy
 * but needs native code on Java 17.
 *
 * @param pool the mapped pool, or {@code null}
 * @param server the server local chunks go through, or {@code null}; never both
 */
record LocalPoolAccess(SharedMemoryPool pool, SpongeServerAddress server) {
  private static final Logger LOG = LoggerFactory.getLogger(LocalPoolAccess.class);

  static final LocalPoolAccess NONE = new LocalPoolAccess(null, null);

  /**
   * @param client the process's sponge client, or {@code null} (then the pool must be mapped)
   * @param nodeServer this node's server when it answered, else {@code null}; a process with a
   *     server only attaches the pool, one without (tools, tests) creates it if missing
   * @throws IOException when the configured access is impossible: the pool cannot be mapped and no
   *     server may stand in, or {@code server} access was asked for and there is no server
   */
  static LocalPoolAccess choose(
      SpongeConfig config, RemoteMemory client, SpongeServerAddress nodeServer) throws IOException {
    if (!config.localEnabled()) {
      return NONE;
    }
    boolean serverUsable = nodeServer != null && client != null;
    LocalAccess access = config.localAccess();
    if (access == LocalAccess.SERVER) {
      if (!serverUsable) {
        throw new IOException(
            SpongeConf.LOCAL_ACCESS.name()
                + "=server, but this process has no sponge server on its node to go through"
                + " (none answered, or "
                + SpongeConf.PORT.name()
                + "=0); use direct or auto, or run the sponge aux service");
      }
      return new LocalPoolAccess(null, nodeServer);
    }
    try {
      return new LocalPoolAccess(mapPool(config, nodeServer != null), null);
    } catch (IOException e) {
      if (access == LocalAccess.AUTO && serverUsable) {
        LOG.info(
            "cannot map the sponge pool {} ({}); storing local chunks through the node's sponge"
                + " server {} instead ({}=auto)",
            config.poolDir(),
            e.getMessage(),
            nodeServer,
            SpongeConf.LOCAL_ACCESS.name());
        return new LocalPoolAccess(null, nodeServer);
      }
      throw e;
    }
  }

  private static SharedMemoryPool mapPool(SpongeConfig config, boolean serverOwnsPool)
      throws IOException {
    SharedMemoryPool pool =
        serverOwnsPool
            ? SharedMemoryPool.attach(config.poolDir(), config.poolSize(), config.chunkSize())
            : SharedMemoryPool.open(config.poolDir(), config.poolSize(), config.chunkSize());
    pool.holdOwnerLease(); // this process's liveness, for the node's GC
    return pool;
  }
}
