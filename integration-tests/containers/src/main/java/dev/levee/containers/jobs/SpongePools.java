package dev.levee.containers.jobs;

import dev.levee.sponge.client.ClientIdentity;
import dev.levee.sponge.client.ClientSettings;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.discovery.StaticServerList;
import dev.levee.sponge.protocol.NodeNames;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * Run in the client container on the distribution's SpongeFiles jar: {@code SpongePools await-free
 * <seconds> <host:port>...} asks each sponge server for its free chunks (FREE_SPACE, which needs no
 * credential: the tracker publishes it anyway) until every pool is entirely free, prints {@code
 * POOL\t<server>\t<free>\t<total>} per server, and exits 0, or 1 at the deadline with the last
 * answers. A server that does not answer counts as not free.
 */
public final class SpongePools {
  private SpongePools() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 3 || !args[0].equals("await-free")) {
      System.err.println("usage: SpongePools await-free <seconds> <host:port>...");
      System.exit(2);
    }
    long deadline = System.nanoTime() + Long.parseLong(args[1]) * 1_000_000_000L;
    List<SpongeServerAddress> servers = new ArrayList<>();
    for (int i = 2; i < args.length; i++) {
      servers.add(NodeNames.serverOf(args[i], 7788));
    }
    try (SpongeClient client =
        new SpongeClient(
            ClientIdentity.ofCurrentProcess("pools-probe", "client", null),
            new StaticServerList(List.of()),
            new ClientSettings(2000, 5000, 1 << 20, 1))) {
      while (true) {
        List<String> lines = new ArrayList<>();
        boolean allFree = true;
        for (SpongeServerAddress s : servers) {
          try {
            SpongeClient.FreeSpace f = client.freeSpace(s);
            lines.add("POOL\t" + s + "\t" + f.freeChunks() + "\t" + f.totalChunks());
            allFree &= f.freeChunks() == f.totalChunks();
          } catch (java.io.IOException e) {
            lines.add("POOL\t" + s + "\tno answer: " + e.getMessage());
            allFree = false;
          }
        }
        if (allFree || System.nanoTime() > deadline) {
          lines.forEach(System.out::println);
          System.exit(allFree ? 0 : 1);
        }
        Thread.sleep(500);
      }
    }
  }
}
