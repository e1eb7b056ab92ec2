package dev.levee.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractMap.SimpleEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigRegistryTest {
  private static final ConfigRegistry.Builder B = ConfigRegistry.builder("demo", "levee.demo.");
  static final ConfigKey<Long> BUFFER =
      B.key("levee.demo.buffer.size", ValueTypes.bytes(4096, 1L << 30))
          .defaultValue("1m")
          .doc("Bytes per buffer.")
          .since("0.1.0")
          .build();
  static final ConfigKey<Boolean> ENABLED =
      B.key("levee.demo.enabled", ValueTypes.bool())
          .defaultValue("true")
          .doc("Switch | with a pipe.")
          .since("0.1.0")
          .build();
  static final ConfigKey<Double> SHARE =
      B.key("levee.demo.memory.fraction", ValueTypes.fraction())
          .defaultValue("0.5")
          .doc("Share of the heap.")
          .since("0.2.0")
          .build();
  static final ConfigKey<String> HOST =
      B.key("levee.demo.host", ValueTypes.text())
          .defaultValue("")
          .defaultDescription("the local host name")
          .doc("Host.")
          .since("0.1.0")
          .build();
  static final ConfigRegistry REGISTRY = B.family("levee\\.demo\\.queue\\.[^.]+\\.weight").build();

  @Test
  void readsDefaultsAndSetValues() {
    ConfigSource empty = ConfigSource.of(Map.of());
    assertEquals(1L << 20, BUFFER.from(empty));
    assertTrue(ENABLED.from(empty));
    ConfigSource set =
        ConfigSource.of(Map.of("levee.demo.buffer.size", " 64k ", "levee.demo.enabled", "FALSE"));
    assertEquals(64 * 1024L, BUFFER.from(set));
    assertFalse(ENABLED.from(set));
  }

  @Test
  void badValuesNameTheKeyTheValueAndWhatIsAllowed() {
    ConfigException e =
        assertThrows(
            ConfigException.class,
            () -> BUFFER.from(ConfigSource.of(Map.of("levee.demo.buffer.size", "2k"))));
    assertEquals(
        "invalid levee.demo.buffer.size='2k': expected a byte size between 4k and 1g (a number with an "
            + "optional k, m, g or t suffix)",
        e.getMessage());
    assertThrows(ConfigException.class, () -> BUFFER.parse("99999999999999999999g"));
    assertThrows(ConfigException.class, () -> BUFFER.parse("16777216t")); // overflows a long
    assertThrows(ConfigException.class, () -> ENABLED.parse("yes"));
    assertThrows(ConfigException.class, () -> SHARE.parse("0"));
    assertThrows(ConfigException.class, () -> SHARE.parse("NaN"));
    assertEquals(1.0, SHARE.parse("1"));
  }

  @Test
  void validateFailsOnAnyBadValueAndReportsUnknownKeysWithTheNearestOne() {
    assertThrows(
        ConfigException.class,
        () -> REGISTRY.validate(ConfigSource.of(Map.of("levee.demo.memory.fraction", "1.5"))));
    List<ConfigRegistry.UnknownKey> unknown =
        REGISTRY.validate(
            ConfigSource.of(
                Map.of(
                    "levee.demo.bufer.size",
                    "1m",
                    "levee.demo.zzzzzzzzzzzzzzzzzzzzzzzzz",
                    "x",
                    "levee.demo.queue.q1.weight",
                    "2",
                    "levee.other.key",
                    "x")));
    assertEquals(2, unknown.size());
    assertEquals(Optional.of("levee.demo.buffer.size"), unknown.get(0).nearest());
    assertEquals(
        "unknown setting levee.demo.bufer.size is ignored; did you mean levee.demo.buffer.size?",
        unknown.get(0).message());
    assertEquals(Optional.empty(), unknown.get(1).nearest());
  }

  @Test
  void registryRejectsMistakesInItsOwnDeclarations() {
    ConfigRegistry.Builder b = ConfigRegistry.builder("x", "levee.x.");
    assertThrows(IllegalArgumentException.class, () -> b.key("levee.y.a", ValueTypes.bool()));
    assertThrows(
        ConfigException.class,
        () ->
            b.key("levee.x.a", ValueTypes.bool())
                .defaultValue("maybe")
                .doc("d")
                .since("0.1.0")
                .build());
    assertThrows(
        NullPointerException.class,
        () -> b.key("levee.x.b", ValueTypes.bool()).defaultValue("true").build());
    b.key("levee.x.c", ValueTypes.bool()).defaultValue("true").doc("d").since("0.1.0").build();
    assertThrows(
        IllegalStateException.class,
        () ->
            b.key("levee.x.c", ValueTypes.bool())
                .defaultValue("true")
                .doc("d")
                .since("0.1.0")
                .build());
  }

  @Test
  void typesParseWhatTheyPromise() {
    assertEquals(3L << 30, ValueTypes.parseBytes("3g"));
    assertEquals(3L << 30, ValueTypes.parseBytes("3GB"));
    assertEquals(512L, ValueTypes.parseBytes("512"));
    assertEquals("4k", ValueTypes.formatBytes(4096));
    assertEquals("1000", ValueTypes.formatBytes(1000));
    assertEquals("join", ValueTypes.choice("auto", "group", "join").parse("JOIN"));
    assertEquals("a.b.C$D", ValueTypes.className().parse("a.b.C$D"));
    assertThrows(IllegalArgumentException.class, () -> ValueTypes.className().parse("a..b"));
    assertEquals(Mode.HASH_ONLY, ValueTypes.enumOf(Mode.class).parse("hash-only"));
    assertEquals("fail | hash-only", ValueTypes.enumOf(Mode.class).allowed());
  }

  enum Mode {
    FAIL,
    HASH_ONLY
  }

  @Test
  void docsTableIsGeneratedAndDriftIsCaught(@TempDir Path dir) throws IOException {
    String table = ConfigDocs.render(REGISTRY);
    assertTrue(
        table.contains("| `levee.demo.buffer.size` | `1m` | a byte size between 4k and 1g"), table);
    assertTrue(table.contains("Switch \\| with a pipe."), table);
    assertTrue(table.contains("| `levee.demo.host` | the local host name |"), table);
    Path readme = dir.resolve("README.md");
    Files.writeString(
        readme,
        "# demo\n"
            + ConfigDocs.beginMarker(REGISTRY)
            + "\nstale\n"
            + ConfigDocs.endMarker(REGISTRY)
            + "\nafter\n");
    AssertionError drift =
        assertThrows(AssertionError.class, () -> ConfigDocs.verify(REGISTRY, readme));
    assertTrue(drift.getMessage().contains("./levee docs"), drift.getMessage());
    System.setProperty(ConfigDocs.UPDATE_PROPERTY, "true");
    try {
      ConfigDocs.verify(REGISTRY, readme);
    } finally {
      System.clearProperty(ConfigDocs.UPDATE_PROPERTY);
    }
    ConfigDocs.verify(REGISTRY, readme); // now current
    String text = Files.readString(readme);
    assertTrue(text.startsWith("# demo\n") && text.endsWith("\nafter\n"), text);
    Path bare = dir.resolve("bare.md");
    Files.writeString(bare, "no markers");
    assertThrows(AssertionError.class, () -> ConfigDocs.verify(REGISTRY, bare));
  }

  @Test
  void eachUnknownKeyIsReportedOnceAndBadValuesStillThrow() {
    ConfigRegistry.Builder b = ConfigRegistry.builder("once", "levee.once.");
    b.key("levee.once.size", ValueTypes.bytes(1, 100))
        .defaultValue("10")
        .doc("Size.")
        .since("0.1.0")
        .build();
    ConfigRegistry registry = b.build();
    List<String> warnings = new ArrayList<>();
    ConfigSource typo = ConfigSource.of(Map.of("levee.once.sise", "5"));
    registry.validate(typo, warnings::add);
    registry.validate(typo, warnings::add);
    assertEquals(1, warnings.size(), "one warning per misspelt key: " + warnings);
    assertTrue(warnings.get(0).contains("levee.once.size"), warnings.get(0));
    assertThrows(
        ConfigException.class,
        () -> registry.validate(ConfigSource.of(Map.of("levee.once.size", "1k")), warnings::add));
  }

  @Test
  void entriesSourceReadsKeysAfreshEachTime() {
    List<Map.Entry<String, String>> entries = new ArrayList<>();
    entries.add(new SimpleEntry<>("levee.demo.enabled", "false"));
    ConfigSource source =
        ConfigSource.ofEntries(
            k ->
                entries.stream()
                    .filter(e -> e.getKey().equals(k))
                    .map(Map.Entry::getValue)
                    .findFirst()
                    .orElse(null),
            entries);
    assertEquals(List.of(), REGISTRY.unknownKeys(source));
    entries.add(new SimpleEntry<>("levee.demo.enabeld", "true"));
    assertEquals(
        List.of("levee.demo.enabeld"),
        REGISTRY.unknownKeys(source).stream().map(ConfigRegistry.UnknownKey::name).toList());
    assertFalse(ENABLED.from(source));
  }

  @Test
  void aliasesStandForTheirValueAndOtherTextGoesToTheBaseType() {
    ValueType<String> manager =
        ValueTypes.withAliases(
            ValueTypes.className(), Map.of("sort", "org.example.Sort"), "a class name, or sort");
    assertEquals("org.example.Sort", manager.parse("SORT"));
    assertEquals("org.example.Other", manager.parse("org.example.Other"));
    assertThrows(IllegalArgumentException.class, () -> manager.parse("not a class"));
    assertEquals("a class name, or sort", manager.allowed());
  }
}
