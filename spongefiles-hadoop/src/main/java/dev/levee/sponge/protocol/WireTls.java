package dev.levee.sponge.protocol;

import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS for sponge connections: the engines a server answers with and a client connects with. Only
 * the server shows a certificate; clients prove who they are with the {@link Handshake} inside the
 * encrypted connection, as on a plaintext one.
 */
public final class WireTls {
  /**
   * The setting that turns TLS on, named in the messages of mismatched peers (declared with the
   * other keys in {@code SpongeConf}).
   */
  public static final String ENABLED_KEY = "levee.sponge.wire.tls.enabled";

  /** TLS 1.3, and 1.2 for peers whose JDK disables 1.3; nothing older. */
  private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

  private final SSLContext context;
  private final boolean serves;
  private final boolean verifyHostname;
  private final String trustSource;

  private WireTls(SSLContext context, boolean serves, boolean verifyHostname, String trustSource) {
    this.context = context;
    this.serves = serves;
    this.verifyHostname = verifyHostname;
    this.trustSource = trustSource;
  }

  /**
   * @param keys the server's private key and certificate chain, or null for a process that only
   *     connects
   * @param keyPassword the password of {@code keys} and of its key entry
   * @param trust the certificates a client trusts, or null for the JDK's default trust store
   * @param verifyHostname whether a client checks that the server's certificate names the host it
   *     dialled
   * @param trustSource where {@code trust} came from, for messages
   */
  public static WireTls create(
      KeyStore keys, char[] keyPassword, KeyStore trust, boolean verifyHostname, String trustSource)
      throws GeneralSecurityException {
    KeyManagerFactory kmf = null;
    if (keys != null) {
      kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, keyPassword);
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    return new WireTls(context, keys != null, verifyHostname, trustSource);
  }

  /** An engine for one accepted connection. */
  public SSLEngine serverEngine() {
    if (!serves) {
      throw new IllegalStateException("no key store: this process cannot serve TLS");
    }
    SSLEngine e = context.createSSLEngine();
    e.setUseClientMode(false);
    e.setEnabledProtocols(PROTOCOLS);
    return e;
  }

  /** An engine for one connection to {@code host:port}. */
  public SSLEngine clientEngine(String host, int port) {
    SSLEngine e = context.createSSLEngine(host, port);
    e.setUseClientMode(true);
    SSLParameters p = e.getSSLParameters();
    p.setProtocols(PROTOCOLS);
    if (verifyHostname) {
      p.setEndpointIdentificationAlgorithm("HTTPS");
    }
    e.setSSLParameters(p);
    return e;
  }

  /** Where the certificates a client trusts come from (for messages). */
  public String trustSource() {
    return trustSource;
  }
}
