package dev.levee.piranha.transport;

import java.io.IOException;

/** Bytes on a push connection that are not a well-formed frame; the message says what was wrong. */
public final class FrameException extends IOException {
  public FrameException(String message) {
    super(message);
  }

  public FrameException(String message, Throwable cause) {
    super(message, cause);
  }
}
