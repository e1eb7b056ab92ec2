package dev.levee.piranha.transport;

/** Where a child task listens for its parents' pushes. */
public record Endpoint(String host, int port) {

  /** Parses {@code host:port}; throws IllegalArgumentException otherwise. */
  public static Endpoint parse(String text) {
    int colon = text.lastIndexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException("not host:port: " + text);
    }
    int port = Integer.parseInt(text.substring(colon + 1));
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port out of range in " + text);
    }
    return new Endpoint(text.substring(0, colon), port);
  }

  @Override
  public String toString() {
    return host + ":" + port;
  }
}
