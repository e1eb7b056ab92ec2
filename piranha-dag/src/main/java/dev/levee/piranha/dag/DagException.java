package dev.levee.piranha.dag;

/** A DAG that cannot run; the message names the stage or edge at fault and what is allowed. */
public final class DagException extends IllegalArgumentException {
  public DagException(String message) {
    super(message);
  }

  public DagException(String message, Throwable cause) {
    super(message, cause);
  }
}
