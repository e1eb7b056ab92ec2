package dev.levee.sponge.server;

import dev.levee.sponge.protocol.Handshake;
import dev.levee.sponge.protocol.MalformedFrameException;
import dev.levee.sponge.protocol.Op;
import dev.levee.sponge.protocol.Payload;
import dev.levee.sponge.protocol.Status;
import java.nio.ByteBuffer;
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
    Optional<byte[]> secret = secrets.secretOf(k.get(), who);
    if (secret.isEmpty()) {
      return Reply.error(
          Status.UNAUTHENTICATED,
          "no secret for "
              + k.get()
              + " "
              + who
              + " on this server (an application must start on this node, or the cluster secret"
              + " be configured)");
    }
    if (!Handshake.verify(secret.get(), issued, k.get(), who, proof)) {
      return Reply.error(Status.UNAUTHENTICATED, "proof for " + k.get() + " " + who + " is wrong");
    }
    kind = k.get();
    principal = who;
    return Reply.okEmpty();
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
    if (op == Op.CHALLENGE || op == Op.AUTHENTICATE || op == Op.FREE_SPACE) {
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
