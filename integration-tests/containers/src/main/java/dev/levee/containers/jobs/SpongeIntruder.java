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
import java.util.function.Consumer;
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

  /** A free that raised no error: refused as "no such chunk", or done; the client cannot tell. */
  static final String FREE_ANSWERED = "no error (refused as no such chunk, or freed)";

  private SpongeIntruder() {}

  public static void main(String[] args) throws Exception {
    String application = runningApplication();
    List<SpongeServerAddress> servers = new ArrayList<>();
    for (String arg : args) {
      servers.add(NodeNames.serverOf(arg, 7788));
    }
    List<Guise> guises = new ArrayList<>();
    for (Handshake.Credential credential : credentials(application)) {
      guises.add(new Guise(application, credential, false));
    }
    System.exit(tryEverything(servers, guises, System.out::println) ? 1 : 0);
  }

  /**
   * How the intruder presents itself: as an application, with a credential (null: none); {@code
   * own} when that application is really the intruder's, whose stores are its right.
   */
  record Guise(String application, Handshake.Credential credential, boolean own) {
    String describe() {
      return credential == null
          ? "none"
          : credential.kind() + " " + credential.principal() + " as " + application;
    }
  }

  /**
   * On every server, in every guise, tries to store a chunk and to read and free chunks 0..15 with
   * made-up capabilities; prints one {@code INTRUDER\t<server>\t<guise>\t<attempt>\t<outcome>} line
   * per attempt to {@code out}. Returns whether any read or free was served, or any store served to
   * a guise not {@link Guise#own}.
   */
  static boolean tryEverything(
      List<SpongeServerAddress> servers, List<Guise> guises, Consumer<String> out) {
    boolean served = false;
    for (SpongeServerAddress server : servers) {
      for (Guise guise : guises) {
        String as = guise.describe();
        ClientSettings settings = new ClientSettings(2000, 5000, 1 << 20, 1);
        if (guise.credential() != null) {
          settings = settings.withCredential(guise.credential());
        }
        try (SpongeClient client =
            new SpongeClient(
                ClientIdentity.ofCurrentProcess(guise.application(), "client", null),
                new StaticServerList(List.of()),
                settings)) {
          boolean stored = attempt(out, server, as, "store", () -> stored(client, server));
          served |= stored && !guise.own();
          for (int index = 0; index < 16; index++) {
            RemoteChunk forged = new RemoteChunkHandle(server, index, Capability.random(), 1 << 20);
            served |=
                attempt(
                    out,
                    server,
                    as,
                    "read " + index,
                    () -> {
                      client.read(forged, ByteBuffer.allocate(1 << 20));
                      return "SERVED";
                    });
            served |=
                attempt(
                    out,
                    server,
                    as,
                    "free " + index,
                    () -> {
                      client.free(forged);
                      // The client takes the server's "no such chunk" for one already gone (a free
                      // is idempotent), so a refused free returns as quietly as a done one: only
                      // the pools' counts tell them apart (TenantIntruder compares them).
                      return FREE_ANSWERED;
                    });
          }
        }
      }
    }
    return served;
  }

  private interface Attempt {
    String run() throws Exception;
  }

  /** Runs one attempt and prints it; true when the server served it. */
  private static boolean attempt(
      Consumer<String> out, SpongeServerAddress server, String as, String what, Attempt a) {
    String outcome;
    try {
      outcome = a.run();
    } catch (Exception e) {
      outcome = "refused: " + e.getMessage();
    }
    out.accept("INTRUDER\t" + server + "\t" + as + "\t" + what + "\t" + outcome);
    return outcome.startsWith("SERVED");
  }

  /** Stores a chunk; one the server took is freed again at once (it would be the guise's own). */
  private static String stored(SpongeClient client, SpongeServerAddress server) throws Exception {
    Optional<RemoteChunk> chunk = client.store(server, chunk());
    if (chunk.isEmpty()) {
      return "not stored (no room)";
    }
    client.free(chunk.get());
    return "SERVED: " + chunk.get();
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
  static String runningApplication() throws Exception {
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
