package dev.levee.bench.hadoop.sponge;

import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.protocol.Handshake;
import dev.levee.sponge.protocol.WireTls;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * What the secured arms of sponge-micro run with, as a default install does: a cluster secret file
 * (servers require authentication, the task proves its application's derived secret) and, for the
 * TLS arm, a self-signed certificate for the loopback address and a trust store holding it.
 */
final class SecuredWire {
  private static final String PASSWORD = "sponge-micro";

  private final Path dir;
  private final byte[] clusterSecret;
  private Path keyStore;
  private Path trustStore;

  private SecuredWire(Path dir, byte[] clusterSecret) {
    this.dir = dir;
    this.clusterSecret = clusterSecret;
  }

  /** A fresh cluster secret in {@code dir} (mode 600, as the servers require). */
  static SecuredWire in(Path dir) throws IOException {
    Files.createDirectories(dir);
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    Path file = dir.resolve("cluster.secret");
    Files.write(file, secret);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return new SecuredWire(dir, secret);
  }

  /** A server's settings: authentication required, and TLS too when {@code tls}. */
  Map<String, String> serverSettings(boolean tls) throws IOException {
    Map<String, String> s = new LinkedHashMap<>();
    s.put(SpongeConf.AUTH_REQUIRED.name(), "true");
    s.put(SpongeConf.AUTH_SECRET_FILE.name(), dir.resolve("cluster.secret").toString());
    if (tls) {
      stores();
      s.put(SpongeConf.TLS_ENABLED.name(), "true");
      s.put(SpongeConf.TLS_KEYSTORE_PATH.name(), keyStore.toString());
      s.put(SpongeConf.TLS_KEYSTORE_PASSWORD.name(), PASSWORD);
    }
    return s;
  }

  /** What a task proves: its application's secret derived from the cluster secret. */
  Handshake.Credential credential(String application) {
    return new Handshake.Credential(
        Handshake.Kind.APPLICATION,
        application,
        Handshake.derivedApplicationSecret(clusterSecret, application));
  }

  /** The task side of TLS: the trust store holding the servers' certificate. */
  WireTls clientTls() throws IOException {
    stores();
    Configuration c = new Configuration(false);
    c.set(SpongeConf.TLS_ENABLED.name(), "true");
    c.set(SpongeConf.TLS_TRUSTSTORE_PATH.name(), trustStore.toString());
    c.set(SpongeConf.TLS_TRUSTSTORE_PASSWORD.name(), PASSWORD);
    c.set(SpongeConf.AUTH_REQUIRED.name(), "false"); // the client side reads no secret file here
    return SpongeServerConfig.from(c).tls().forClient();
  }

  private synchronized void stores() throws IOException {
    if (keyStore != null) {
      return;
    }
    Path key = dir.resolve("server.p12");
    Path trust = dir.resolve("trust.p12");
    Path cert = dir.resolve("server.crt");
    keytool(
        "-genkeypair -alias sponge -keyalg EC -groupname secp256r1 -dname CN=localhost"
            + " -ext SAN=dns:localhost,ip:127.0.0.1 -validity 2 -storetype PKCS12"
            + (" -keystore " + key + " -storepass " + PASSWORD + " -keypass " + PASSWORD));
    keytool(
        "-exportcert -rfc -alias sponge -keystore "
            + (key + " -storepass " + PASSWORD + " -file " + cert));
    keytool(
        "-importcert -noprompt -alias sponge -storetype PKCS12 -file "
            + (cert + " -keystore " + trust + " -storepass " + PASSWORD));
    keyStore = key;
    trustStore = trust;
  }

  /** The JDK's keytool (arguments split at spaces: the run directory's paths have none). */
  private static void keytool(String args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    cmd.addAll(List.of(args.split(" ")));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (p.waitFor() != 0) {
        throw new IOException("keytool " + args + " failed: " + out);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while keytool ran", e);
    }
  }
}
