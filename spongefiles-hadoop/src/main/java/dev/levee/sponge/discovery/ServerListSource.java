package dev.levee.sponge.discovery;

import java.io.IOException;
import java.util.List;

/**
 * Where a client learns which sponge servers have free chunks: the tracker's published list, or a
 * fixed list.
 */
public interface ServerListSource {
  /** Servers with at least one free chunk at the last poll, most free first. */
  List<ServerListEntry> serversWithFreeChunks() throws IOException;
}
