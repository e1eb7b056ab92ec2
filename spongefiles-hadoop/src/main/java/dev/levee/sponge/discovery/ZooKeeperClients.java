package dev.levee.sponge.discovery;

import dev.levee.sponge.config.SpongeServerConfig;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.retry.RetryOneTime;

/**
 * The two kinds of ZooKeeper session SpongeFiles open, built in one place so that every session a
 * node or task holds has the same quorum, root and limits.
 */
public final class ZooKeeperClients {
  private ZooKeeperClients() {}

  /**
   * A sponge server's session: it lives as long as the NodeManager and must ride out ZooKeeper
   * restarts, so operations retry with back-off (up to ~10 attempts, 5 s apart at most). With an
   * {@code acl} (a cluster secret is configured) it proves the servers' identity and creates every
   * znode with that ACL; null keeps ZooKeeper's open ACL.
   */
  public static CuratorFramework forServer(SpongeServerConfig cfg, ZooKeeperAcl acl) {
    CuratorFrameworkFactory.Builder b =
        CuratorFrameworkFactory.builder()
            .connectString(cfg.zkQuorum())
            .sessionTimeoutMs(cfg.zkSessionTimeoutMillis())
            .connectionTimeoutMs(Math.min(15_000, cfg.zkSessionTimeoutMillis()))
            .retryPolicy(new ExponentialBackoffRetry(200, 10, 5_000));
    if (acl != null) {
      b = b.authorization(ZooKeeperAcl.SCHEME, acl.authInfo()).aclProvider(acl);
    }
    return b.build();
  }

  /**
   * A task's session: a task must not stall on ZooKeeper, so each operation waits at most the
   * connect timeout and retries once ({@link GuardedServerList} then gives remote memory up).
   */
  public static CuratorFramework forTask(SpongeServerConfig cfg) {
    int wait = cfg.zkConnectTimeoutMillis();
    return CuratorFrameworkFactory.builder()
        .connectString(cfg.zkQuorum())
        .sessionTimeoutMs(cfg.zkSessionTimeoutMillis())
        .connectionTimeoutMs(wait)
        .retryPolicy(new RetryOneTime(Math.min(200, wait)))
        .build();
  }
}
