package dev.levee.bench.cli;

/** A command-line mistake the user can fix; the message names the argument and what is allowed. */
public final class BadArgumentException extends RuntimeException {
  public BadArgumentException(String message) {
    super(message);
  }
}
