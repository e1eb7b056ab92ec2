package dev.levee.sponge.client;

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
}
