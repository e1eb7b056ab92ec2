package dev.levee.mapred;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class MapOutputChecksTest {
  @Test
  void recordChecksNameWhatWasWrongAndWhatWasExpected() {
    IOException key =
        assertThrows(
            IOException.class,
            () -> MapOutputChecks.check("k", Integer.class, 1, Integer.class, 0, 2));
    assertTrue(key.getMessage().contains("expected java.lang.Integer, received java.lang.String"));
    IOException value =
        assertThrows(
            IOException.class,
            () -> MapOutputChecks.check(1, Integer.class, "v", Integer.class, 0, 2));
    assertTrue(value.getMessage().startsWith("Type mismatch in value from map"));
    IOException partition =
        assertThrows(
            IOException.class,
            () -> MapOutputChecks.check(1, Integer.class, 1, Integer.class, 2, 2));
    assertTrue(partition.getMessage().contains("Illegal partition for 1 (2)"));
    assertThrows(
        IOException.class, () -> MapOutputChecks.check(1, Integer.class, 1, Integer.class, -1, 2));
  }
}
