package dev.levee.sponge.discovery;

import java.util.List;

/**
 * A fixed server list: for a cluster without ZooKeeper, and for tools that address servers
 * directly.
 */
public record StaticServerList(List<ServerListEntry> servers) implements ServerListSource {
  public StaticServerList {
    servers = List.copyOf(servers);
  }

  @Override
  public List<ServerListEntry> serversWithFreeChunks() {
    return servers;
  }
}
