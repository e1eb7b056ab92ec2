package dev.levee.containers.jobs;

import dev.levee.sponge.client.ClientIdentity;
import dev.levee.sponge.client.ClientSettings;
import dev.levee.sponge.client.RemoteChunk;
import dev.levee.sponge.client.RemoteChunkHandle;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.discovery.StaticServerList;
import dev.levee.sponge.protocol.Capability;
import dev.levee.sponge.protocol.Handshake;
import dev.levee.sponge.protocol.NodeNames;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * A machine on the cluster's network that is not a node and holds no secret (the client container),
 * run while a job's chunks sit in the sponge servers: {@code SpongeIntruder <host:port>...} tries,
 * on every server, to store a chunk, to read and to free chunks 0..15 with made-up capabilities,
 * with no credential and with a made-up secret for the running application and for a node. Prints
 * {@code INTRUDER\t<server>\t<credential>\t<attempt>\t<outcome>} per attempt; exits 0 when every
 * attempt was refused or failed, 1 when any store, read or free was served.
 */
public final class SpongeIntruder {
  private static final SecureRandom RANDOM = new SecureRandom();

  private SpongeIntruder() {}

  public static void main(String[] args) throws Exception {
    String application = runningApplication();
    boolean served = false;
    for (String arg : args) {
      SpongeServerAddress server = NodeNames.serverOf(arg, 7788);
      for (Handshake.Credential credential : credentials(application)) {
        String as = credential == null ? "none" : credential.kind() + " " + credential.principal();
        ClientSettings settings = new ClientSettings(2000, 5000, 1 << 20, 1);
        if (credential != null) {
          settings = settings.withCredential(credential);
        }
        try (SpongeClient client =
            new SpongeClient(
                ClientIdentity.ofCurrentProcess(application, "client", null),
                new StaticServerList(List.of()),
                settings)) {
          served |= attempt(server, as, "store", () -> stored(client.store(server, chunk())));
          for (int index = 0; index < 16; index++) {
            RemoteChunk forged = new RemoteChunkHandle(server, index, Capability.random(), 1 << 20);
            served |=
                attempt(
                    server,
                    as,
                    "read " + index,
                    () -> {
                      client.read(forged, ByteBuffer.allocate(1 << 20));
                      return "SERVED";
                    });
            served |=
                attempt(
                    server,
                    as,
                    "free " + index,
                    () -> {
                      client.free(forged);
                      return "SERVED";
                    });
          }
        }
      }
    }
    System.exit(served ? 1 : 0);
  }

  private interface Attempt {
    String run() throws Exception;
  }

  /** Runs one attempt and prints it; true when the server served it. */
  private static boolean attempt(SpongeServerAddress server, String as, String what, Attempt a) {
    String outcome;
    try {
      outcome = a.run();
    } catch (Exception e) {
      outcome = "refused: " + e.getMessage();
    }
    System.out.println("INTRUDER\t" + server + "\t" + as + "\t" + what + "\t" + outcome);
    return outcome.startsWith("SERVED");
  }

  private static String stored(Optional<RemoteChunk> chunk) {
    return chunk.isPresent() ? "SERVED: " + chunk.get() : "not stored (no room)";
  }

  private static ByteBuffer chunk() {
    byte[] b = new byte[4096];
    RANDOM.nextBytes(b);
    return ByteBuffer.wrap(b);
  }

  /** No credential, a made-up application secret, a made-up node secret. */
  private static List<Handshake.Credential> credentials(String application) {
    List<Handshake.Credential> c = new ArrayList<>();
    c.add(null);
    c.add(new Handshake.Credential(Handshake.Kind.APPLICATION, application, secret()));
    c.add(new Handshake.Credential(Handshake.Kind.SERVER, "nm1", secret()));
    return c;
  }

  private static byte[] secret() {
    byte[] s = new byte[32];
    RANDOM.nextBytes(s);
    return s;
  }

  /** The application whose chunks are held now (the one RUNNING), to claim its name. */
  private static String runningApplication() throws Exception {
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(new YarnConfiguration());
      yarn.start();
      for (ApplicationReport r : yarn.getApplications(EnumSet.of(YarnApplicationState.RUNNING))) {
        return r.getApplicationId().toString();
      }
    }
    return "application_0_0001";
  }
}
