package dev.levee.piranha.runner;

import java.io.IOException;
import java.util.List;

/** A run that did not produce its output; the message lists every attempt's cause. */
public class PiranhaRunException extends IOException {
  private final List<String> causes;

  public PiranhaRunException(String message, List<String> causes) {
    super(message + (causes.isEmpty() ? "" : ":\n  " + String.join("\n  ", causes)));
    this.causes = List.copyOf(causes);
  }

  public List<String> causes() {
    return causes;
  }
}
