package dev.levee.sponge.discovery;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * The memory tracker's published list, read from ZooKeeper. Reading the znode (rather than asking
 * the tracker) keeps clients independent of which server currently leads: after a failover the old
 * list stays readable until the new tracker overwrites it.
 */
public final class PublishedServerList implements ServerListSource {
  private final CuratorFramework zk;
  private final SpongeZnodes znodes;

  public PublishedServerList(CuratorFramework zk, SpongeZnodes znodes) {
    this.zk = Objects.requireNonNull(zk, "zk");
    this.znodes = Objects.requireNonNull(znodes, "znodes");
  }

  @Override
  public List<ServerListEntry> serversWithFreeChunks() throws IOException {
    return published().servers();
  }

  /** The whole published record, with its time stamp and the tracker that wrote it. */
  public ServerListCodec.Published published() throws IOException {
    try {
      return ServerListCodec.decode(zk.getData().forPath(znodes.freeServers()));
    } catch (KeeperException.NoNodeException e) {
      return new ServerListCodec.Published(0, "-", List.of());
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IOException(
          "cannot read the sponge server list at " + znodes.freeServers() + ": " + e, e);
    }
  }
}
