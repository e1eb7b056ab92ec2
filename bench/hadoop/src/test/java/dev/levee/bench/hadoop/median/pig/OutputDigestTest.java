package dev.levee.bench.hadoop.median.pig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class OutputDigestTest {
  @Test
  void theSameLinesInAnyOrderHaveOneDigestAndAnyChangeAnother() {
    OutputDigest d = OutputDigest.ofLines(List.of("en\t{(a,3)}", "fr\t{(b,2)}", "de\t{}"));
    assertEquals(d, OutputDigest.ofLines(List.of("de\t{}", "en\t{(a,3)}", "fr\t{(b,2)}")));
    assertEquals(3, d.lines());
    assertNotEquals(d, OutputDigest.ofLines(List.of("en\t{(a,3)}", "fr\t{(b,1)}", "de\t{}")));
    assertNotEquals(d, OutputDigest.ofLines(List.of("en\t{(a,3)}", "fr\t{(b,2)}")));
    assertNotEquals(
        d, OutputDigest.ofLines(List.of("en\t{(a,3)}", "fr\t{(b,2)}", "de\t{}", "de\t{}")));
  }
}
