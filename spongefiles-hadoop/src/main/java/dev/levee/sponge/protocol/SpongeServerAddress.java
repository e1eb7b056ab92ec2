package dev.levee.sponge.protocol;

import java.util.Objects;

/**
 * Where a sponge server listens, and the rack it sits in ({@code null} when topology is unknown).
 */
public record SpongeServerAddress(String host, int port, String rack) {
  public SpongeServerAddress {
    Objects.requireNonNull(host, "host");
    if (port <= 0 || port > 65535) {
      throw new IllegalArgumentException("sponge server port must be in 1..65535, got " + port);
    }
  }

  @Override
  public String toString() {
    return host + ":" + port + (rack == null ? "" : " (rack " + rack + ")");
  }
}
