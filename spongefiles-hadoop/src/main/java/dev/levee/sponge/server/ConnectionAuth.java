package dev.levee.sponge.server;

import dev.levee.sponge.protocol.Handshake;
import dev.levee.sponge.protocol.MalformedFrameException;
import dev.levee.sponge.protocol.Op;
import dev.levee.sponge.protocol.Payload;
import dev.levee.sponge.protocol.Status;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;

/**
 * One connection's side of the {@link Handshake}: the nonce it issued, the principal it proved, and
 * what that principal may do here. When authentication is not required an unauthenticated
 * connection may do anything (as before); a connection that did authenticate is held to its
 * principal either way.
 */
final class ConnectionAuth {
  private final ApplicationSecrets secrets;
  private final boolean required;
  private byte[] nonce;
  private Handshake.Kind kind;
  private String principal;
  private boolean provenWithDerivedSecret;

  ConnectionAuth(ApplicationSecrets secrets, boolean required) {
    this.secrets = secrets;
    this.required = required;
  }

  Reply challenge(Payload p) throws MalformedFrameException {
    p.expectEnd("CHALLENGE");
    nonce = Handshake.nonce();
    return Reply.ok(ByteBuffer.wrap(nonce.clone()));
  }

  Reply authenticate(Payload p) throws MalformedFrameException {
    byte code = p.getByte("kind");
    String who = p.getString("principal");
    byte[] proof = p.getBytes("proof", Handshake.PROOF_BYTES);
    p.expectEnd("AUTHENTICATE");
    byte[] issued = nonce;
    nonce = null; // one proof per nonce: a retry needs a new CHALLENGE
    Optional<Handshake.Kind> k = Handshake.Kind.fromCode(code);
    if (k.isEmpty()) {
      return Reply.error(Status.BAD_REQUEST, "AUTHENTICATE: unknown principal kind " + code);
    }
    if (issued == null) {
      return Reply.error(Status.UNAUTHENTICATED, "AUTHENTICATE without a CHALLENGE before it");
    }
    List<ApplicationSecrets.Secret> candidates = secrets.secretsOf(k.get(), who);
    if (candidates.isEmpty()) {
      return Reply.error(
          Status.UNAUTHENTICATED,
          "no secret for "
              + k.get()
              + " "
              + who
              + " on this server (an application must start on this node, or the cluster secret"
              + " be configured)");
    }
    for (ApplicationSecrets.Secret secret : candidates) {
      if (Handshake.verify(secret.bytes(), issued, k.get(), who, proof)) {
        if (secret.derived() && !secrets.derivedSecretStands(who)) {
          return Reply.error(
              Status.UNAUTHENTICATED,
              "application " + who + " has ended: its derived secret is void");
        }
        kind = k.get();
        principal = who;
        provenWithDerivedSecret = secret.derived();
        return Reply.okEmpty();
      }
    }
    return Reply.error(Status.UNAUTHENTICATED, "proof for " + k.get() + " " + who + " is wrong");
  }

  /**
   * Answers {@link Op#GRANT_SECRET}: the application's cluster-derived secret, to a task of this
   * node that proved its job's secret here. The reply carries a secret, so it never leaves the host
   * ({@code fromThisHost}); and a connection that proved only the derived secret, or none, gets
   * nothing it did not have.
   */
  Reply grant(Payload p, boolean fromThisHost) throws MalformedFrameException {
    p.expectEnd("GRANT_SECRET");
    if (!authenticated() || kind != Handshake.Kind.APPLICATION || provenWithDerivedSecret) {
      return Reply.error(
          Status.UNAUTHENTICATED,
          "GRANT_SECRET refused: only a connection that proved its application's own (job) secret"
              + " on this server may ask");
    }
    if (!fromThisHost) {
      return Reply.error(
          Status.UNAUTHENTICATED,
          "GRANT_SECRET refused: only tasks on this server's own host may ask (the reply is a"
              + " secret)");
    }
    Optional<byte[]> derived = secrets.derivedSecretOf(principal);
    if (derived.isEmpty()) {
      return Reply.error(
          Status.BAD_REQUEST,
          "GRANT_SECRET: this server has no cluster secret (levee.sponge.auth.secret-file), so"
              + " other servers could not check a derived secret either");
    }
    return Reply.ok(ByteBuffer.wrap(derived.get()));
  }

  /** The application this connection proved, or null (unauthenticated, or a server). */
  String provenApplication() {
    return kind == Handshake.Kind.APPLICATION ? principal : null;
  }

  boolean authenticated() {
    return principal != null;
  }

  /**
   * Why this connection may not make this request, or null if it may. {@code application} is the
   * application the request acts for: the allocating one, or the holder of the chunk read or freed
   * (null if unknown).
   */
  String refusal(Op op, String application) {
    if (op == Op.CHALLENGE
        || op == Op.AUTHENTICATE
        || op == Op.FREE_SPACE
        || op == Op.GRANT_SECRET) { // GRANT_SECRET checks for itself: see grant()
      return null; // the handshake itself, and free space, which the tracker publishes anyway
    }
    if (!authenticated()) {
      return required
          ? op
              + " refused: this server requires an authenticated connection (CHALLENGE and"
              + " AUTHENTICATE first)"
          : null;
    }
    if (op == Op.IS_ALIVE) {
      return kind == Handshake.Kind.SERVER ? null : op + " refused: only servers may ask";
    }
    if (kind == Handshake.Kind.SERVER) {
      return op + " refused: a server connection holds no chunks";
    }
    if (application != null && !application.equals(principal)) {
      return op + " refused: this connection is authenticated as " + principal;
    }
    return null;
  }
}
