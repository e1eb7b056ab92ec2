package dev.levee.sponge.client;

import dev.levee.sponge.protocol.Status;
import java.io.IOException;

/** A sponge server answered with an error status (as opposed to being unreachable). */
public final class RemoteReplyException extends IOException {
  private final Status status;

  public RemoteReplyException(Status status, String message) {
    super(message);
    this.status = status;
  }

  /** The same answer, with what the caller was doing said first (a handshake, a pipeline). */
  public RemoteReplyException(Status status, String message, Throwable cause) {
    super(message, cause);
    this.status = status;
  }

  public Status status() {
    return status;
  }
}
