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

  public Status status() {
    return status;
  }
}
