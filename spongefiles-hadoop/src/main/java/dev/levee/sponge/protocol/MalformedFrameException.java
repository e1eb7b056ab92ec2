package dev.levee.sponge.protocol;

import java.io.IOException;

/**
 * A frame the server cannot serve. {@link #inSync()} tells whether the stream is still positioned
 * at a frame boundary (the bad frame was consumed whole, so the connection can keep serving) or not
 * (the connection must close).
 */
public final class MalformedFrameException extends IOException {
  private final Status status;
  private final long requestId;
  private final boolean inSync;

  public MalformedFrameException(Status status, long requestId, boolean inSync, String message) {
    super(message);
    this.status = status;
    this.requestId = requestId;
    this.inSync = inSync;
  }

  public Status status() {
    return status;
  }

  public long requestId() {
    return requestId;
  }

  public boolean inSync() {
    return inSync;
  }
}
