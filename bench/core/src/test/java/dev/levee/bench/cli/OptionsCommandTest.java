package dev.levee.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Option;

class OptionsCommandTest {

  enum Shape {
    ROUND("round"),
    NO_CORNERS("no-corners");

    final String label;

    Shape(String label) {
      this.label = label;
    }
  }

  static final class Shapes extends Converters.Labels<Shape> {
    Shapes() {
      super(Shape.values(), s -> s.label);
    }
  }

  static final class Example implements Validated {
    @Option(names = "--records", required = true)
    @Range(min = 0)
    long records;

    @Option(names = "--size", converter = Converters.ByteSize.class)
    @Range(min = 1)
    long size = 64 << 10;

    @Option(names = "--s")
    @Range(min = 0, max = 10, exclusiveMin = true)
    double s = 1.0;

    @Option(names = "--overwrite")
    boolean overwrite;

    @Option(names = "--maps", split = ",")
    @Range(min = 2, max = 100)
    List<Integer> maps = List.of(4);

    @Option(names = "--shapes", split = ",", converter = Shapes.class)
    List<Shape> shapes = List.of(Shape.ROUND);

    @Option(names = "--co-runner", arity = "1", converter = Converters.OnOff.class)
    boolean coRunner = true;

    @Option(names = "--quick")
    @Preset({"size=1k", "maps=3,5"})
    boolean quick;

    @Override
    public void validate() {
      if (size > 1L << 40) {
        throw new BadArgumentException("--size: at most 1t");
      }
    }
  }

  @Test
  void parsesBothSpellingsFlagsListsAndDefaults() {
    Example e = new Example();
    OptionsCommand c = new OptionsCommand("t [options]", "", e);
    assertTrue(
        c.parse(
            List.of(
                "--records",
                "2m",
                "--size=512m",
                "--overwrite",
                "--shapes",
                "no-corners,round",
                "--co-runner",
                "off")));
    assertEquals(2_000_000, e.records);
    assertEquals(512L << 20, e.size);
    assertEquals(1.0, e.s);
    assertTrue(e.overwrite);
    assertFalse(e.coRunner);
    assertEquals(List.of(Shape.NO_CORNERS, Shape.ROUND), e.shapes);
    assertEquals(List.of(4), e.maps);
    assertTrue(c.isGiven("size"));
    assertFalse(c.isGiven("s"));
    assertEquals("2000000", c.effectiveValues().get("records"));
    assertEquals("4", c.effectiveValues().get("maps"));
  }

  @Test
  void aPresetReplacesOnlyTheDefaultsNotGiven() {
    Example e = new Example();
    new OptionsCommand("t", "", e).parse(List.of("--records", "1", "--quick", "--maps", "7"));
    assertEquals(1024, e.size, "the preset's size");
    assertEquals(List.of(7), e.maps, "the given value wins over the preset");
    Example plain = new Example();
    new OptionsCommand("t", "", plain).parse(List.of("--records", "1"));
    assertEquals(64 << 10, plain.size);
  }

  /** Options that check themselves, mixed into another options object as --disk is. */
  static final class Nested implements Validated {
    @Option(names = "--mode")
    String mode = "real";

    @Override
    public void validate() {
      Choices.oneOf("--mode", mode, List.of("real", "emulated"));
    }
  }

  static final class Outer {
    @Option(names = "--revision")
    String revision = "";

    @picocli.CommandLine.Mixin Nested nested = new Nested();
  }

  @Test
  void aPresetFollowsTheFlagAsPicocliReadsIt() {
    Example upper = new Example();
    new OptionsCommand("t", "", upper).parse(List.of("--records", "1", "--quick=TRUE"));
    assertTrue(upper.quick);
    assertEquals(1024, upper.size, "--quick=TRUE sets the flag, so its preset applies");
    Example off = new Example();
    new OptionsCommand("t", "", off).parse(List.of("--records", "1", "--quick=false"));
    assertEquals(64 << 10, off.size, "--quick=false: no preset");
  }

  @Test
  void mixedInOptionsCheckThemselvesAndAtSignsAreValues() {
    assertEquals(
        "--mode: expected one of real, emulated, got 'fuse'",
        assertThrows(
                BadArgumentException.class,
                () -> OptionsCommand.parse(new Outer(), List.of("--mode", "fuse")))
            .getMessage());
    // picocli would read the file /etc/hostname here; a value starting with @ stays a value.
    assertEquals(
        "@/etc/hostname",
        OptionsCommand.parse(new Outer(), List.of("--revision", "@/etc/hostname")).revision);
  }

  @Test
  void errorsNameTheArgumentAndWhatIsAllowed() {
    assertMessage(
        "Unknown options: '--recs', '2'; did you mean --records?; allowed: --records, --size, --s,"
            + " --overwrite, --maps, --shapes, --co-runner, --quick",
        "--records",
        "1",
        "--recs",
        "2");
    assertMessage("Missing required option: '--records=<records>'");
    assertMessage(
        "Invalid value for option '--records': expected an integer (suffixes k, m, g allowed),"
            + " got 'x1'",
        "--records",
        "x1");
    assertMessage(
        "Invalid value for option '--size': expected a size such as 4096, 64k, 512m or 2g, got"
            + " 'lots'",
        "--records",
        "1",
        "--size",
        "lots");
    assertMessage("--s: expected a value > 0 and <= 10, got -2", "--records", "1", "--s", "-2");
    assertMessage(
        "--maps: expected a value from 2 to 100, got 1", "--records", "1", "--maps", "3,1");
    assertMessage(
        "Invalid value for option '--shapes' (<shapes>): unknown 'square'; allowed:"
            + " round, no-corners",
        "--records",
        "1",
        "--shapes",
        "square");
    assertMessage("--size: at most 1t", "--records", "1", "--size", "2t");
    assertMessage(
        "Invalid value for option '--co-runner': expected on or off, got 'yes'",
        "--records",
        "1",
        "--co-runner",
        "yes");
  }

  @Test
  void helpSkipsTheChecksAndListsDefaults() {
    OptionsCommand c = new OptionsCommand("t [options]", "what t does", new Example());
    assertFalse(c.parse(List.of("--help")), "--help needs no required option");
    String usage = c.usage();
    assertTrue(usage.startsWith("usage: t [options]"), usage);
    assertTrue(usage.contains("what t does"), usage);
    assertTrue(usage.contains("Default: 65536"), usage);
    for (List<String> wrong :
        List.of(
            List.of("--records", "x", "--help"),
            List.of("--help", "--recrods", "1"),
            List.of("--records", "1", "--size", "lots", "--help"))) {
      assertFalse(
          new OptionsCommand("t", "", new Example()).parse(wrong),
          "--help is answered whatever else is wrong: " + wrong);
    }
    assertThrows(
        BadArgumentException.class,
        () -> new OptionsCommand("t", "", new Example()).parse(List.of("--records", "x")),
        "without --help the error stands");
  }

  @Test
  void sizes() {
    assertEquals(4096, Sizes.parseBytes("4k"));
    assertEquals(3L << 30, Sizes.parseBytes("3GiB"));
    assertEquals(10, Sizes.parseBytes("10"));
    assertEquals("1.5 GiB", Sizes.format(3L << 29));
    assertThrows(NumberFormatException.class, () -> Sizes.parseBytes("-1k"));
  }

  private static void assertMessage(String expected, String... args) {
    assertEquals(
        expected,
        assertThrows(
                BadArgumentException.class,
                () -> new OptionsCommand("t", "", new Example()).parse(List.of(args)))
            .getMessage());
  }
}
