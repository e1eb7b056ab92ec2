package dev.levee.piranha;

import java.io.IOException;

/** The run was aborted: by this task, by a peer, or by the loss of its ZooKeeper session. */
public final class PiranhaAbortedException extends IOException {
  public PiranhaAbortedException(String reason) {
    super("Piranha run aborted: " + reason);
  }

  public PiranhaAbortedException(String reason, Throwable cause) {
    super("Piranha run aborted: " + reason, cause);
  }
}
