package dev.levee.sponge.discovery;

/**
 * ZooKeeper layout under the configured root (default {@code /levee/sponge}):
 *
 * <pre>
 *   root/servers/host:port   ephemeral, one per live sponge server; data "host port rack" (rack "-" if unknown)
 *   root/tracker             leader latch among the servers: the leader runs the memory tracker
 *   root/free-servers        persistent, rewritten by the tracker every poll; see {@link ServerListCodec}
 * </pre>
 */
public record SpongeZnodes(String root) {
  public SpongeZnodes {
    if (!root.startsWith("/") || (root.length() > 1 && root.endsWith("/"))) {
      throw new IllegalArgumentException(
          "ZooKeeper root must start with '/' and not end with '/', got '" + root + "'");
    }
  }

  public String servers() {
    return root + "/servers";
  }

  public String server(String nodeName) {
    return servers() + "/" + nodeName;
  }

  public String trackerLatch() {
    return root + "/tracker";
  }

  public String freeServers() {
    return root + "/free-servers";
  }
}
