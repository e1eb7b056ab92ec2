package dev.levee.mapred;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class IOFailuresTest {
  @Test
  void everyFailureIsKeptTheFirstThrown() throws IOException {
    IOFailures none = new IOFailures();
    none.throwIfAny();
    IOFailures some = new IOFailures();
    some.add(new IOException("first"));
    some.add(new IOException("second"));
    some.add(new IOException("third"));
    IOException thrown = assertThrows(IOException.class, some::throwIfAny);
    assertTrue(thrown.getMessage().equals("first") && thrown.getSuppressed().length == 2);
  }
}
