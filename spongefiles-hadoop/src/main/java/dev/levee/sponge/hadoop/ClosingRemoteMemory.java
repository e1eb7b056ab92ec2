package dev.levee.sponge.hadoop;

import dev.levee.sponge.client.RemoteChunk;
import dev.levee.sponge.client.RemoteMemory;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The task's remote-memory client together with what it depends on (the ZooKeeper session its
 * server list comes from): the sponge file system closes its {@link RemoteMemory} at task end, and
 * this takes the rest down with it.
 */
final class ClosingRemoteMemory implements RemoteMemory {
  private final RemoteMemory client;
  private final List<AutoCloseable> resources;

  ClosingRemoteMemory(RemoteMemory client, List<AutoCloseable> resources) {
    this.client = client;
    this.resources = new ArrayList<>(resources);
  }

  @Override
  public List<SpongeServerAddress> serversWithFreeChunks() throws IOException {
    return client.serversWithFreeChunks();
  }

  @Override
  public List<dev.levee.sponge.discovery.ServerListEntry> serverHints() throws IOException {
    return client.serverHints();
  }

  @Override
  public Optional<RemoteChunk> store(SpongeServerAddress server, ByteBuffer data)
      throws IOException {
    return client.store(server, data);
  }

  /**
   * Forwarded, not left to the interface's synchronous default: that default would cost every
   * remote chunk of a task a full round trip instead of pipelining it on the connection.
   */
  @Override
  public CompletableFuture<Optional<RemoteChunk>> storeAsync(
      SpongeServerAddress server, ByteBuffer data) {
    return client.storeAsync(server, data);
  }

  @Override
  public void read(RemoteChunk chunk, ByteBuffer dst) throws IOException {
    client.read(chunk, dst);
  }

  @Override
  public void free(RemoteChunk chunk) throws IOException {
    client.free(chunk);
  }

  @Override
  public void close() {
    SpongeAttacher.closeAll(resources);
  }
}
