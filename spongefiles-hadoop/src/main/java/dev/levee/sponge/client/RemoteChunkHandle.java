package dev.levee.sponge.client;

import dev.levee.sponge.protocol.Capability;
import dev.levee.sponge.protocol.ServerLoad;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.util.Objects;

/**
 * A chunk on a sponge server: where, which slot of its pool, the capability that unlocks it, its
 * length, and the load the server reported when it stored it.
 */
public record RemoteChunkHandle(
    SpongeServerAddress server,
    int index,
    Capability capability,
    int length,
    ServerLoad loadWhenStored)
    implements RemoteChunk {
  public RemoteChunkHandle {
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(capability, "capability");
    Objects.requireNonNull(loadWhenStored, "loadWhenStored");
    if (index < 0) {
      throw new IllegalArgumentException("chunk index must be >= 0, got " + index);
    }
    if (length < 0) {
      throw new IllegalArgumentException("chunk length must be >= 0, got " + length);
    }
  }

  public RemoteChunkHandle(
      SpongeServerAddress server, int index, Capability capability, int length) {
    this(server, index, capability, length, ServerLoad.UNKNOWN);
  }

  @Override
  public String toString() {
    return "chunk " + index + " (" + length + " B) on sponge server " + server;
  }
}
