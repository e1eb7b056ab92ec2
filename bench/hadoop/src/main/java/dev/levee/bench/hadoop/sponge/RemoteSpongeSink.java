package dev.levee.bench.hadoop.sponge;

import dev.levee.sponge.client.RemoteChunk;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Chunks stored on one sponge server over TCP with {@link SpongeClient} (allocate+write in one
 * request, read, free): Table 1's "local sponge server" when the server runs on this node, "remote
 * memory" when it stands for another. Calls are synchronous here, so each chunk's time is one full
 * round trip, the latency of a single chunk; a SpongeFile pipelines its chunks instead (the
 * remote-spongefile medium measures that).
 */
final class RemoteSpongeSink implements ChunkSink {
  private final SpongeClient client;
  private final SpongeServerAddress server;
  private final RemoteChunk[] held;
  private final ByteBuffer readBuffer;
  private int heldCount;

  RemoteSpongeSink(SpongeClient client, SpongeServerAddress server, int batch, int chunkSize) {
    this.client = client;
    this.server = server;
    this.held = new RemoteChunk[batch];
    this.readBuffer = ByteBuffer.allocateDirect(chunkSize);
  }

  @Override
  public int batchCapacity() {
    return held.length;
  }

  @Override
  public void write(int slot, ByteBuffer chunk) throws IOException {
    held[slot] =
        client
            .store(server, chunk)
            .orElseThrow(
                () ->
                    new IOException(
                        "sponge server "
                            + server
                            + " had no room for slot "
                            + slot
                            + " (its pool or this application's quota is smaller than the batch)"));
    heldCount = Math.max(heldCount, slot + 1);
  }

  @Override
  public ByteBuffer read(int slot) throws IOException {
    readBuffer.clear();
    client.read(held[slot], readBuffer);
    return readBuffer.flip();
  }

  @Override
  public void freeBatch() throws IOException {
    IOException first = null;
    for (int i = 0; i < heldCount; i++) {
      try {
        client.free(held[i]);
      } catch (IOException e) {
        first = first == null ? e : first;
      }
      held[i] = null;
    }
    heldCount = 0;
    if (first != null) {
      throw first;
    }
  }

  @Override
  public void close() throws IOException {
    freeBatch();
  }
}
