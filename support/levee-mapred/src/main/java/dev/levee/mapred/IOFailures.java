package dev.levee.mapred;

import java.io.Closeable;
import java.io.IOException;

/**
 * The failures of a loop that must try every element (close every cursor, free every chunk) before
 * it fails: the first {@link IOException} is thrown at the end, every later one suppressed into it,
 * so none is lost and none stops the others from being tried.
 */
public final class IOFailures {
  private IOException first;

  /**
   * Closes every one of {@code resources}, then throws the first failure, the others suppressed
   * into it.
   */
  public static void closeAll(Iterable<? extends Closeable> resources) throws IOException {
    IOFailures failures = new IOFailures();
    for (Closeable c : resources) {
      try {
        c.close();
      } catch (IOException e) {
        failures.add(e);
      }
    }
    failures.throwIfAny();
  }

  public void add(IOException e) {
    if (first == null) {
      first = e;
    } else {
      first.addSuppressed(e);
    }
  }

  /** Throws the first failure added, carrying the others, if there was one. */
  public void throwIfAny() throws IOException {
    if (first != null) {
      throw first;
    }
  }
}
