package dev.levee.sponge.config;

import dev.levee.config.ConfigException;
import dev.levee.config.ConfigKey;
import dev.levee.config.ConfigSource;
import dev.levee.sponge.protocol.WireTls;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Collections;
import org.apache.hadoop.conf.Configuration;

/**
 * Whether sponge connections use TLS, and the stores that go with it. The stores are read when a
 * server starts or a client is made, so that a bad one stops that at once, naming the key and the
 * file, instead of failing every connection later.
 */
public final class WireTlsConfig {
  private final boolean enabled;
  private final String keyStorePath;
  private final String keyStoreType;
  private final char[] keyStorePassword;
  private final String trustStorePath;
  private final String trustStoreType;
  private final char[] trustStorePassword;
  private final boolean verifyHostname;

  WireTlsConfig(
      boolean enabled,
      String keyStorePath,
      String keyStoreType,
      char[] keyStorePassword,
      String trustStorePath,
      String trustStoreType,
      char[] trustStorePassword,
      boolean verifyHostname) {
    this.enabled = enabled;
    this.keyStorePath = keyStorePath;
    this.keyStoreType = keyStoreType;
    this.keyStorePassword = keyStorePassword;
    this.trustStorePath = trustStorePath;
    this.trustStoreType = trustStoreType;
    this.trustStorePassword = trustStorePassword;
    this.verifyHostname = verifyHostname;
  }

  static WireTlsConfig from(Configuration conf, ConfigSource s) {
    return new WireTlsConfig(
        SpongeConf.TLS_ENABLED.from(s),
        SpongeConf.TLS_KEYSTORE_PATH.from(s),
        SpongeConf.TLS_KEYSTORE_TYPE.from(s),
        password(conf, s, SpongeConf.TLS_KEYSTORE_PASSWORD),
        SpongeConf.TLS_TRUSTSTORE_PATH.from(s),
        SpongeConf.TLS_TRUSTSTORE_TYPE.from(s),
        password(conf, s, SpongeConf.TLS_TRUSTSTORE_PASSWORD),
        SpongeConf.TLS_VERIFY_HOSTNAME.from(s));
  }

  /** Through Hadoop's credential providers when configured, else the plain value. */
  private static char[] password(Configuration conf, ConfigSource s, ConfigKey<String> key) {
    String plain = key.from(s);
    try {
      char[] p = conf.getPassword(key.name());
      return p != null ? p : plain.toCharArray();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read " + key.name() + " from the credential providers: " + e.getMessage(), e);
    }
  }

  public boolean enabled() {
    return enabled;
  }

  /**
   * A server's TLS: its key store, and the trust store its own client connections (liveness probes,
   * the tracker's polls) check other servers with; null when TLS is off.
   *
   * @throws ConfigException naming the key and the file when a store is missing or unusable
   */
  public WireTls forServer() {
    if (!enabled) {
      return null;
    }
    if (keyStorePath.isEmpty()) {
      throw new ConfigException(
          SpongeConf.TLS_KEYSTORE_PATH.name(),
          "",
          "a key store holding the server's key and certificate (needed because "
              + SpongeConf.TLS_ENABLED.name()
              + "=true)");
    }
    KeyStore keys =
        load(
            SpongeConf.TLS_KEYSTORE_PATH,
            SpongeConf.TLS_KEYSTORE_PASSWORD,
            keyStorePath,
            keyStoreType,
            keyStorePassword);
    if (!holdsKey(keys)) {
      throw new ConfigException(
          SpongeConf.TLS_KEYSTORE_PATH.name(),
          keyStorePath,
          "a key store with a private key entry (this one holds certificates only)");
    }
    return create(keys);
  }

  /**
   * A client's TLS: the certificates it trusts; null when TLS is off.
   *
   * @throws ConfigException naming the key and the file when the trust store is missing or unusable
   */
  public WireTls forClient() {
    return enabled ? create(null) : null;
  }

  private WireTls create(KeyStore keys) {
    KeyStore trust =
        trustStorePath.isEmpty()
            ? null
            : load(
                SpongeConf.TLS_TRUSTSTORE_PATH,
                SpongeConf.TLS_TRUSTSTORE_PASSWORD,
                trustStorePath,
                trustStoreType,
                trustStorePassword);
    if (trust != null && !holdsCertificate(trust)) {
      throw new ConfigException(
          SpongeConf.TLS_TRUSTSTORE_PATH.name(),
          trustStorePath,
          "a trust store with at least one certificate (none could be read from this one: a"
              + " PKCS12 store needs "
              + SpongeConf.TLS_TRUSTSTORE_PASSWORD.name()
              + ")");
    }
    String trustSource =
        trustStorePath.isEmpty()
            ? "the JDK's default trust store (" + SpongeConf.TLS_TRUSTSTORE_PATH.name() + " unset)"
            : SpongeConf.TLS_TRUSTSTORE_PATH.name() + "=" + trustStorePath;
    try {
      return WireTls.create(keys, keyStorePassword, trust, verifyHostname, trustSource);
    } catch (GeneralSecurityException e) {
      throw new ConfigException(
          keys != null
              ? SpongeConf.TLS_KEYSTORE_PATH.name()
              : SpongeConf.TLS_TRUSTSTORE_PATH.name(),
          keys != null ? keyStorePath : trustStorePath,
          "a key store whose key opens with "
              + SpongeConf.TLS_KEYSTORE_PASSWORD.name()
              + " and a trust store the JDK can use ("
              + e
              + ")",
          e);
    }
  }

  private static KeyStore load(
      ConfigKey<String> key,
      ConfigKey<String> passwordKey,
      String path,
      String type,
      char[] password) {
    String allowed = "a readable " + type + " store, opened with " + passwordKey.name();
    try (InputStream in = Files.newInputStream(Path.of(path))) {
      KeyStore ks = KeyStore.getInstance(type);
      ks.load(in, password.length == 0 ? null : password);
      return ks;
    } catch (IOException | GeneralSecurityException e) {
      throw new ConfigException(key.name(), path, allowed + " (" + e + ")", e);
    }
  }

  private static boolean holdsKey(KeyStore ks) {
    try {
      for (String alias : Collections.list(ks.aliases())) {
        if (ks.isKeyEntry(alias)) {
          return true;
        }
      }
      return false;
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  private static boolean holdsCertificate(KeyStore ks) {
    try {
      for (String alias : Collections.list(ks.aliases())) {
        if (ks.getCertificate(alias) != null) {
          return true;
        }
      }
      return false;
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  @Override
  public String toString() {
    // never the passwords
    return enabled
        ? "TLS{keyStore=" + keyStorePath + ", trustStore=" + trustStorePath + "}"
        : "TLS{off}";
  }
}
