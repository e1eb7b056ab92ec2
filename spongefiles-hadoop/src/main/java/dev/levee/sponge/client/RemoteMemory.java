package dev.levee.sponge.client;

import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The cluster's spare sponge memory as one SpongeFile sees it: the seam between the file (which
 * decides placement) and the sponge servers (which own remote chunks).
 *
 * <p>Calls may block on the network; the file issues writes from its async writer thread and reads
 * from its prefetcher, never from the task's own thread on the hot path.
 */
public interface RemoteMemory extends Closeable {

  /**
   * Servers that had free chunks at the memory tracker's last poll, nearest first (same rack first
   * when topology is known). Fetched once when a SpongeFile is created; entries may be stale by the
   * time they are used.
   */
  List<SpongeServerAddress> serversWithFreeChunks() throws IOException;

  /**
   * {@link #serversWithFreeChunks} with the free chunk count the tracker last saw for each server
   * ({@code -1} where it is not known), for placement policies that weigh servers by load. This
   * default knows no counts.
   */
  default List<ServerListEntry> serverHints() throws IOException {
    List<ServerListEntry> hints = new ArrayList<>();
    for (SpongeServerAddress a : serversWithFreeChunks()) {
      hints.add(new ServerListEntry(a, -1, -1));
    }
    return hints;
  }

  /**
   * Allocates a chunk on {@code server} and writes {@code data} (position..limit, at most one
   * chunk) into it.
   *
   * @return the stored chunk, or empty when the server has no free chunk or the caller's quota
   *     there is used up (a stale tracker entry: the caller moves on to the next server)
   * @throws IOException when the server cannot be reached or answers with an error
   */
  Optional<RemoteChunk> store(SpongeServerAddress server, ByteBuffer data) throws IOException;

  /**
   * {@link #store} without waiting for the server: several stores may be in flight at once
   * (pipelined on one connection), so that a file's chunk k+1 travels while the server files chunk
   * k. The bytes of {@code data} have been sent, or copied, when this returns; its position does
   * not move. The future completes as {@link #store} returns or throws. This default stores
   * synchronously.
   */
  default CompletableFuture<Optional<RemoteChunk>> storeAsync(
      SpongeServerAddress server, ByteBuffer data) {
    try {
      return CompletableFuture.completedFuture(store(server, data.duplicate()));
    } catch (IOException | RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Reads the whole chunk into {@code dst} (position advances by {@link RemoteChunk#length()}).
   *
   * @throws IOException naming the chunk and the server when the server is gone or no longer holds
   *     the chunk
   */
  void read(RemoteChunk chunk, ByteBuffer dst) throws IOException;

  /**
   * Frees the chunk; freeing a chunk whose server is gone is not an error (the server's memory went
   * with it).
   */
  void free(RemoteChunk chunk) throws IOException;
}
