package dev.levee.sponge.protocol;

/**
 * Node names as they appear in chunk owner entries: {@code host:port} of the owner's sponge server,
 * or a bare {@code host} when every server listens on the configured port.
 */
public final class NodeNames {
  private NodeNames() {}

  public static String of(SpongeServerAddress a) {
    return a.host() + ":" + a.port();
  }

  public static boolean sameNode(SpongeServerAddress a, String nodeName) {
    return nodeName.equals(of(a));
  }

  /**
   * The sponge server a node name points at; a bare host means {@code defaultPort}.
   *
   * @throws IllegalArgumentException when the port part is not a port number
   */
  public static SpongeServerAddress serverOf(String nodeName, int defaultPort) {
    int colon = nodeName.lastIndexOf(':');
    // IPv6 literals contain colons; only a trailing ":digits" after a non-IPv6 host is a port.
    if (colon > 0 && nodeName.indexOf(':') == colon) {
      String port = nodeName.substring(colon + 1);
      try {
        return new SpongeServerAddress(nodeName.substring(0, colon), Integer.parseInt(port), null);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "node name '" + nodeName + "' has a port part that is not a number");
      }
    }
    return new SpongeServerAddress(nodeName, defaultPort, null);
  }
}
