package dev.levee.bench.hadoop.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpongeFuzzSuiteTest {
  @Test
  void percentilesAreNearestRankAndEmptyIsNaN() {
    List<Double> v = List.of(5.0, 1.0, 3.0, 2.0, 4.0);
    assertEquals(3.0, SpongeFuzzSuite.percentile(v, 0.5));
    assertEquals(5.0, SpongeFuzzSuite.percentile(v, 0.99));
    assertEquals(1.0, SpongeFuzzSuite.percentile(v, 0.0));
    assertTrue(Double.isNaN(SpongeFuzzSuite.percentile(List.of(), 0.5)));
  }

  @Test
  void fuzzOutcomesCountEveryAttemptOnce() {
    // 10 connected (2 of them hung) and 3 that could not connect: 13 attempts.
    assertArrayEquals(
        new double[] {8, 3, 2},
        FuzzFigure.outcomes(Map.of("connections", 10.0, "hangs", 2.0, "connect_failures", 3.0)));
    assertArrayEquals(
        new double[] {5, 4, 1},
        FuzzFigure.outcomes(
            Map.of("connections", 10.0, "served", 5.0, "refused", 4.0, "unanswered", 1.0)));
  }

  @Test
  void warnLinesCountWarningsAndErrorsOnly(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("server.log");
    Files.writeString(
        log, "01:00 INFO  Foo - started\n01:01 WARN  Bar - busy (x3)\n01:02 ERROR Baz - oops\n");
    assertEquals(2, SpongeFuzzSuite.warnLines(log));
    assertEquals(0, SpongeFuzzSuite.warnLines(dir.resolve("absent.log")));
  }
}
