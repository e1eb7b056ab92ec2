package dev.levee.sponge.discovery;

import dev.levee.sponge.protocol.SpongeServerAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Text form of the tracker's published list, readable with {@code zkCli get}: a header line {@code
 * v1 <publishedAtMillis> <tracker node>}, then one line per server {@code host port rack free
 * total}.
 */
public final class ServerListCodec {
  private ServerListCodec() {}

  public record Published(long publishedAtMillis, String tracker, List<ServerListEntry> servers) {}

  public static byte[] encode(
      long publishedAtMillis, String tracker, List<ServerListEntry> servers) {
    StringBuilder sb =
        new StringBuilder("v1 ").append(publishedAtMillis).append(' ').append(tracker).append('\n');
    for (ServerListEntry e : servers) {
      SpongeServerAddress a = e.address();
      sb.append(a.host())
          .append(' ')
          .append(a.port())
          .append(' ')
          .append(rackField(a.rack()))
          .append(' ')
          .append(e.freeChunks())
          .append(' ')
          .append(e.totalChunks())
          .append('\n');
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  public static Published decode(byte[] data) {
    String[] lines = new String(data, StandardCharsets.UTF_8).split("\n");
    String[] head = lines[0].split(" ");
    if (head.length != 3 || !head[0].equals("v1")) {
      throw new IllegalArgumentException("not a v1 sponge server list: '" + lines[0] + "'");
    }
    List<ServerListEntry> servers = new ArrayList<>();
    for (int i = 1; i < lines.length; i++) {
      if (lines[i].isBlank()) {
        continue;
      }
      String[] f = lines[i].split(" ");
      if (f.length != 5) {
        throw new IllegalArgumentException(
            "bad sponge server list line " + i + ": '" + lines[i] + "'");
      }
      servers.add(
          new ServerListEntry(
              new SpongeServerAddress(f[0], Integer.parseInt(f[1]), rackOf(f[2])),
              Integer.parseInt(f[3]),
              Integer.parseInt(f[4])));
    }
    return new Published(Long.parseLong(head[1]), head[2], servers);
  }

  /** Registration data of one server: {@code host port rack}. */
  public static byte[] encodeServer(SpongeServerAddress a) {
    return (a.host() + " " + a.port() + " " + rackField(a.rack())).getBytes(StandardCharsets.UTF_8);
  }

  public static SpongeServerAddress decodeServer(byte[] data) {
    String[] f = new String(data, StandardCharsets.UTF_8).trim().split(" ");
    if (f.length != 3) {
      throw new IllegalArgumentException(
          "bad sponge server registration: '" + new String(data, StandardCharsets.UTF_8) + "'");
    }
    return new SpongeServerAddress(f[0], Integer.parseInt(f[1]), rackOf(f[2]));
  }

  private static String rackField(String rack) {
    if (rack == null) {
      return "-";
    }
    if (rack.isEmpty() || rack.equals("-") || rack.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException(
          "rack name must be non-empty, not '-', without whitespace: '" + rack + "'");
    }
    return rack;
  }

  private static String rackOf(String field) {
    return field.equals("-") ? null : field;
  }
}
