package dev.levee.sponge.protocol;

import java.io.IOException;

/**
 * The peer answered a TLS client's handshake with a plaintext sponge frame: a server without TLS
 * saying so, or a TLS server refusing the connection before its handshake (BUSY).
 */
public final class PlaintextReplyException extends IOException {
  private final Status status;
  private final String serverMessage;

  PlaintextReplyException(Status status, String serverMessage) {
    super("answered the TLS handshake in plaintext: " + status + ": " + serverMessage);
    this.status = status;
    this.serverMessage = serverMessage;
  }

  public Status status() {
    return status;
  }

  public String serverMessage() {
    return serverMessage;
  }
}
