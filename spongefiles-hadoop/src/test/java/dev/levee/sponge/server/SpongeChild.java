package dev.levee.sponge.server;

import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.local.ChunkOwner;
import dev.levee.sponge.local.SharedMemoryPool;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * A task stand-in run as a separate JVM, so that it can be killed with SIGKILL while holding
 * chunks.
 *
 * <ul>
 *   <li>{@code local <poolDir> <capacity> <chunkSize> <ownerHost> <n>}: takes n chunks straight
 *       from the pool;
 *   <li>{@code remote <host> <port> <ownerNode> <n>}: stores n chunks on that server as a remote
 *       client.
 * </ul>
 *
 * Prints {@code HOLDING <n>} and sleeps until killed.
 */
public final class SpongeChild {
  public static void main(String[] args) throws Exception {
    int held = 0;
    switch (args[0]) {
      case "local" -> {
        SharedMemoryPool pool =
            SharedMemoryPool.open(
                Path.of(args[1]), Long.parseLong(args[2]), Integer.parseInt(args[3]));
        ChunkOwner me = ChunkOwner.currentProcess(args[4]);
        for (int i = 0; i < Integer.parseInt(args[5]); i++) {
          if (pool.allocate(me).isPresent()) {
            held++;
          }
        }
      }
      case "remote" -> {
        SpongeServerAddress server =
            new SpongeServerAddress(args[1], Integer.parseInt(args[2]), null);
        SpongeClient client = TestNodes.client("application_1_0001", args[3], List.of(server));
        for (int i = 0; i < Integer.parseInt(args[4]); i++) {
          ByteBuffer data = TestNodes.randomBytes(1000, i);
          if (client.store(server, data).isPresent()) {
            held++;
          }
        }
      }
      default -> throw new IllegalArgumentException("unknown mode " + args[0]);
    }
    System.out.println("HOLDING " + held);
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
