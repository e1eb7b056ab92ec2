package dev.levee.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ParsedOptionsTest {
  private static final List<OptionSpec> SPECS =
      List.of(
          OptionSpec.required("records", "N", "how many"),
          OptionSpec.optional("size", "SIZE", "bytes", "64k"),
          OptionSpec.optional("s", "S", "exponent", "1.0"),
          OptionSpec.flag("overwrite", "replace"));

  @Test
  void parsesBothSpellingsFlagsAndDefaults() {
    ParsedOptions o =
        ParsedOptions.parse(SPECS, List.of("--records", "2m", "--size=512m", "--overwrite"));
    assertEquals(2_000_000, o.longAtLeast("records", 0));
    assertEquals(512L << 20, o.bytesAtLeast("size", 1));
    assertEquals(1.0, o.doubleIn("s", 0, 10, true));
    assertTrue(o.flag("overwrite"));
    assertTrue(o.isGiven("size"));
    assertFalse(o.isGiven("s"));
    assertEquals("2m", o.effectiveValues().get("records"));
  }

  @Test
  void errorsNameTheArgumentAndWhatIsAllowed() {
    assertMessage(
        "unknown option --recs; allowed: --records, --size, --s, --overwrite",
        List.of("--records", "1", "--recs", "2"));
    assertMessage("missing required option --records N: how many", List.of());
    assertMessage("--size needs a value (SIZE)", List.of("--records", "1", "--size"));
    assertMessage("--records given more than once", List.of("--records", "1", "--records", "2"));

    ParsedOptions o =
        ParsedOptions.parse(SPECS, List.of("--records", "x1", "--size", "lots", "--s", "-2"));
    assertEquals(
        "--records: expected an integer >= 0 (suffixes k, m, g allowed), got 'x1'",
        assertThrows(BadArgumentException.class, () -> o.longAtLeast("records", 0)).getMessage());
    assertEquals(
        "--size: expected a size such as 4096, 64k, 512m or 2g, got 'lots'",
        assertThrows(BadArgumentException.class, () -> o.bytesAtLeast("size", 1)).getMessage());
    assertEquals(
        "--s: expected a number > 0.0 and <= 10.0, got '-2'",
        assertThrows(BadArgumentException.class, () -> o.doubleIn("s", 0, 10, true)).getMessage());
  }

  @Test
  void sizes() {
    assertEquals(4096, Sizes.parseBytes("4k"));
    assertEquals(3L << 30, Sizes.parseBytes("3GiB"));
    assertEquals(10, Sizes.parseBytes("10"));
    assertEquals("1.5 GiB", Sizes.format(3L << 29));
    assertThrows(NumberFormatException.class, () -> Sizes.parseBytes("-1k"));
  }

  private static void assertMessage(String expected, List<String> args) {
    assertEquals(
        expected,
        assertThrows(BadArgumentException.class, () -> ParsedOptions.parse(SPECS, args))
            .getMessage());
  }
}
