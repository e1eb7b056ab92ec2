package dev.levee.sponge.server;

import dev.levee.sponge.discovery.SpongeZnodes;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sponge servers this server's garbage collector may contact about an owner: itself, the
 * configured {@code levee.sponge.server.gc-owner-nodes}, and, with ZooKeeper, every server
 * registered there now. A node name in a chunk's owner entry is client input, so nothing else is
 * ever contacted. When ZooKeeper cannot be read the last list read is used.
 */
final class RegisteredServers implements Supplier<Set<String>> {
  private static final Logger LOG = LoggerFactory.getLogger(RegisteredServers.class);

  private final Set<String> fixed;
  private volatile CuratorFramework zk;
  private volatile SpongeZnodes znodes;
  private volatile Set<String> lastRegistered = Set.of();

  RegisteredServers(String self, List<String> configured) {
    Set<String> f = new HashSet<>(configured);
    f.add(self);
    this.fixed = Set.copyOf(f);
  }

  /** From now on, servers registered under {@code znodes} count too. */
  void useZooKeeper(CuratorFramework zk, SpongeZnodes znodes) {
    this.znodes = znodes;
    this.zk = zk;
  }

  @Override
  public Set<String> get() {
    CuratorFramework c = zk;
    if (c != null) {
      try {
        lastRegistered = Set.copyOf(c.getChildren().forPath(znodes.servers()));
      } catch (Exception e) {
        LOG.info("cannot list registered sponge servers; using the last list: {}", e.toString());
      }
    }
    Set<String> all = new HashSet<>(fixed);
    all.addAll(lastRegistered);
    return all;
  }
}
