package dev.levee.sponge.client;

import dev.levee.sponge.protocol.ServerLoad;
import dev.levee.sponge.protocol.SpongeServerAddress;

/**
 * A chunk held in another sponge server's memory. Opaque to the SpongeFile beyond where it is and
 * how many bytes it holds; the implementation carries the server-side index and the unguessable
 * capability that proves ownership.
 */
public interface RemoteChunk {
  SpongeServerAddress server();

  /** Bytes written into the chunk (at most the chunk size). */
  int length();

  /**
   * The server's load as its store reply gave it; {@link ServerLoad#UNKNOWN} when the reply said
   * nothing (an older server) or the chunk did not come from a reply.
   */
  default ServerLoad loadWhenStored() {
    return ServerLoad.UNKNOWN;
  }
}
