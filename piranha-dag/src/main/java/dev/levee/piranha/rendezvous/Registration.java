package dev.levee.piranha.rendezvous;

import dev.levee.piranha.transport.Endpoint;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a task publishes when it starts: where it listens (if it has parents), its process id (so
 * operators and fault tests can find it) and its container.
 */
public record Registration(Endpoint endpoint, long pid, String container) {

  public byte[] encode() {
    StringBuilder s = new StringBuilder();
    if (endpoint != null) {
      s.append("endpoint=").append(endpoint).append('\n');
    }
    s.append("pid=").append(pid).append('\n');
    s.append("container=").append(container == null ? "" : container).append('\n');
    return s.toString().getBytes(StandardCharsets.UTF_8);
  }

  public static Registration decode(byte[] data) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String line : new String(data, StandardCharsets.UTF_8).split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        m.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    String ep = m.get("endpoint");
    return new Registration(
        ep == null || ep.isEmpty() ? null : Endpoint.parse(ep),
        Long.parseLong(m.getOrDefault("pid", "-1")),
        m.getOrDefault("container", ""));
  }
}
