package dev.levee.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SparkShuffleKeysTest {
  private static final String PREFIX = "spark.levee.demo.";
  private static final ConfigRegistry.Builder B = ConfigRegistry.builder("demo", PREFIX);
  private static final ConfigKey<Boolean> ENABLED = SparkShuffleKeys.enabled(B, PREFIX);
  private static final ConfigKey<String> DELEGATE =
      SparkShuffleKeys.delegate(B, PREFIX, "What the demo wraps.");
  private static final ConfigRegistry REGISTRY = B.build();

  @Test
  void bothKeysAreRegisteredUnderThePrefixWithSparksOwnManagerByDefault() {
    assertEquals(2, REGISTRY.keys().size());
    assertEquals(PREFIX + "enabled", ENABLED.name());
    assertEquals(PREFIX + "shuffle.delegate", DELEGATE.name());
    ConfigSource empty = ConfigSource.of(Map.of());
    assertTrue(ENABLED.from(empty));
    assertEquals(SparkShuffleKeys.SPARK_SORT, DELEGATE.from(empty));
    assertEquals("What the demo wraps.", DELEGATE.doc());
  }

  @Test
  void sparksAliasesNameItsOwnManagerAndAnyClassNameIsKept() {
    assertEquals(SparkShuffleKeys.SPARK_SORT, DELEGATE.parse("Tungsten-Sort"));
    assertEquals(SparkShuffleKeys.SPARK_SORT, DELEGATE.parse("sort"));
    assertEquals("com.example.MyManager", DELEGATE.parse("com.example.MyManager"));
    assertFalse(
        ENABLED.from(ConfigSource.of(Map.of(PREFIX + "enabled", "false"))),
        "the switch is read from the source");
  }

  @Test
  void somethingElseIsRefusedWithWhatIsAllowed() {
    ConfigException e =
        assertThrows(
            ConfigException.class,
            () ->
                DELEGATE.from(ConfigSource.of(Map.of(PREFIX + "shuffle.delegate", "not a class"))));
    assertTrue(e.getMessage().contains("sort / tungsten-sort"), e.getMessage());
    assertTrue(e.getMessage().contains(PREFIX + "shuffle.delegate"), e.getMessage());
  }
}
