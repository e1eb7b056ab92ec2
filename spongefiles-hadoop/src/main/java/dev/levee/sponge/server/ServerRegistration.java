package dev.levee.sponge.server;

import dev.levee.sponge.discovery.ServerListCodec;
import dev.levee.sponge.discovery.SpongeZnodes;
import dev.levee.sponge.protocol.NodeNames;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.Closeable;
import java.io.IOException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.zookeeper.CreateMode;

/**
 * This server's ephemeral znode under {@code root/servers}: the tracker polls whoever is
 * registered. Curator's PersistentNode re-creates the znode after a session expiry, so a server
 * that survives a ZooKeeper outage comes back into the list on its own.
 */
final class ServerRegistration implements Closeable {
  private final PersistentNode node;

  ServerRegistration(CuratorFramework zk, SpongeZnodes znodes, SpongeServerAddress self) {
    this.node =
        new PersistentNode(
            zk,
            CreateMode.EPHEMERAL,
            false,
            znodes.server(NodeNames.of(self)),
            ServerListCodec.encodeServer(self));
  }

  void start() {
    node.start();
  }

  @Override
  public void close() throws IOException {
    node.close();
  }
}
